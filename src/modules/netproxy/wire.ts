import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import * as zlib from 'node:zlib';
import { AppError } from '../../platform/errors/index.js';
import { holdsServiceSecret } from '../keys/index.js';
import type { NetProvider } from './formats.js';
import { zstdDecompress } from './zstd.js';

/** Headers that describe one connection, not the message: never forwarded either way (RFC 9110 §7.6.1). */
export const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);

/** Ours: the service key and organization stop here; the provider never sees them. */
const OWN = new Set(['x-service-key', 'x-service-organization', 'cookie']);

/**
 * A Parapet key where the provider's key belongs (an SDK's apiKey set to it, a stray X-Api-Key, `?key=`)
 * would hand the organization's credential to the provider: refused before anything is read or sent.
 */
export function refuseServiceSecrets(
  incoming: Record<string, string | string[] | undefined>,
  query: string,
): void {
  for (const [k, v] of Object.entries(incoming)) {
    if (v === undefined || OWN.has(k)) continue;
    if (typeof v === 'string' ? holdsServiceSecret(v) : v.some(holdsServiceSecret)) {
      throw new AppError(
        'invalid_request',
        `The ${k} header holds a Parapet key, which is never sent to the provider: send it as X-Service-Key, and the provider's own key where the provider expects it.`,
      );
    }
  }
  if (holdsServiceSecret(decodeURIComponentSafe(query))) {
    throw new AppError(
      'invalid_request',
      "The query string holds a Parapet key, which is never sent to the provider: send it as X-Service-Key, and the provider's own key where the provider expects it.",
    );
  }
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export function upstreamHeaders(
  incoming: Record<string, string | string[] | undefined>,
  changedBody: boolean,
  readResponse: boolean,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(incoming)) {
    if (v === undefined || HOP_BY_HOP.has(k) || OWN.has(k)) continue;
    if (changedBody && k === 'content-encoding') continue;
    out[k] = v;
  }
  // A response the proxy rewrites is asked for uncompressed (it is decompressed all the same if it comes
  // compressed); one it only relays keeps the client's own choice.
  if (readResponse) out['accept-encoding'] = 'identity';
  return out;
}

export function clientHeaders(
  upstream: Record<string, string | string[] | undefined>,
  rewritten: boolean,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(upstream)) {
    // A provider's cookies are of no use to an API client, and a browser would keep them for this proxy's
    // host, where the dashboard's session cookie lives too (cookies do not keep to a port).
    if (v === undefined || HOP_BY_HOP.has(k) || k === 'set-cookie') continue;
    if (rewritten && k === 'content-encoding') continue;
    out[k] = v;
  }
  return out;
}

type Decoder = (buf: Buffer, opts: { maxOutputLength: number }) => Buffer;
// Node has zstd from 22.15 on; before that, fzstd (pure JS) with a bounded window.
const zstd = (zlib as unknown as { zstdDecompressSync?: Decoder }).zstdDecompressSync ?? zstdDecompress;
const DECODERS: Record<string, Decoder | undefined> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
  zstd,
};

/** A body as the provider would read it: every content coding undone, within the size limit. */
export function decodeBody(body: Buffer, encoding: string | undefined, limit: number): Buffer {
  if (!encoding || encoding === 'identity') return body;
  let out = body;
  for (const coding of encoding
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .reverse()) {
    if (coding === '' || coding === 'identity') continue;
    const decode = DECODERS[coding];
    if (!decode) {
      throw new AppError(
        'unsupported_media_type',
        `Content-Encoding '${coding}' cannot be inspected here; send the body uncompressed, gzip, deflate, br or zstd.`,
      );
    }
    try {
      out = decode(out, { maxOutputLength: limit });
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_ZSTD_WINDOW')
        throw new AppError(
          'unsupported_media_type',
          'The zstd body declares a window over 8 MB, more than RFC 8878 lets an HTTP encoder use; compress it with a smaller window (level 19 or lower).',
        );
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
        throw new AppError(
          'payload_too_large',
          'The decompressed request body is larger than this proxy accepts.',
        );
      throw new AppError('invalid_request', `The request body is not valid ${coding} data.`);
    }
    if (out.length > limit)
      throw new AppError(
        'payload_too_large',
        'The decompressed request body is larger than this proxy accepts.',
      );
  }
  return out;
}

/**
 * An error of our own (the provider could not be reached, or timed out) in the provider's own error
 * format, so the caller's SDK raises its usual error type with our message.
 */
