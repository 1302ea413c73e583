/** Row types of the reports module (migration 0012-reports). */

export interface ReportsTable {
  id: string;
  org_id: string;
  /** running, ready or failed (docs/reports.md). */
  status: string;
  /** 0–100, advanced as the builder walks the period's events. */
  progress: number;
  period_from: string;
  period_to: string;
  /** Who asked: an API key id or a user id; never a secret. */
  requested_by: string | null;
  /** The finished report as JSON text; CSV and PDF are rendered from it on download. */
  result: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}
