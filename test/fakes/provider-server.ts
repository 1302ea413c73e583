// A fake LLM provider for tests: a real HTTP server on 127.0.0.1 (random port) that answers in each
// provider's wire format, streaming included, and records what it received. See test/fakes/README.md.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  cohereV1ChatWire,
  completionsWire,
  conversationsWire,
  countWire,
  embedWire,
  moderationsWire,
  rerankWire,
} from './more-ops-wire.js';
import { embeddingsWire, responsesWire } from './openai-more-wire.js';
import { anthropicBatchWire, geminiBatchWire, openaiConversationsWire } from './stored-ops-wire.js';
import {
  type FakeReply,
  type FakeWire,
  type Frame,
  formatFor,
  type WireName as ChatWire,
} from './provider-wire.js';

/** The chat formats of provider-wire.ts, OpenAI's Responses API and embeddings, and more-ops-wire.ts. */
export type WireName = ChatWire | 'responses' | 'embeddings' | keyof typeof MORE;

const MORE = {
  completions: completionsWire,
  'cohere-v1-chat': cohereV1ChatWire,
  count: countWire,
  'anthropic-batch': anthropicBatchWire,
  'gemini-batch': geminiBatchWire,
  'openai-conversations': openaiConversationsWire,
  moderations: moderationsWire,
  embed: embedWire,
  rerank: rerankWire,
  conversations: conversationsWire,
};

function wireOf(name: WireName): FakeWire {
  if (name === 'responses') return responsesWire;
  if (name === 'embeddings') return embeddingsWire;
  if (name in MORE) return MORE[name as keyof typeof MORE];
  return formatFor(name as ChatWire);
}

export interface FakeToolCall {
  name: string;
  arguments: Record<string, unknown>;
  id?: string;
}

/** What the server does with a request. Set a default with setBehavior, or queue one-shot behaviours. */
export interface FakeBehavior {
  /** Answer with this HTTP status and the provider's own error body instead of a completion. */
  status?: number;
  /** Seconds, sent as Retry-After (use with status 429). */
  retryAfter?: number;
  errorMessage?: string;
  /** Fixed assistant text; by default the server echoes the last user message verbatim. */
  reply?: string;
  toolCalls?: FakeToolCall[];
  /** Tool calls made from the text the answer echoes (the request as tokenized), after `toolCalls`. */
  toolCallsOf?: (text: string) => FakeToolCall[];
  /** Responses streams: characters per function-call argument delta (default: two halves). */
  argChunkSize?: number;
  /** Characters per streamed text chunk (default 8). */
  chunkSize?: number;
  /** Wait before the first byte of the body (streams: headers go out first, like a slow first token). */
  firstChunkDelayMs?: number;
  /** Wait between stream frames. */
  chunkDelayMs?: number;
  /**
   * Streams (and raw bodies: batch results): write each frame in pieces of this many bytes, a millisecond
   * apart, so that the reader gets reads that end inside a multi-byte UTF-8 character (as TCP segments of a
   * real provider can).
   */
  byteChunk?: number;
  /** Extra headers of a successful answer (whole or streamed), e.g. a provider's set-cookie. */
  headers?: Record<string, string>;
  /** Streams: after this many content frames, send the provider's in-stream error event and end. */
  errorAfterChunks?: number;
  /** Streams: after this many content frames, destroy the socket (a dropped connection). */
  dropAfterChunks?: number;
  /** Streams: after this many content frames, write half of the next frame and destroy the socket. */
  cutInsideFrameAfterChunks?: number;
  /** Streams: after this many content frames, write half of the next frame and send nothing more (stalled). */
  stallInsideFrameAfterChunks?: number;
  /** Destroy the socket as soon as the request has been read. */
  dropConnection?: boolean;
  usage?: { prompt: number; completion: number };
  /** OpenAI formats: the answer's finish reason instead of stop / tool_calls (e.g. 'length'). */
  finishReason?: string;
}

export interface RecordedRequest {
  /** First path segment of the base URL the test configured (e.g. 'groq'), see baseUrls. */
  provider: string;
  format: WireName | 'unknown';
  method: string;
  /** Path and query as received. */
  url: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  /** The body exactly as received (to prove a relayed body was not rewritten). */
  raw: string;
  stream: boolean;
  /** True when the client went away before the response was complete (abort propagation). */
  closedEarly: boolean;
  /** True when the server finished writing the whole response. */
  completed: boolean;
}

export type FakeProviderId =
  | 'openai'
  | 'azure'
  | 'anthropic'
  | 'google'
  | 'mistral'
  | 'cohere'
  | 'openrouter'
  | 'together'
  | 'fireworks'
  | 'groq';

