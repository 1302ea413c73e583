import { sql } from 'kysely';
import type { Db } from '../../platform/storage/index.js';

export interface DailyCountRow {
  day: string;
  type: string;
  count: number;
}

export interface RecentEventRow {
  id: string;
  type: string;
  created_at: string;
  data: string;
}

/**
 * The dashboard's aggregated reads over the stored events (migration 0013): (org_id, created_at, type)
 * covers the counts of a day, (org_id, type, created_at) the newest events of a few types, so neither reads
 * a row's JSON except for the handful of rows returned; event_day_counts keeps the counts of settled days.
 */
export function createOverviewRepo(db: Db) {
  return {
    /** Counts per day and type of events with from <= created_at < to, read from the events. */
    async countEvents(orgId: string, from: string, to: string): Promise<DailyCountRow[]> {
      // created_at is an ISO string: its first ten characters are the UTC day.
      const day = sql<string>`substr(created_at, 1, 10)`;
      const rows = await db
        .selectFrom('events')
        .select((eb) => [day.as('day'), 'type', eb.fn.countAll<number>().as('count')])
        .where('org_id', '=', orgId)
        .where('created_at', '>=', from)
        .where('created_at', '<', to)
        .groupBy([day, 'type'])
        .execute();
      // PostgreSQL answers count(*) as a bigint string.
      return rows.map((r) => ({ day: r.day, type: r.type, count: Number(r.count) }));
    },

    /** The kept counts of settled days with firstDay <= day <= lastDay. */
    async settledCounts(orgId: string, firstDay: string, lastDay: string): Promise<DailyCountRow[]> {
      const rows = await db
        .selectFrom('event_day_counts')
        .select(['day', 'type', 'count'])
        .where('org_id', '=', orgId)
        .where('day', '>=', firstDay)
        .where('day', '<=', lastDay)
        .execute();
      return rows.map((r) => ({ day: r.day, type: r.type, count: Number(r.count) }));
    },

    /** Keeps the counts of settled days; a concurrent request that counted the same day first wins. */
    async keepCounts(orgId: string, rows: readonly DailyCountRow[]): Promise<void> {
      if (rows.length === 0) return;
      await db
        .insertInto('event_day_counts')
        .values(rows.map((r) => ({ org_id: orgId, day: r.day, type: r.type, count: r.count })))
        .onConflict((oc) => oc.columns(['org_id', 'day', 'type']).doNothing())
        .execute();
    },

    async recent(orgId: string, types: readonly string[], limit: number): Promise<RecentEventRow[]> {
      // One indexed range per type, merged here: an IN over the type column cannot walk the index in
      // created_at order, and sorting a million rows to keep ten is what makes dashboards collapse.
      const perType = await Promise.all(
        types.map((type) =>
          db
            .selectFrom('events')
            .select(['id', 'type', 'created_at', 'data'])
            .where('org_id', '=', orgId)
            .where('type', '=', type)
            .orderBy('created_at', 'desc')
            .orderBy('id', 'desc')
            .limit(limit)
            .execute(),
        ),
      );
      return perType
        .flat()
        .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0))
        .slice(0, limit);
    },
  };
}

export type OverviewRepo = ReturnType<typeof createOverviewRepo>;
