import type { Clock } from '../../platform/clock/index.js';
import { usageRange } from '../gateway/index.js';
import type { LimitsService } from '../limits/index.js';
import type { Organization } from '../orgs/index.js';
import type { DailyCountRow, OverviewRepo } from './overview.repo.js';

/** The events the overview lists one by one: what an administrator must see (high severity, blocks). */
export const HIGH_SEVERITY_TYPES = ['detection.high_severity', 'dlp.blocked'] as const;
const RECENT_LIMIT = 10;
const DAY_MS = 86_400_000;
/**
 * A day's counts are kept once the day has been over this long: an event is stamped when it is produced and
 * committed within its request, so none arrives for a day this long after its end.
 */
export const SETTLE_MS = 3_600_000;

const dayOf = (t: number) => new Date(t).toISOString().slice(0, 10);

/** Fields of an event's data that are safe to show in a one-line summary (no preview, no match text). */
function summaryOf(data: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const k of ['severity', 'category', 'riskScore', 'action', 'endpoint', 'types', 'count']) {
    const v = data[k];
    if (typeof v === 'string' || typeof v === 'number') parts.push(`${k} ${v}`);
    else if (Array.isArray(v)) parts.push(`${k} ${v.filter((x) => typeof x === 'string').join(', ')}`);
  }
  return parts.join(' · ');
}

export function createOverviewService(deps: { repo: OverviewRepo; limits: LimitsService; clock: Clock }) {
  /**
   * Counts per day and type over [from, to): whole settled days from event_day_counts (counted from the
   * events the first time they are asked for), the rest (today, partial days at the edges) from the events.
   */
  async function dailyCounts(orgId: string, from: Date, to: Date): Promise<DailyCountRow[]> {
    const settledBefore = deps.clock.now().getTime() - SETTLE_MS;
    const whole: string[] = [];
    const live: [number, number][] = [];
    for (let d = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()); d < to.getTime(); d += DAY_MS) {
      const start = Math.max(d, from.getTime());
      const end = Math.min(d + DAY_MS, to.getTime());
      if (start === d && end === d + DAY_MS && end <= settledBefore) whole.push(dayOf(d));
      else live.push([start, end]);
    }
    const out: DailyCountRow[] = [];
    if (whole.length > 0) {
      const kept = await deps.repo.settledCounts(orgId, whole[0]!, whole[whole.length - 1]!);
      out.push(...kept);
      const have = new Set(kept.map((r) => r.day));
      // A settled day without kept rows had no events or was never counted: count it now and keep it.
      for (const day of whole.filter((d) => !have.has(d))) {
        const start = Date.parse(`${day}T00:00:00.000Z`);
        const rows = await deps.repo.countEvents(orgId, day + 'T00:00:00.000Z', dayOf(start + DAY_MS) + 'T00:00:00.000Z');
        await deps.repo.keepCounts(orgId, rows);
        out.push(...rows);
      }
    }
    for (const [start, end] of live) {
      out.push(...(await deps.repo.countEvents(orgId, new Date(start).toISOString(), new Date(end).toISOString())));
    }
    return out;
  }

  return {
    async overview(org: Organization, query: { from?: string; to?: string }) {
      const { from, to } = usageRange(query, deps.clock.now());
      const [rows, recent, quota] = await Promise.all([
        dailyCounts(org.id, from, to),
        deps.repo.recent(org.id, HIGH_SEVERITY_TYPES, RECENT_LIMIT),
        Promise.all(org.products.map(async (product) => ({ product, ...(await deps.limits.usage(org, product)) }))),
      ]);
      const days: string[] = [];
      for (let t = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()); t < to.getTime(); t += DAY_MS) {
        days.push(new Date(t).toISOString().slice(0, 10));
      }
      const index = new Map(days.map((d, i) => [d, i]));
      const byType = new Map<string, number[]>();
      for (const r of rows) {
        let counts = byType.get(r.type);
        if (!counts) {
          counts = days.map(() => 0);
          byType.set(r.type, counts);
        }
        const i = index.get(r.day);
        if (i !== undefined) counts[i] = (counts[i] ?? 0) + r.count;
      }
      return {
        from: from.toISOString(),
        to: to.toISOString(),
        days,
        series: [...byType]
          .map(([type, counts]) => ({ type, counts, total: counts.reduce((a, b) => a + b, 0) }))
          .sort((a, b) => a.type.localeCompare(b.type)),
        quota: quota.map((q) => ({
          product: q.product,
          period: q.period,
          requestsUsed: q.requestsUsed,
          requestsLimit: q.requestsLimit,
          blocked: q.blocked,
        })),
        recent: recent.map((e) => ({
          id: e.id,
          type: e.type,
          created: e.created_at,
          summary: summaryOf(JSON.parse(e.data) as Record<string, unknown>),
        })),
      };
    },
  };
}

export type OverviewService = ReturnType<typeof createOverviewService>;
