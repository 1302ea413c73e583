/**
 * Row types of every table. Timestamps are ISO 8601 UTC text and flags are 0/1 integers on both dialects,
 * so one repository runs unchanged on SQLite and PostgreSQL (docs/adr/0002-portable-column-types.md).
 * JSON columns hold text written with JSON.stringify.
 */
export interface OrganizationsTable {
  id: string;
  name: string;
  plan: string;
  entitlements: string;
  settings: string;
  renewal_day: number;
  created_at: string;
}

export interface UsersTable {
  id: string;
  org_id: string;
  email: string;
  name: string;
  role: string;
  password_hash: string;
  created_at: string;
  removed_at: string | null;
}

export interface DashboardSessionsTable {
  id: string; // SHA-256 of the cookie value
  org_id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
}

export interface ApiKeysTable {
  id: string;
  org_id: string;
  kind: string;
  name: string;
  prefix: string;
  hash: string;
  created_by: string | null;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
}

export interface EventsTable {
  id: string;
  org_id: string;
  type: string;
  created_at: string;
  data: string;
}

export interface UsageTable {
  org_id: string;
  product: string;
  period: string;
  requests: number;
  blocked: number;
  score_sum: number;
  scored: number;
  warned: number;
}

export interface Database {
  organizations: OrganizationsTable;
  users: UsersTable;
  dashboard_sessions: DashboardSessionsTable;
  api_keys: ApiKeysTable;
  events: EventsTable;
  usage: UsageTable;
}
