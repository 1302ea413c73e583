import { Redis } from 'ioredis';
import type { Clock } from '../clock/index.js';
import { ConfigError } from '../config/index.js';
import { AppError } from '../errors/index.js';

/**
 * Counters shared by every API process when Redis is configured, or kept in this process otherwise.
 * Only what limits and short-lived caches need: windowed counters, plain counters, values with a TTL.
 */
export interface Cache {
  readonly kind: 'memory' | 'redis';
  /** Adds n to a counter that disappears ttlMs after its first write; returns the new value. */
  incr(key: string, n: number, ttlMs: number): Promise<number>;
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Sets the key only when absent; true when this call set it. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  del(key: string): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

interface Entry {
  value: string;
  expiresAt: number;
}

export function createMemoryCache(clock: Clock): Cache {
  const map = new Map<string, Entry>();
  let sweeps = 0;
  const live = (key: string): Entry | undefined => {
    const e = map.get(key);
    if (!e) return undefined;
    if (e.expiresAt <= clock.now().getTime()) {
      map.delete(key);
      return undefined;
    }
    return e;
  };
  // Expired windows are dropped every few thousand writes so a long-running process does not grow.
  const maybeSweep = () => {
    if (++sweeps % 4096 !== 0) return;
    const now = clock.now().getTime();
    for (const [k, e] of map) if (e.expiresAt <= now) map.delete(k);
  };
  return {
    kind: 'memory',
    async incr(key, n, ttlMs) {
      maybeSweep();
      const e = live(key);
      const next = (e ? Number(e.value) : 0) + n;
      map.set(key, { value: String(next), expiresAt: e?.expiresAt ?? clock.now().getTime() + ttlMs });
      return next;
    },
    async get(key) {
      return live(key)?.value ?? null;
    },
    async set(key, value, ttlMs) {
      maybeSweep();
      map.set(key, { value, expiresAt: clock.now().getTime() + ttlMs });
    },
    async setIfAbsent(key, value, ttlMs) {
      if (live(key)) return false;
      map.set(key, { value, expiresAt: clock.now().getTime() + ttlMs });
      return true;
    },
    async del(key) {
      map.delete(key);
    },
    async ping() {
      return true;
    },
    async close() {
      map.clear();
    },
  };
}

const REDIS_COMMAND_TIMEOUT_MS = 5_000;
/** Seconds a client is asked to wait when Redis cannot be reached (ioredis reconnects meanwhile). */
const REDIS_RETRY_AFTER_S = 5;

/**
 * A Redis command that failed (Redis down, unreachable, refusing): 503 `service_unavailable` with
 * `retryAfter`, as docs/errors.md promises for a dependency that is down, instead of a 500 that reads as a
 * bug. The cause (ioredis's error) is logged; the client reads only that the shared cache is unreachable.
 */
function unavailable(err: unknown): AppError {
  return new AppError(
    'service_unavailable',
    'The shared cache (Redis) cannot be reached; try again shortly.',
    { retryAfter: REDIS_RETRY_AFTER_S, cause: err },
  );
}

async function orUnavailable<T>(command: Promise<T>): Promise<T> {
  try {
    return await command;
  } catch (err) {
    throw unavailable(err);
  }
}

export function createRedisCache(url: string, prefix: string): Cache {
  const redis = new Redis(url, {
    keyPrefix: prefix,
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    lazyConnect: false,
    // A peer that accepts and never answers (a wrong port, a dropped route) fails each command after this
    // long instead of holding the request, and the start-up check, forever.
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  });
  // Connection errors surface on the commands that fail; the event is handled so it does not crash the process.
  redis.on('error', () => {});
  return {
    kind: 'redis',
    async incr(key, n, ttlMs) {
      // PEXPIRE with NX keeps the first expiry, so a window never slides. The TTL is relative because
      // the caller's clock may be a test clock that Redis does not share.
      const res = await orUnavailable(
        redis
          .multi()
          .incrby(key, n)
          .pexpire(key, Math.max(1, Math.ceil(ttlMs)), 'NX')
          .exec(),
      );
      const first = res?.[0];
      if (!first || first[0]) throw unavailable(first?.[0] ?? new Error('redis transaction failed'));
      return Number(first[1]);
    },
    async get(key) {
      return orUnavailable(redis.get(key));
    },
    async set(key, value, ttlMs) {
      await orUnavailable(redis.set(key, value, 'PX', Math.max(1, Math.ceil(ttlMs))));
    },
    async setIfAbsent(key, value, ttlMs) {
      const r = await orUnavailable(redis.set(key, value, 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX'));
      return r === 'OK';
    },
    async del(key) {
      await orUnavailable(redis.del(key));
    },
    async ping() {
      try {
        return (await redis.ping()) === 'PONG';
      } catch {
        return false;
      }
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/**
 * A serving process's start-up check of the Redis of REDIS_URL: without it every counted request would
 * answer 503, so the process stops at start instead and says which setting points where (never the URL's
 * password). The API processes, the network proxy and the verification server share it.
 */
export async function assertRedisAnswers(cache: Cache, redisUrl: string): Promise<void> {
  if (await cache.ping()) return;
  const u = new URL(redisUrl);
  throw new ConfigError(
    `Redis does not answer at REDIS_URL (${u.hostname}:${u.port || '6379'}${u.pathname}); start it or correct the variable`,
  );
}

export { createIpcCacheClient, serveIpcCache } from './ipc.js';
export type { IpcChannel } from './ipc.js';
