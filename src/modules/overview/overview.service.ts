import type { Clock } from '../../platform/clock/index.js';
import { usageRange } from '../gateway/index.js';
import type { LimitsService } from '../limits/index.js';
import type { Organization } from '../orgs/index.js';
import {
  FACETS,
  type DailyCountRow,
  type Facet,
  type FacetCountRow,
  type OverviewRepo,
} from './overview.repo.js';

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

/** The whole settled days of [from, to), and the partial or unsettled ranges that must be read live. */
function splitRange(
  from: Date,
  to: Date,
  settledBefore: number,
): { whole: string[]; live: [number, number][] } {
  const whole: string[] = [];
  const live: [number, number][] = [];
  for (
    let d = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate());
    d < to.getTime();
    d += DAY_MS
  ) {
    const start = Math.max(d, from.getTime());
    const end = Math.min(d + DAY_MS, to.getTime());
    if (start === d && end === d + DAY_MS && end <= settledBefore) whole.push(dayOf(d));
    else live.push([start, end]);
  }
  return { whole, live };
}

const FACET_KEYS: Record<Facet, 'detectionSeverity' | 'detectionCategory' | 'dlpType' | 'dlpSeverity'> = {
  detection_severity: 'detectionSeverity',
  detection_category: 'detectionCategory',
  dlp_type: 'dlpType',
  dlp_severity: 'dlpSeverity',
};

export function createOverviewService(deps: { repo: OverviewRepo; limits: LimitsService; clock: Clock }) {
  /**
   * Counts per day and type over [from, to): whole settled days from event_day_counts (counted from the
   * events the first time they are asked for), the rest (today, partial days at the edges) from the events.
   */
  async function dailyCounts(orgId: string, from: Date, to: Date): Promise<DailyCountRow[]> {
    const { whole, live } = splitRange(from, to, deps.clock.now().getTime() - SETTLE_MS);
    const out: DailyCountRow[] = [];
    if (whole.length > 0) {
      const kept = await deps.repo.settledCounts(orgId, whole[0]!, whole[whole.length - 1]!);
      out.push(...kept);
      const have = new Set(kept.map((r) => r.day));
      // A settled day without kept rows had no events or was never counted: count it now and keep it.
      for (const day of whole.filter((d) => !have.has(d))) {
        const start = Date.parse(`${day}T00:00:00.000Z`);
        const rows = await deps.repo.countEvents(
          orgId,
          day + 'T00:00:00.000Z',
          dayOf(start + DAY_MS) + 'T00:00:00.000Z',
        );
        await deps.repo.keepCounts(orgId, rows);
        out.push(...rows);
      }
    }
    for (const [start, end] of live) {
      out.push(
        ...(await deps.repo.countEvents(orgId, new Date(start).toISOString(), new Date(end).toISOString())),
      );
    }
    return out;
  }

  /** The same split for the breakdowns: kept facet counts of settled days, live counts of the rest. */
  async function facetCounts(orgId: string, from: Date, to: Date): Promise<FacetCountRow[]> {
    const { whole, live } = splitRange(from, to, deps.clock.now().getTime() - SETTLE_MS);
    const out: FacetCountRow[] = [];
    if (whole.length > 0) {
      const kept = await deps.repo.settledFacets(orgId, whole[0]!, whole[whole.length - 1]!);
      out.push(...kept.rows);
      for (const day of whole.filter((d) => !kept.done.has(d))) {
        const start = Date.parse(`${day}T00:00:00.000Z`);
        const rows = await deps.repo.countFacets(
          orgId,
          `${day}T00:00:00.000Z`,
          `${dayOf(start + DAY_MS)}T00:00:00.000Z`,
        );
        await deps.repo.keepFacets(orgId, day, rows);
        out.push(...rows);
      }
    }
    for (const [start, end] of live) {
      out.push(
        ...(await deps.repo.countFacets(orgId, new Date(start).toISOString(), new Date(end).toISOString())),
      );
    }
    return out;
  }

  return {
    async overview(org: Organization, query: { from?: string; to?: string }) {
      const { from, to } = usageRange(query, deps.clock.now());
      // Requests counted in memory since the last flush belong in today's bar.
      await deps.limits.flush();
      const lastDay = dayOf(to.getTime() - 1);
      const [rows, facets, usageDays, recent, quota] = await Promise.all([
        dailyCounts(org.id, from, to),
        facetCounts(org.id, from, to),
        deps.repo.usageDays(org.id, dayOf(from.getTime()), lastDay),
        deps.repo.recent(org.id, HIGH_SEVERITY_TYPES, RECENT_LIMIT),
        Promise.all(
          org.products.map(async (product) => ({ product, ...(await deps.limits.usage(org, product)) })),
        ),
      ]);
      const days: string[] = [];
      for (
        let t = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate());
        t < to.getTime();
        t += DAY_MS
      ) {
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
      const byProduct = new Map<string, { requests: number[]; blocked: number[] }>();
      for (const u of usageDays) {
        let p = byProduct.get(u.product);
        if (!p) {
          p = { requests: days.map(() => 0), blocked: days.map(() => 0) };
          byProduct.set(u.product, p);
        }
        const i = index.get(u.day);
        if (i === undefined) continue;
        p.requests[i] = (p.requests[i] ?? 0) + u.requests;
        p.blocked[i] = (p.blocked[i] ?? 0) + u.blocked;
      }
      const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
      const tallies = new Map<Facet, Map<string, number>>(FACETS.map((f) => [f, new Map()]));
      for (const f of facets) {
        const t = tallies.get(f.facet as Facet);
        if (t) t.set(f.value, (t.get(f.value) ?? 0) + f.count);
      }
      const breakdowns = Object.fromEntries(
        FACETS.map((f) => [
          FACET_KEYS[f],
          [...(tallies.get(f) ?? [])]
            .map(([value, count]) => ({ value, count }))
            .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1)),
        ]),
      ) as Record<(typeof FACET_KEYS)[Facet], { value: string; count: number }[]>;
      return {
        from: from.toISOString(),
        to: to.toISOString(),
        days,
        series: [...byType]
          .map(([type, counts]) => ({ type, counts, total: counts.reduce((a, b) => a + b, 0) }))
          .sort((a, b) => a.type.localeCompare(b.type)),
        requests: [...byProduct]
          .map(([product, p]) => ({
            product,
            counts: p.requests,
            blocked: p.blocked,
            total: sum(p.requests),
            blockedTotal: sum(p.blocked),
          }))
          .sort((a, b) => a.product.localeCompare(b.product)),
        breakdowns,
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