export interface FakeProviderServer {
  url: string;
  port: number;
  /** Base URLs shaped like the real ones, for createProviders({ baseUrls }). */
  baseUrls: Record<FakeProviderId, string>;
  requests: RecordedRequest[];
  lastRequest(): RecordedRequest | undefined;
  setBehavior(behavior: FakeBehavior): void;
  /** One-shot behaviours, used (in order) before the default one. */
  queue(...behaviors: FakeBehavior[]): void;
  /** Clears recorded requests, the queue, the default behaviour and the response-id counter. */
  reset(): void;
  /** Resolves once the predicate holds (checked every few ms); rejects after timeoutMs (default 2000). */
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const BASE_PATHS: Record<FakeProviderId, string> = {
  openai: '/openai/v1',
  azure: '/azure',
  anthropic: '/anthropic',
  google: '/google',
  mistral: '/mistral/v1',
  cohere: '/cohere',
  openrouter: '/openrouter/api/v1',
  together: '/together/v1',
  fireworks: '/fireworks/inference/v1',
  groq: '/groq/openai/v1',
};

// Bodies are test fixtures; anything bigger is a bug in the test.
const MAX_BODY_BYTES = 4 * 1024 * 1024;

function detectFormat(provider: string, path: string): WireName | 'unknown' {
  if (path.endsWith('/v1/messages')) return 'anthropic';
  if (
    path.endsWith('/count_tokens') ||
    path.endsWith(':countTokens') ||
    path.endsWith('/responses/input_tokens')
  )
    return 'count';
  if (/\/messages\/batches(\/[^/]+(\/results)?)?$/.test(path)) return 'anthropic-batch';
  if (/:(batchGenerateContent|asyncBatchEmbedContent)$/.test(path)) return 'gemini-batch';
  if (provider === 'google' && /\/batches\/[^/:]+$/.test(path)) return 'gemini-batch';
  if (provider === 'openai' && /\/v1\/conversations(\/[^/]+(\/items)?)?$/.test(path))
    return 'openai-conversations';
  if (path.endsWith('/v1/chat') && provider === 'cohere') return 'cohere-v1-chat';
  if (path.endsWith('/embed') || path.endsWith(':embedContent') || path.endsWith(':batchEmbedContents'))
    return 'embed';
  if (path.endsWith('/rerank')) return 'rerank';
  if (path.endsWith('/moderations')) return 'moderations';
  if (/\/conversations(\/[^/]+)?$/.test(path)) return 'conversations';
  if (path.endsWith('/fim/completions') || path.endsWith('/agents/completions')) return 'openai';
  if (path.endsWith('/v1/completions')) return 'completions';
  if (path.includes(':generateContent') || path.includes(':streamGenerateContent')) return 'google';
  if (path.endsWith('/v2/chat')) return 'cohere';
  if (path.endsWith('/chat/completions')) return provider === 'azure' ? 'azure' : 'openai';
  if (path.endsWith('/responses')) return 'responses';
  if (path.endsWith('/embeddings')) return 'embeddings';
  return 'unknown';
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req) {
    const buf = part as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) throw new Error('fake provider: request body too large');
    parts.push(buf);
  }
  return Buffer.concat(parts).toString('utf8');
}

