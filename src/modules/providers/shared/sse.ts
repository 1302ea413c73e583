import { ProviderError } from '../errors.js';
import type { ProviderId } from '../types.js';
import type { CallSignal } from './call-signal.js';
import type { UpstreamResponse } from './transport.js';

export interface SseEvent {
  event: string | undefined;
  data: string;
}

// An event without a boundary would otherwise grow the buffer without limit (a known OOM in other proxies).
const MAX_EVENT_CHARS = 1024 * 1024;

/**
 * Incremental text/event-stream parser: \n, \r\n and \r line endings (Gemini sends CRLF), multi-line data,
 * comment lines (OpenRouter keep-alives) and named events (Anthropic, Cohere).
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private dataChars = 0;
  private event: string | undefined;

  push(text: string): SseEvent[] {
    this.buffer += text;
    const out: SseEvent[] = [];
    const eol = /\r\n|\r|\n/g;
    let start = 0;
    for (let m = eol.exec(this.buffer); m !== null; m = eol.exec(this.buffer)) {
      // A CR at the very end may be the first half of a CRLF split across reads: wait for the next read.
      if (m[0] === '\r' && m.index === this.buffer.length - 1) break;
      this.line(this.buffer.slice(start, m.index), out);
      start = m.index + m[0].length;
    }
    this.buffer = this.buffer.slice(start);
    if (this.buffer.length + this.dataChars > MAX_EVENT_CHARS) throw new RangeError('SSE event too large');
    return out;
  }

  /** Lenient at end of stream: a last event without its blank line is still delivered. */
  end(): SseEvent[] {
    const out: SseEvent[] = [];
    if (this.buffer.length > 0) this.line(this.buffer.replace(/\r$/, ''), out);
    this.buffer = '';
    this.dispatch(out);
    return out;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === '') {
      this.dispatch(out);
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      this.data.push(value);
      this.dataChars += value.length;
    } else if (field === 'event') {
      this.event = value;
    }
  }

  private dispatch(out: SseEvent[]): void {
    if (this.data.length > 0) out.push({ event: this.event, data: this.data.join('\n') });
    this.data = [];
    this.dataChars = 0;
    this.event = undefined;
  }
}

/** Reads an SSE response body as events; read failures become ProviderErrors (aborted, timeout, cut). */
export async function* readSse(
  provider: ProviderId,
  response: UpstreamResponse,
  call: CallSignal,
): AsyncGenerator<SseEvent> {
  const body = response.body;
  const chunks = body.iterator({ destroyOnReturn: false }) as AsyncIterator<Buffer>;
  const decoder = new TextDecoder();
  const parser = new SseParser();
  try {
    while (true) {
      let result: IteratorResult<Buffer>;
      try {
        result = await chunks.next();
      } catch (err) {
        throw call.toError(err, 'stream');
      }
      if (result.done) break;
      call.touch();
      let events: SseEvent[];
      try {
        events = parser.push(decoder.decode(result.value, { stream: true }));
      } catch (err) {
        throw new ProviderError(`${provider} sent an oversized stream event`, {
          provider,
          status: 502,
          code: 'invalid_response',
          retryable: false,
          cause: err,
        });
      }
      yield* events;
    }
    yield* parser.end();
  } finally {
    await chunks.return?.();
    settle(body);
  }
}

// Longer than the gap between a stream's last event and the end of its body on any sane upstream.
const SETTLE_MS = 1_000;

/**
 * Lets the rest of a body the consumer stopped reading arrive and be dropped. After a stream's last event
 * (OpenAI's [DONE]) that rest is only the end of the chunked encoding: reading it keeps the connection in
 * the pool, where destroying the body would close it and make the next call pay for a new TLS handshake.
 * A body that does not end promptly is cut. A consumer that stops before the end cancels the upstream
 * request through the call's signal instead (createHttpAdapter).
 */
function settle(body: UpstreamResponse['body']): void {
  if (body.readableEnded || body.destroyed) return;
  const cut = setTimeout(() => body.destroy(), SETTLE_MS);
  cut.unref();
  // An error now, after the consumer is gone, has nobody left to tell.
  body.on('error', () => {});
  body.once('close', () => clearTimeout(cut));
  body.resume();
}

export function parseEventJson(provider: ProviderId, data: string): unknown {
  try {
    return JSON.parse(data);
  } catch (err) {
    throw new ProviderError(`${provider} sent a stream event that is not JSON`, {
      provider,
      status: 502,
      code: 'invalid_response',
      retryable: false,
      cause: err,
    });
  }
}
