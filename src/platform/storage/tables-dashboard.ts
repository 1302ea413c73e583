/** Row types of the dashboard's tables (migrations 0013-dashboard-indexes and 0050-dashboard-breakdowns). */

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

/** How many events of a settled UTC day carried each value of a facet (the overview's breakdowns). */
export interface EventDayFacetsTable {
  org_id: string;
  day: string;
  /** detection_severity, detection_category, dlp_type, dlp_severity */
  facet: string;
  value: string;
  count: number;
}

/** Marks a settled day whose facets were counted (it may have had none). */
export interface EventDayFacetsDoneTable {
  org_id: string;
  day: string;
}

/** Requests and blocked requests per product and UTC day (the overview's daily chart; quotas use `usage`). */
export interface UsageDaysTable {
  org_id: string;
  product: string;
  day: string;
  requests: number;
  blocked: number;
}