export async function startFakeProviderServer(initial: FakeBehavior = {}): Promise<FakeProviderServer> {
  let behavior: FakeBehavior = { ...initial };
  const oneShots: FakeBehavior[] = [];
  const requests: RecordedRequest[] = [];
  const store = new Map<string, unknown>();
  let serverUrl = '';
  let counter = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const provider = url.pathname.split('/')[1] ?? '';
    const format = detectFormat(provider, url.pathname);
    const raw = await readBody(req);
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      // Recorded as text so the test can see what went wrong.
    }
    const wire = format === 'unknown' ? undefined : wireOf(format);
    const record: RecordedRequest = {
      provider,
      format,
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: { ...req.headers },
      body,
      raw,
      stream: wire ? wire.isStream(url, body) : false,
      closedEarly: false,
      completed: false,
    };
    requests.push(record);
    res.on('close', () => {
      if (!res.writableFinished) record.closedEarly = true;
    });

    const b = oneShots.shift() ?? behavior;
    if (b.dropConnection) {
      req.socket.destroy();
      return;
    }
    if (!wire) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `fake provider: no route for ${url.pathname}` } }));
      return;
    }
    const closed = new AbortController();
    res.on('close', () => closed.abort());
    const pause = async (ms: number | undefined) => {
      if (!ms) return;
      await sleep(ms, undefined, { signal: closed.signal }).catch(() => {});
    };

    if (b.status !== undefined && b.status >= 400) {
      await pause(b.firstChunkDelayMs);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (b.retryAfter !== undefined) headers['retry-after'] = String(b.retryAfter);
      res.writeHead(b.status, headers);
      res.end(JSON.stringify(wire.errorBody(b.status, b.errorMessage ?? 'fake provider error')));
      record.completed = true;
      return;
    }

    counter++;
    const text = b.reply ?? wire.lastUserText(body);
    const reply: FakeReply = {
      id: String(counter),
      model: wire.model(url, body),
      text,
      toolCalls: [...(b.toolCalls ?? []), ...(b.toolCallsOf?.(text) ?? [])],
      chunkSize: b.chunkSize ?? 8,
      argChunkSize: b.argChunkSize ?? 0,
      usage: b.usage ?? { prompt: 11, completion: 7 },
      ...(b.finishReason ? { finishReason: b.finishReason } : {}),
      provider,
      body,
      method: record.method,
      path: url.pathname,
      origin: serverUrl,
      store,
    };

    if (!record.stream) {
      await pause(b.firstChunkDelayMs);
      if (closed.signal.aborted) return;
      const raw = wire.raw?.(reply);
      res.writeHead(200, { 'content-type': raw?.type ?? 'application/json', ...b.headers });
      if (raw && b.byteChunk) {
        // A raw body (batch results JSONL) in pieces too: lines and characters split across reads.
        const bytes = Buffer.from(raw.text, 'utf8');
        for (let at = 0; at < bytes.length; at += b.byteChunk) {
          res.write(bytes.subarray(at, at + b.byteChunk));
          await pause(1);
          if (closed.signal.aborted) return;
        }
        res.end();
      } else res.end(raw ? raw.text : JSON.stringify(wire.response(reply)));
      record.completed = true;
      return;
    }

    const sse = wire.sse(url);
    res.writeHead(200, {
      'content-type': sse ? 'text/event-stream' : 'application/json',
      'cache-control': 'no-cache',
      ...b.headers,
    });
    res.flushHeaders();
    const frames: Frame[] = wire.streamFrames(reply, sse);
    let contentSent = 0;
    let first = true;
    for (const frame of frames) {
      await pause(first ? b.firstChunkDelayMs : b.chunkDelayMs);
      first = false;
      if (closed.signal.aborted) return;
      if (frame.content) {
        if (b.dropAfterChunks !== undefined && contentSent >= b.dropAfterChunks) {
          req.socket.destroy();
          return;
        }
        if (b.cutInsideFrameAfterChunks !== undefined && contentSent >= b.cutInsideFrameAfterChunks) {
          res.write(frame.text.slice(0, Math.floor(frame.text.length / 2)));
          await pause(5);
          req.socket.destroy();
          return;
        }
        if (b.stallInsideFrameAfterChunks !== undefined && contentSent >= b.stallInsideFrameAfterChunks) {
          res.write(frame.text.slice(0, Math.floor(frame.text.length / 2)));
          // Until the client goes away (the proxy's idle timeout ends the call).
          await pause(60_000);
          return;
        }
        if (b.errorAfterChunks !== undefined && contentSent >= b.errorAfterChunks) {
          res.end(wire.streamError(sse, b.errorMessage ?? 'fake provider failed mid-stream'));
          record.completed = true;
          return;
        }
        contentSent++;
      }
      if (b.byteChunk) {
        const bytes = Buffer.from(frame.text, 'utf8');
        for (let at = 0; at < bytes.length; at += b.byteChunk) {
          res.write(bytes.subarray(at, at + b.byteChunk));
          await pause(1);
          if (closed.signal.aborted) return;
        }
      } else res.write(frame.text);
    }
    res.end();
    record.completed = true;
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(err) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  serverUrl = url;
  const baseUrls = Object.fromEntries(
    Object.entries(BASE_PATHS).map(([id, path]) => [id, url + path]),
  ) as Record<FakeProviderId, string>;

  return {
    url,
    port,
    baseUrls,
    requests,
    lastRequest: () => requests[requests.length - 1],
    setBehavior(next) {
      behavior = { ...next };
    },
    queue(...next) {
      oneShots.push(...next);
    },
    reset() {
      requests.length = 0;
      oneShots.length = 0;
      behavior = {};
      store.clear();
      counter = 0;
    },
    async waitFor(predicate, timeoutMs = 2000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error('fake provider: condition not met in time');
        await sleep(5);
      }
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
