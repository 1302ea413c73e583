/** Row types of the dashboard's tables (migration 0013-dashboard-indexes). */

/**
 * Events per UTC day and type of days that are over (settled), counted once from `events` and kept, so the
 * overview of a month holding a million events reads thirty small rows per type instead of the events.
 */
export interface EventDayCountsTable {
  org_id: string;
  /** YYYY-MM-DD (UTC) */
  day: string;
  type: string;
  count: number;
}
