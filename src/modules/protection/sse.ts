import type { ServerResponse } from 'node:http';
import { AbortEmitter } from '../providers/index.js';

export const KEEP_ALIVE_MS = 15_000;
/** A client that reads nothing for this long while we have data for it is cut off. */
const DRAIN_TIMEOUT_MS = 60_000;

export interface SseSink {
  /** Aborts when the client goes away; pass it to the provider call so upstream stops too. */
  readonly signal: AbortEmitter;
  readonly closed: boolean;
  /** Writes raw SSE text; waits for the socket to drain when its buffer is full (backpressure). */
  write(text: string): Promise<boolean>;
  data(value: unknown): Promise<boolean>;
  end(): void;
}

/**
 * Takes over the raw response for Server-Sent Events: headers out at once unless told otherwise (with those
 * Fastify already set, such as the rate-limit headers), a comment every keepAliveMs while nothing else is
 * sent so idle-timeout proxies keep the stream open, and writes that wait for 'drain' so a slow reader
 * holds the upstream back instead of filling memory.
 */
export function openSse(
  raw: ServerResponse,
  headers: Record<string, string | number | string[] | undefined>,
  options: {
    keepAliveMs?: number;
    trailers?: string[];
    /**
     * False when the first event follows at once (the provider proxy opens the upstream before the
     * response): the headers then leave in the same write as that event, one system call and one wake-up
     * of the client fewer before its first token. Left true where the first event may take a while.
     */
    flushHeaders?: boolean;
  } = {},
): SseSink {
  const gone = new AbortEmitter();
  let closed = false;
  let lastWrite = Date.now();
  const keepAliveMs = options.keepAliveMs ?? KEEP_ALIVE_MS;

  const clean: Record<string, string | number | string[]> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined || k === 'content-length' || k === 'content-type') continue;
    clean[k] = v;
  }
  raw.writeHead(200, {
    ...clean,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
    connection: 'keep-alive',
    ...(options.trailers?.length ? { trailer: options.trailers.join(', ') } : {}),
  });
  if (options.flushHeaders !== false) raw.flushHeaders();

  const onClose = () => {
    if (!raw.writableFinished) gone.abort();
    closed = true;
    clearInterval(timer);
  };
  raw.on('close', onClose);

  const timer = setInterval(
    () => {
      if (closed) return;
      if (Date.now() - lastWrite >= keepAliveMs && raw.writableLength === 0) {
        raw.write(': keep-alive\n\n');
        lastWrite = Date.now();
      }
    },
    Math.max(5, Math.floor(keepAliveMs / 2)),
  );
  timer.unref();

  async function waitDrain(): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(t);
        raw.off('drain', onDrain);
        raw.off('close', onGone);
        resolve(ok);
      };
      const onDrain = () => done(true);
      const onGone = () => done(false);
      const t = setTimeout(() => {
        done(false);
        raw.destroy();
      }, DRAIN_TIMEOUT_MS);
      raw.on('drain', onDrain);
      raw.on('close', onGone);
    });
  }

  return {
    signal: gone,
    get closed() {
      return closed || raw.destroyed;
    },
    async write(text: string): Promise<boolean> {
      if (closed || raw.destroyed) return false;
      lastWrite = Date.now();
      if (raw.write(text)) return true;
      return waitDrain();
    },
    data(value: unknown): Promise<boolean> {
      return this.write(`data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`);
    },
    end(): void {
      clearInterval(timer);
      if (!raw.destroyed && !raw.writableEnded) raw.end();
    },
  };
}
