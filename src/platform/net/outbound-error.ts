export type OutboundErrorCode =
  | 'invalid_url'
  | 'ssrf_blocked'
  | 'dns_failed'
  | 'connect_failed'
  | 'timeout'
  | 'tls'
  | 'connection_reset'
  | 'closed';

/** Every failure of an outbound request, classified so callers can record it and decide on retries. */
export class OutboundError extends Error {
  readonly code: OutboundErrorCode;

  constructor(code: OutboundErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OutboundError';
    this.code = code;
  }

  /** A blocked or malformed destination stays blocked; everything else may work on a later attempt. */
  get retryable(): boolean {
    return this.code !== 'ssrf_blocked' && this.code !== 'invalid_url' && this.code !== 'closed';
  }
}

const TLS_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'EPROTO',
]);

/** Maps a socket-level error to an OutboundError, keeping one that is already classified. */
export function toOutboundError(err: unknown, context: string): OutboundError {
  if (err instanceof OutboundError) return err;
  const e = err as NodeJS.ErrnoException & { code?: string };
  const code = typeof e?.code === 'string' ? e.code : '';
  const msg = `${context}: ${e?.message ?? String(err)}`;
  if (TLS_CODES.has(code) || code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS')) {
    return new OutboundError('tls', msg, { cause: err });
  }
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ERR_STREAM_PREMATURE_CLOSE') {
    return new OutboundError('connection_reset', msg, { cause: err });
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new OutboundError('dns_failed', msg, { cause: err });
  if (code === 'ETIMEDOUT') return new OutboundError('timeout', msg, { cause: err });
  return new OutboundError('connect_failed', msg, { cause: err });
}
