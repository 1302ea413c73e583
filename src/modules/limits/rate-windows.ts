import type { Cache } from '../../platform/cache/index.js';
import type { Clock } from '../../platform/clock/index.js';
import { AppError } from '../../platform/errors/index.js';

const WINDOW_MS = 60_000;
/**
 * Windows at least this large take their counts from the shared counter in blocks (leases) of a
 * thousandth of the limit instead of one by one. Behind a cluster every count is a round trip to the
 * primary process (or to Redis): at the enterprise ceiling that was one IPC message each way per request,
 * about 0.1 ms of the primary's CPU per proxied request. Plan limits (at most 300 a minute) stay exact;
 * so do the per-address and per-device windows at their defaults (below 60,000).
 */
const LEASE_FROM = 60_000;
const LEASE_PART = 1_000;

export interface RateState {
  limit: number;
  remaining: number;
  /** Unix seconds when the current window ends. */
  reset: number;
  exceeded: boolean;
  retryAfter: number;
}

export function rateLimitHeaders(s: RateState): Record<string, string> {
  return {
    'x-ratelimit-limit': String(s.limit),
    'x-ratelimit-remaining': String(s.remaining),
    'x-ratelimit-reset': String(s.reset),
  };
}

export function rateLimitedError(s: RateState): AppError {
  return new AppError(
    'rate_limit_exceeded',
    `Rate limit of ${s.limit} requests per minute reached; retry in ${s.retryAfter} seconds.`,
    { retryAfter: s.retryAfter },
  );
}

/**
 * Fixed one-minute windows on any key, counted in the shared cache (memory, the cluster's primary, or
 * Redis): the one limiter of every server process. The API's organizations, sessions, devices and
 * addresses count here through the limits service; the verification server counts its keys and
 * addresses here too (docs/verifier.md).
 */
export function createRateWindows(deps: { cache: Cache; clock: Clock }) {
  const { cache, clock } = deps;

  /** This process's current block of counts per window key (see LEASE_FROM), of the current window. */
  const leases = new Map<string, { window: number; next: number; end: number }>();
  const leasing = new Map<string, Promise<unknown>>();
  let leasesWindow = 0;

  /**
   * When a window starts, the blocks of the past ones go. Not only the organizations' windows are this
   * large: the per-address ones (PARAPET_ANONYMOUS_PER_MINUTE, PARAPET_AUTH_FAILURES_PER_MINUTE) and the
   * devices' accept up to 1,000,000, and kept forever their blocks would grow by one per address ever seen.
   */
  function dropPastLeases(windowStart: number): void {
    if (windowStart <= leasesWindow) return;
    leasesWindow = windowStart;
    for (const [key, lease] of leases) if (lease.window < windowStart) leases.delete(key);
  }

  /**
   * The count of one hit in `key`'s window, from this process's block of counts; a new block is taken from
   * the shared counter when this one is used up. Every block is a distinct range of the shared count, so
   * no two hits anywhere get the same count and no more than `limit` hits are admitted in a window; counts
   * that another process holds but does not use make this one refuse up to a block early.
   */
  async function leasedHit(key: string, windowStart: number, size: number, ttlMs: number): Promise<number> {
    dropPastLeases(windowStart);
    for (;;) {
      const lease = leases.get(key);
      if (lease && lease.window === windowStart && lease.next <= lease.end) return lease.next++;
      let taking = leasing.get(key);
      if (!taking) {
        taking = cache
          .incr(`${key}:${windowStart}`, size, ttlMs)
          .then((end) => {
            const current = leases.get(key);
            // A block of an older window that arrives late must not replace the current one.
            if (!current || current.window <= windowStart)
              leases.set(key, { window: windowStart, next: end - size + 1, end });
          })
          .finally(() => leasing.delete(key));
        leasing.set(key, taking);
      }
      await taking;
      // Another process's window may have moved on while this one waited: the loop takes what is there.
      if (leases.get(key)?.window !== windowStart) return cache.incr(`${key}:${windowStart}`, 1, ttlMs);
    }
  }

  return {
    /** The blocks of counts this process holds, one per window key (tests and metrics). */
    leaseCount(): number {
      return leases.size;
    },

    /**
     * Gives back one hit that `hit` counted, in the window it was counted in (a later window is left alone:
     * its count never held it). Why: a limit on failures (sign-ins by address, password changes by user)
     * counts every attempt first, so that parallel guesses cannot all pass a check made before any is
     * counted, and then releases the attempts that succeeded. Only windows counted one by one (limits below
     * LEASE_FROM) release: a leased block is this process's own and has no single hit to return.
     */
    async release(key: string, state: RateState): Promise<void> {
      if (state.limit >= LEASE_FROM) return;
      const resetMs = state.reset * 1000;
      const nowMs = clock.now().getTime();
      if (nowMs >= resetMs) return;
      await cache.incr(`${key}:${resetMs - WINDOW_MS}`, -1, resetMs - nowMs + 1_000);
    },

    /** A fixed one-minute window on any key (organizations, sessions, failed logins by address). */
    async hit(key: string, limit: number): Promise<RateState> {
      const nowMs = clock.now().getTime();
      const windowStart = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
      const resetMs = windowStart + WINDOW_MS;
      const ttlMs = resetMs - nowMs + 1_000;
      const count =
        limit >= LEASE_FROM
          ? await leasedHit(key, windowStart, Math.floor(limit / LEASE_PART), ttlMs)
          : await cache.incr(`${key}:${windowStart}`, 1, ttlMs);
      const retryAfter = Math.max(1, Math.ceil((resetMs - nowMs) / 1000));
      return {
        limit,
        remaining: Math.max(0, limit - count),
        reset: Math.ceil(resetMs / 1000),
        exceeded: count > limit,
        retryAfter,
      };
    },
  };
}

export type RateWindows = ReturnType<typeof createRateWindows>;