export function providerErrorBody(provider: NetProvider, status: number, message: string): unknown {
  const timeout = status === 504;
  switch (provider) {
    case 'anthropic':
      return { type: 'error', error: { type: timeout ? 'timeout_error' : 'api_error', message } };
    case 'google':
      return { error: { code: status, message, status: timeout ? 'DEADLINE_EXCEEDED' : 'UNAVAILABLE' } };
    case 'cohere':
      return { message };
    default:
      return {
        error: {
          message,
          type: timeout ? 'timeout' : 'upstream_error',
          code: timeout ? 'timeout' : 'upstream_error',
        },
      };
  }
}

/** Parapet's own error body (platform/errors errorBody), as the server's error handler sends it. */
export interface OwnError {
  error: string;
  message: string;
  statusCode: number;
  [field: string]: unknown;
}

export function isOwnError(v: unknown): v is OwnError {
  const o = v as Partial<OwnError> | null;
  return (
    typeof o === 'object' &&
    o !== null &&
    typeof o.error === 'string' &&
    typeof o.message === 'string' &&
    typeof o.statusCode === 'number'
  );
}

// The provider's own words for a status, so that the SDK raises its usual error class for it.
const OPENAI_TYPE: Record<number, string> = {
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
};
const ANTHROPIC_TYPE: Record<number, string> = { ...OPENAI_TYPE, 413: 'request_too_large' };
const GOOGLE_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  413: 'INVALID_ARGUMENT',
  415: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
};

/**
 * Parapet's own refusal on the network proxy (401, 403 block, force, quota or entitlement, 400, 404, 413,
 * 415, 429) in the provider's error format: the SDK shows the message (the spec's body left it at
 * "forbidden"). Parapet's code stays in the body (`code`, Gemini's ErrorInfo `reason`, Anthropic's
 * `error.code`), and so do the request id and `retryAfter`.
 */
export function ownErrorBody(provider: NetProvider, own: OwnError): unknown {
  const { error: code, message, statusCode: status, ...rest } = own;
  const text = `Parapet: ${message}`;
  switch (provider) {
    case 'anthropic':
      return {
        type: 'error',
        error: { type: ANTHROPIC_TYPE[status] ?? 'invalid_request_error', message: text, code },
        ...rest,
      };
    case 'google':
      return {
        error: {
          code: status,
          message: text,
          status: GOOGLE_STATUS[status] ?? 'FAILED_PRECONDITION',
          details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: code, domain: 'parapet' }],
        },
        ...rest,
      };
    case 'cohere':
      return { message: text, code, ...rest };
    case 'mistral':
      return {
        object: 'error',
        message: text,
        type: OPENAI_TYPE[status] ?? 'invalid_request_error',
        param: null,
        code,
        ...rest,
      };
    default:
      return {
        error: { message: text, type: OPENAI_TYPE[status] ?? 'invalid_request_error', param: null, code },
        ...rest,
      };
  }
}

/**
 * The same error sent in-band, once a stream's status line is out. A streamed JSON array (`sse` false) ends
 * with the error as its last element: `opened` says whether its `[` went out already (a stream cut before
 * its first element opens the array with the error, so the answer is still valid JSON).
 */
export function streamErrorFrame(
  provider: NetProvider,
  sse: boolean,
  message: string,
  opened = true,
): string {
  const body = JSON.stringify(providerErrorBody(provider, 502, message));
  if (!sse) return opened ? `,\r\n${body}]` : `[${body}]`;
  if (provider === 'anthropic') return `event: error\ndata: ${body}\n\n`;
  if (provider === 'google') return `data: ${body}\r\n\r\n`;
  // Cohere v2 and Mistral have no error event: their SDKs parse every event against its schema, and an
  // error object is a parse error there (the message lost). Each provider reports a failed generation as
  // the end of the answer with finish reason ERROR / "error": that is what the SDK surfaces. Cohere's
  // message-end carries the message; the Mistral chunk carries it beside, for readers of the raw stream.
  if (provider === 'cohere')
    return `data: ${JSON.stringify({ type: 'message-end', delta: { finish_reason: 'ERROR', error: message } })}\n\n`;
  if (provider === 'mistral') {
    const chunk = {
      id: 'parapet-stream-error',
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model: 'unknown',
      choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
      parapet_error: { message },
    };
    return `data: ${JSON.stringify(chunk)}\n\n`;
  }
  return `data: ${body}\n\n`;
}
