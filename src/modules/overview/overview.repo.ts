import { sql } from 'kysely';
import type { Db, DialectName } from '../../platform/storage/index.js';

export interface DailyCountRow {
  day: string;
  type: string;
  count: number;
}

/** How many events of a day carried a value of a facet (docs/dashboard.md, overview breakdowns). */
export interface FacetCountRow {
  day: string;
  facet: string;
  value: string;
  count: number;
}

export interface UsageDayRow {
  day: string;
  product: string;
  requests: number;
  blocked: number;
}

/** The facets the overview breaks events down by; each reads one field of the stored event data. */
export const FACETS = ['detection_severity', 'detection_category', 'dlp_type', 'dlp_severity'] as const;
export type Facet = (typeof FACETS)[number];

const DLP_TYPES = sql.raw(`('dlp.violation', 'dlp.blocked')`);

/**
 * One statement per dialect that reads the facets of a range of events inside the database (JSON functions
 * of SQLite and PostgreSQL), so no event's JSON crosses into the process. A DLP event names its finding
 * types in `types` (the API's events) or one `type` (the extension's alerts); both count.
 */
function facetQuery(dialect: DialectName, orgId: string, from: string, to: string) {
  if (dialect === 'postgres') {
    return sql<FacetCountRow>`
      select substr(created_at, 1, 10) as day, 'detection_severity' as facet,
             coalesce(data::jsonb ->> 'severity', 'UNKNOWN') as value, count(*) as count
        from events where org_id = ${orgId} and type = 'detection.created' and created_at >= ${from} and created_at < ${to}
       group by 1, 3
      union all
      select substr(created_at, 1, 10), 'detection_category', coalesce(data::jsonb ->> 'category', 'UNKNOWN'), count(*)
        from events where org_id = ${orgId} and type = 'detection.created' and created_at >= ${from} and created_at < ${to}
       group by 1, 3
      union all
      select substr(created_at, 1, 10), 'dlp_severity', coalesce(data::jsonb ->> 'severity', 'UNKNOWN'), count(*)
        from events where org_id = ${orgId} and type in ${DLP_TYPES} and created_at >= ${from} and created_at < ${to}
       group by 1, 3
      union all
      select substr(e.created_at, 1, 10), 'dlp_type', coalesce(t.value, 'UNKNOWN'), count(*)
        from events e
        cross join lateral jsonb_array_elements_text(
          case when jsonb_typeof(e.data::jsonb -> 'types') = 'array' then e.data::jsonb -> 'types'
               else jsonb_build_array(e.data::jsonb ->> 'type') end) as t(value)
       where e.org_id = ${orgId} and e.type in ${DLP_TYPES} and e.created_at >= ${from} and e.created_at < ${to}
       group by 1, 3`;
  }
  return sql<FacetCountRow>`
    select substr(created_at, 1, 10) as day, 'detection_severity' as facet,
           coalesce(json_extract(data, '$.severity'), 'UNKNOWN') as value, count(*) as count
      from events where org_id = ${orgId} and type = 'detection.created' and created_at >= ${from} and created_at < ${to}
     group by 1, 3
    union all
    select substr(created_at, 1, 10), 'detection_category', coalesce(json_extract(data, '$.category'), 'UNKNOWN'), count(*)
      from events where org_id = ${orgId} and type = 'detection.created' and created_at >= ${from} and created_at < ${to}
     group by 1, 3
    union all
    select substr(created_at, 1, 10), 'dlp_severity', coalesce(json_extract(data, '$.severity'), 'UNKNOWN'), count(*)
      from events where org_id = ${orgId} and type in ${DLP_TYPES} and created_at >= ${from} and created_at < ${to}
     group by 1, 3
    union all
    select substr(e.created_at, 1, 10), 'dlp_type', coalesce(t.value, 'UNKNOWN'), count(*)
      from events e, json_each(
        case when json_type(e.data, '$.types') = 'array' then json_extract(e.data, '$.types')
             else json_array(json_extract(e.data, '$.type')) end) as t
     where e.org_id = ${orgId} and e.type in ${DLP_TYPES} and e.created_at >= ${from} and e.created_at < ${to}
     group by 1, 3`;
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
export function createOverviewRepo(db: Db, dialect: DialectName) {
  return {
    /** Facet counts per day of events with from <= created_at < to, read from the events. */
    async countFacets(orgId: string, from: string, to: string): Promise<FacetCountRow[]> {
      const { rows } = await facetQuery(dialect, orgId, from, to).execute(db);
      return rows.map((r) => ({
        day: r.day,
        facet: r.facet,
        value: String(r.value),
        count: Number(r.count),
      }));
    },

    /** The kept facet counts of settled days, and which of those days were counted at all. */
    async settledFacets(orgId: string, firstDay: string, lastDay: string) {
      const [rows, done] = await Promise.all([
        db
          .selectFrom('event_day_facets')
          .select(['day', 'facet', 'value', 'count'])
          .where('org_id', '=', orgId)
          .where('day', '>=', firstDay)
          .where('day', '<=', lastDay)
          .execute(),
        db
          .selectFrom('event_day_facets_done')
          .select('day')
          .where('org_id', '=', orgId)
          .where('day', '>=', firstDay)
          .where('day', '<=', lastDay)
          .execute(),
      ]);
      return {
        rows: rows.map((r) => ({ day: r.day, facet: r.facet, value: r.value, count: Number(r.count) })),
        done: new Set(done.map((d) => d.day)),
      };
    },

    /** Keeps a settled day's facet counts with its marker; a concurrent request that kept them first wins. */
    async keepFacets(orgId: string, day: string, rows: readonly FacetCountRow[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        if (rows.length > 0) {
          await trx
            .insertInto('event_day_facets')
            .values(
              rows.map((r) => ({
                org_id: orgId,
                day,
                facet: r.facet,
                value: r.value.slice(0, 64),
                count: r.count,
              })),
            )
            .onConflict((oc) => oc.columns(['org_id', 'day', 'facet', 'value']).doNothing())
            .execute();
        }
        await trx
          .insertInto('event_day_facets_done')
          .values({ org_id: orgId, day })
          .onConflict((oc) => oc.columns(['org_id', 'day']).doNothing())
          .execute();
      });
    },

    /** Requests and blocked requests per day and product, firstDay <= day <= lastDay. */
    async usageDays(orgId: string, firstDay: string, lastDay: string): Promise<UsageDayRow[]> {
      const rows = await db
        .selectFrom('usage_days')
        .select(['day', 'product', 'requests', 'blocked'])
        .where('org_id', '=', orgId)
        .where('day', '>=', firstDay)
        .where('day', '<=', lastDay)
        .execute();
      return rows.map((r) => ({
        day: r.day,
        product: r.product,
        requests: Number(r.requests),
        blocked: Number(r.blocked),
      }));
    },

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
