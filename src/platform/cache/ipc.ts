import type { Cache } from './index.js';

/** A message pipe to or from another process (cluster IPC in production, a pair of functions in tests). */
export interface IpcChannel {
  /** `onError` hears of a message that could not be sent (the other process is gone). */
  send(message: unknown, onError?: (err: Error) => void): void;
  /** Subscribes to incoming messages; returns the unsubscribe function. */
  listen(handler: (message: unknown) => void): () => void;
}

type Op =
  | { op: 'incr'; key: string; n: number; ttlMs: number }
  | { op: 'get'; key: string }
  | { op: 'set'; key: string; value: string; ttlMs: number }
  | { op: 'setIfAbsent'; key: string; value: string; ttlMs: number }
  | { op: 'del'; key: string };

interface Request {
  parapetCache: 'request';
  batch: Array<{ id: number } & Op>;
}

interface Reply {
  parapetCache: 'reply';
  batch: Array<{ id: number; ok: boolean; value?: unknown; error?: string }>;
}

const isRequest = (m: unknown): m is Request =>
  typeof m === 'object' && m !== null && (m as Request).parapetCache === 'request';
const isReply = (m: unknown): m is Reply =>
  typeof m === 'object' && m !== null && (m as Reply).parapetCache === 'reply';

/** How long a worker waits for the primary before the call fails (the primary is on the same machine). */
const REPLY_TIMEOUT_MS = 5_000;

/**
 * The cache of a worker process whose counters live in the primary's memory: rate limits and quotas stay
 * exact across the processes of one machine without Redis. Calls made in the same turn of the event loop
 * travel as one message each way.
 */
export function createIpcCacheClient(channel: IpcChannel, options: { timeoutMs?: number } = {}): Cache {
  const timeoutMs = options.timeoutMs ?? REPLY_TIMEOUT_MS;
  let nextId = 1;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let outgoing: Request['batch'] = [];

  const stopListening = channel.listen((message) => {
    if (!isReply(message)) return;
    for (const r of message.batch) {
      const w = waiting.get(r.id);
      if (!w) continue;
      waiting.delete(r.id);
      if (r.ok) w.resolve(r.value);
      else w.reject(new Error(`shared cache: ${r.error ?? 'failed'}`));
    }
  });

  function flush(): void {
    const batch = outgoing;
    outgoing = [];
    // Callers fail at once when the primary cannot be reached, instead of at their timeout.
    const failAll = (err: unknown) => {
      for (const r of batch) {
        waiting.get(r.id)?.reject(err instanceof Error ? err : new Error(String(err)));
        waiting.delete(r.id);
      }
    };
    try {
      channel.send({ parapetCache: 'request', batch } satisfies Request, failAll);
    } catch (err) {
      failAll(err);
    }
  }

  function call<T>(op: Op): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        if (waiting.delete(id)) reject(new Error('shared cache: the primary process did not answer'));
      }, timeoutMs);
      waiting.set(id, {
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v as T);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      if (outgoing.length === 0) setImmediate(flush);
      outgoing.push({ id, ...op });
    });
  }

  return {
    kind: 'memory',
    incr: (key, n, ttlMs) => call<number>({ op: 'incr', key, n, ttlMs }),
    get: (key) => call<string | null>({ op: 'get', key }),
    set: (key, value, ttlMs) => call<void>({ op: 'set', key, value, ttlMs }),
    setIfAbsent: (key, value, ttlMs) => call<boolean>({ op: 'setIfAbsent', key, value, ttlMs }),
    del: (key) => call<void>({ op: 'del', key }),
    async ping() {
      try {
        await call<string | null>({ op: 'get', key: 'ping' });
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      stopListening();
      for (const w of waiting.values()) w.reject(new Error('shared cache closed'));
      waiting.clear();
    },
  };
}

async function apply(cache: Cache, r: Op): Promise<unknown> {
  switch (r.op) {
    case 'incr':
      return cache.incr(r.key, r.n, r.ttlMs);
    case 'get':
      return cache.get(r.key);
    case 'set':
      return cache.set(r.key, r.value, r.ttlMs);
    case 'setIfAbsent':
      return cache.setIfAbsent(r.key, r.value, r.ttlMs);
    case 'del':
      return cache.del(r.key);
  }
}

/** The primary's side: answers one worker's requests from the primary's own cache, in order. */
export function serveIpcCache(cache: Cache, channel: IpcChannel): () => void {
  return channel.listen((message) => {
    if (!isRequest(message)) return;
    void (async () => {
      const batch: Reply['batch'] = [];
      for (const r of message.batch) {
        try {
          batch.push({ id: r.id, ok: true, value: (await apply(cache, r)) ?? null });
        } catch (err) {
          batch.push({ id: r.id, ok: false, error: err instanceof Error ? err.message : String(err) });
        }
      }
      try {
        channel.send({ parapetCache: 'reply', batch } satisfies Reply);
      } catch {
        // The worker is gone; its callers went with it.
      }
    })();
  });
}
