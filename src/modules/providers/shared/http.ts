import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, type ZlibOptions } from 'node:zlib';
import { ProviderError, parseRetryAfter, upstreamMessage } from '../errors.js';
import type { ProviderId } from '../types.js';
import type { CallSignal } from './call-signal.js';
import { headerOf, post, type UpstreamResponse } from './transport.js';

// Error bodies are only relayed and summarised; a huge one is a broken upstream, not information.
const MAX_ERROR_BODY_BYTES = 64 * 1024;

export interface UpstreamRequest {
  provider: ProviderId;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** POSTs JSON and returns the response when it is 2xx; otherwise throws a ProviderError with the upstream body. */
export async function postJson(req: UpstreamRequest, call: CallSignal): Promise<UpstreamResponse> {
  let response: UpstreamResponse;
  try {
    response = await post(req.url, {
      headers: { accept: 'application/json', 'content-type': 'application/json', ...req.headers },
      body: JSON.stringify(req.body),
      signal: call.signal,
    });
  } catch (err) {
    throw call.toError(err, 'connect');
  }
  call.touch();
  const status = response.statusCode;
  if (status >= 200 && status <= 299) return response;
  const body = await readErrorBody(response, call);
  const detail = upstreamMessage(body);
  throw new ProviderError(`${req.provider} responded ${status}${detail ? `: ${detail}` : ''}`, {
    provider: req.provider,
    status,
    body,
    retryAfter: parseRetryAfter(headerOf(response, 'retry-after')),
  });
}

async function readErrorBody(response: UpstreamResponse, call: CallSignal): Promise<unknown> {
  // Read up to the limit and drop the rest: an upstream (or something posing as one) could send an error
  // body without end.
  const parts: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body) {
      const b = chunk as Buffer;
      parts.push(b);
      size += b.length;
      if (size >= MAX_ERROR_BODY_BYTES) break;
    }
  } catch (err) {
    throw call.toError(err, 'stream');
  } finally {
    // Breaking out of the loop leaves the rest unread; destroying the body releases the connection.
    if (!response.body.destroyed) response.body.destroy();
  }
  const text = Buffer.concat(parts).subarray(0, MAX_ERROR_BODY_BYTES).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function readJson(
  provider: ProviderId,
  response: UpstreamResponse,
  call: CallSignal,
): Promise<unknown> {
  let text: string;
  let raw: Buffer;
  try {
    raw = Buffer.from(await response.body.arrayBuffer());
  } catch (err) {
    throw call.toError(err, 'stream');
  }
  try {
    text = (await decoded(raw, headerOf(response, 'content-encoding'))).toString('utf8');
    return JSON.parse(text);
  } catch (err) {
    throw new ProviderError(`${provider} returned a body that is not JSON`, {
      provider,
      status: 502,
      code: 'invalid_response',
      retryable: true,
      cause: err,
    });
  }
}

/** Largest answer once decompressed: a compressed bomb stops here. */
const MAX_DECODED_BYTES = 64 * 1024 * 1024;
type Decode = (b: Buffer, o: ZlibOptions) => Promise<Buffer>;
// zlib's asynchronous calls, in its thread pool: the synchronous ones held the event loop for the whole
// inflation (a 106-byte brotli body inflating to 63 MB, 180 ms during which no other request moved).
const DECODERS: Record<string, Decode> = {
  gzip: promisify(gunzip) as Decode,
  'x-gzip': promisify(gunzip) as Decode,
  deflate: promisify(inflate) as Decode,
  br: promisify(brotliDecompress) as Decode,
};

/**
 * A provider may compress its answer though none was asked for: each coding undone, within the limit
 * (over it, zlib's range error: readJson's answer that the body is not JSON, as before).
 */
async function decoded(body: Buffer, encoding: string | null): Promise<Buffer> {
  let out = body;
  for (const coding of (encoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .reverse()) {
    if (coding === '' || coding === 'identity') continue;
    const decode = DECODERS[coding];
    if (!decode) throw new Error(`unsupported content-encoding ${coding}`);
    out = await decode(out, { maxOutputLength: MAX_DECODED_BYTES });
  }
  return out;
}

export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}
