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
export function refuseServiceSecrets(incoming: Record<string, string | string[] | undefined>, query: string): void {
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

/** The same error sent in-band, once a stream's status line is out. */
export function streamErrorFrame(provider: NetProvider, sse: boolean, message: string): string {
  const body = JSON.stringify(providerErrorBody(provider, 502, message));
  if (!sse) return `,\r\n${body}]`;
  if (provider === 'anthropic') return `event: error\ndata: ${body}\n\n`;
  if (provider === 'google') return `data: ${body}\r\n\r\n`;
  return `data: ${body}\n\n`;
}
