import type { Cache } from '../../platform/cache/index.js';
import type { Clock } from '../../platform/clock/index.js';
import { AppError } from '../../platform/errors/index.js';
import type { Db } from '../../platform/storage/index.js';
import type { Organization } from '../orgs/index.js';
import { PLAN_LIMITS, type Product } from '../plans/index.js';
import { createLimitsRepo, type UsageDayDelta, type UsageDelta } from './limits.repo.js';
import { quotaPeriod } from './period.js';
import { createRateWindows, type RateState } from './rate-windows.js';

/** Enterprise is unlimited by plan; this ceiling only keeps one runaway client from starving the service. */
export const UNLIMITED_RATE_CEILING = 1_000_000;
const FLUSH_MS = 1_000;

export type QuotaEventFn = (
  org: Organization,
  type: 'quota.warning' | 'quota.exceeded',
  data: Record<string, unknown>,
) => Promise<unknown>;

export interface UsageStats {
  period: string;
  requestsUsed: number;
  requestsLimit: number;
  blocked: number;
  avgScore: number;
}

export function createLimitsService(deps: { db: Db; cache: Cache; clock: Clock; emit: QuotaEventFn }) {
  const { cache, clock } = deps;
  const repo = createLimitsRepo(deps.db);
  const pending = new Map<string, UsageDelta & { orgId: string; product: string; period: string }>();
  let flushing: Promise<void> | null = null;

  async function flush(): Promise<void> {
    // Wait for the flush in flight, then write what came in since: returning the one in flight let close()
    // finish, and usage() read, without the counts recorded meanwhile.
    while (flushing) await flushing;
    if (pending.size === 0 && pendingDays.size === 0) return;
    const batch = [...pending.values()];
    pending.clear();
    const dayBatch = [...pendingDays.values()];
    pendingDays.clear();
    flushing = (async () => {
      try {
        await repo.addDays(dayBatch);
      } catch {
        // As below: the daily figures go back and the next flush retries them.
        for (const d of dayBatch) accumulateDay(d.orgId, d.product, d.day, d.requests, d.blocked);
      }
      for (const d of batch) {
        try {
          await repo.add(d.orgId, d.product, d.period, d);
        } catch {
          // Put the figures back so the next flush retries them rather than losing them.
          const key = `${d.orgId}|${d.product}|${d.period}`;
          const cur = pending.get(key);
          if (cur) {
            cur.requests += d.requests;
            cur.blocked += d.blocked;
            cur.warned += d.warned;
            cur.scoreSum += d.scoreSum;
            cur.scored += d.scored;
          } else pending.set(key, d);
        }
      }
    })().finally(() => {
      flushing = null;
    });
    return flushing;
  }
  const timer = setInterval(() => void flush(), FLUSH_MS);
  timer.unref();

  /** Requests and blocks per UTC day, for the dashboard's daily chart (the quota reads the monthly rows). */
  const pendingDays = new Map<string, UsageDayDelta>();
  function accumulateDay(orgId: string, product: string, day: string, requests: number, blocked: number) {
    const key = `${orgId}|${product}|${day}`;
    let cur = pendingDays.get(key);
    if (!cur) {
      cur = { orgId, product, day, requests: 0, blocked: 0 };
      pendingDays.set(key, cur);
    }
    cur.requests += requests;
    cur.blocked += blocked;
  }
  const today = () => clock.now().toISOString().slice(0, 10);

  function accumulate(orgId: string, product: string, period: string, d: Partial<UsageDelta>) {
    const key = `${orgId}|${product}|${period}`;
    let cur = pending.get(key);
    if (!cur) {
      cur = { orgId, product, period, requests: 0, blocked: 0, warned: 0, scoreSum: 0, scored: 0 };
      pending.set(key, cur);
    }
    cur.requests += d.requests ?? 0;
    cur.blocked += d.blocked ?? 0;
    cur.warned += d.warned ?? 0;
    cur.scoreSum += d.scoreSum ?? 0;
    cur.scored += d.scored ?? 0;
  }

  const quotaKey = (org: Organization, product: Product, label: string) =>
    `quota:${org.id}:${product}:${label}`;

  async function quotaUsed(org: Organization, product: Product, label: string): Promise<number> {
    const v = await cache.get(quotaKey(org, product, label));
    if (v !== null) return Number(v);
    const row = await repo.get(org.id, product, label);
    const p = pending.get(`${org.id}|${product}|${label}`);
    return Number(row?.requests ?? 0) + (p?.requests ?? 0);
  }

  const windows = createRateWindows({ cache, clock });

  return {
    /** The blocks of counts this process holds, one per window key (tests and metrics). */
    leaseCount: windows.leaseCount,

    /** Counts one request against the per-minute window of the organization. */
    async hitRate(org: Organization, scope = 'api'): Promise<RateState> {
      const limit = PLAN_LIMITS[org.plan].perMinute ?? UNLIMITED_RATE_CEILING;
      return this.hitWindow(`rl:${scope}:${org.id}`, limit);
    },

    /** A fixed one-minute window on any key (organizations, sessions, failed logins by address). */
    hitWindow: windows.hit,

    /** Gives back a hit of `hitWindow` (a sign-in that succeeded does not count as a failure). */
    releaseWindow: windows.release,

    /** Refuses when the monthly quota of the product is spent; does not count. */
    async checkQuota(org: Organization, product: Product): Promise<void> {
      const perMonth = PLAN_LIMITS[org.plan].perMonth;
      if (perMonth === null) return;
      const period = quotaPeriod(clock.now(), org.renewalDay);
      if ((await quotaUsed(org, product, period.label)) >= perMonth) {
        throw new AppError(
          'quota_exceeded',
          `The monthly ${product} quota of ${perMonth} requests is used up; it renews on ${period.end.toISOString().slice(0, 10)}.`,
        );
      }
    },

    /** Counts one use of a product; sends quota.warning at 80% and quota.exceeded at 100%, once a period each. */
    async consume(org: Organization, product: Product): Promise<void> {
      const period = quotaPeriod(clock.now(), org.renewalDay);
      accumulate(org.id, product, period.label, { requests: 1 });
      accumulateDay(org.id, product, today(), 1, 0);
      const perMonth = PLAN_LIMITS[org.plan].perMonth;
      if (perMonth === null) return;
      const key = quotaKey(org, product, period.label);
      const ttl = period.end.getTime() - clock.now().getTime() + 86_400_000;
      let used = await cache.incr(key, 1, ttl);
      if (used === 1) {
        // First use seen by this cache in the period: carry over what the database already counted.
        const row = await repo.get(org.id, product, period.label);
        const before = Number(row?.requests ?? 0);
        if (before > 0) used = await cache.incr(key, before, ttl);
      }
      const warnAt = Math.ceil(perMonth * 0.8);
      const fire = async (type: 'quota.warning' | 'quota.exceeded') => {
        if (await cache.setIfAbsent(`quota-event:${type}:${org.id}:${product}:${period.label}`, '1', ttl)) {
          await deps.emit(org, type, { product, period: period.label, used, limit: perMonth });
        }
      };
      if (used >= warnAt) await fire('quota.warning');
      if (used >= perMonth) await fire('quota.exceeded');
    },

    /** Outcome figures for the usage statistics (blocked count, average score). */
    record(
      org: Organization,
      product: Product,
      outcome: { blocked?: boolean; warned?: boolean; score?: number },
    ): void {
      const period = quotaPeriod(clock.now(), org.renewalDay);
      accumulate(org.id, product, period.label, {
        blocked: outcome.blocked ? 1 : 0,
        warned: outcome.warned ? 1 : 0,
        // score_sum is an integer column on PostgreSQL: a fractional score failed the whole row (and with
        // it the request count) there.
        scoreSum: Math.round(outcome.score ?? 0),
        scored: outcome.score === undefined ? 0 : 1,
      });
      if (outcome.blocked) accumulateDay(org.id, product, today(), 0, 1);
    },

    /** Writes the counts still held in memory; readers of the usage table call it first. */
    flush,

    async usage(org: Organization, product: Product): Promise<UsageStats> {
      await flush();
      const period = quotaPeriod(clock.now(), org.renewalDay);
      const row = await repo.get(org.id, product, period.label);
      const perMonth = PLAN_LIMITS[org.plan].perMonth;
      const scored = Number(row?.scored ?? 0);
      return {
        period: period.label,
        requestsUsed: Number(row?.requests ?? 0),
        requestsLimit: perMonth ?? -1,
        blocked: Number(row?.blocked ?? 0),
        avgScore: scored > 0 ? Math.round((Number(row?.score_sum ?? 0) / scored) * 100) / 100 : 0,
      };
    },

    async close(): Promise<void> {
      clearInterval(timer);
      await flush();
    },
  };
}

export type LimitsService = ReturnType<typeof createLimitsService>;
