/**
 * Row types of every table. Timestamps are ISO 8601 UTC text and flags are 0/1 integers on both dialects,
 * so one repository runs unchanged on SQLite and PostgreSQL (docs/adr/0002-portable-column-types.md).
 * JSON columns hold text written with JSON.stringify.
 */
import type {
  SiemIntegrationsTable,
  SiemQueueTable,
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhooksTable,
} from './tables-events.js';
import type {
  GatewayConversationsTable,
  GatewayForceTable,
  GatewayProviderKeysTable,
  GatewayUsageTable,
} from './tables-gateway.js';
import type {
  DeviceTokensTable,
  EndpointAlertsTable,
  EndpointDevicesTable,
  EndpointEnrollmentLinksTable,
  EndpointGroupMembersTable,
  EndpointGroupsTable,
  EndpointLogsTable,
  EndpointOrgStateTable,
  EndpointPoliciesTable,
  EndpointStatsTable,
  LicensesTable,
} from './tables-endpoint.js';
import type {
  EventDayCountsTable,
  EventDayFacetsDoneTable,
  EventDayFacetsTable,
  UsageDaysTable,
} from './tables-dashboard.js';
import type { HallucinationCorrectionsTable } from './tables-hallucination.js';
import type { ReportsTable } from './tables-reports.js';
import type {
  ProofsTable,
  ShadowAiCatalogTable,
  ShadowAiReportsTable,
  ShadowAiServicesTable,
  ShadowAiUsageTable,
} from './tables-shadow.js';

export type * from './tables-events.js';
export type * from './tables-gateway.js';
export type * from './tables-hallucination.js';
export type * from './tables-reports.js';
export type * from './tables-endpoint.js';

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
  /** 1 while the user must choose their own password (an initial or reset one; migration 0063). */
  must_change_password: number;
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
  /** 'products' | 'admin' (migration 0030, docs/auth.md). */
  scope: string;
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

export interface DlpSessionsTable {
  id: string;
  org_id: string;
  /** The session's HMAC key for token derivation, sealed with the master key. */
  key_sealed: string;
  created_at: string;
  expires_at: string;
}

export interface DlpTokensTable {
  session_id: string;
  org_id: string;
  token: string;
  type: string;
  value_sealed: string;
  created_at: string;
}

/** An Anthropic message batch created through the network proxy, and the session it was tokenized into. */
export interface NetproxyBatchesTable {
  org_id: string;
  batch_id: string;
  session_id: string;
  created_at: string;
}

export interface Database {
  event_day_counts: EventDayCountsTable;
  event_day_facets: EventDayFacetsTable;
  event_day_facets_done: EventDayFacetsDoneTable;
  usage_days: UsageDaysTable;
  hallucination_corrections: HallucinationCorrectionsTable;
  dlp_sessions: DlpSessionsTable;
  dlp_tokens: DlpTokensTable;
  netproxy_batches: NetproxyBatchesTable;
  organizations: OrganizationsTable;
  users: UsersTable;
  dashboard_sessions: DashboardSessionsTable;
  api_keys: ApiKeysTable;
  events: EventsTable;
  usage: UsageTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  siem_integrations: SiemIntegrationsTable;
  siem_queue: SiemQueueTable;
  gateway_conversations: GatewayConversationsTable;
  gateway_provider_keys: GatewayProviderKeysTable;
  gateway_force: GatewayForceTable;
  gateway_usage: GatewayUsageTable;
  reports: ReportsTable;
  endpoint_devices: EndpointDevicesTable;
  device_tokens: DeviceTokensTable;
  endpoint_groups: EndpointGroupsTable;
  endpoint_group_members: EndpointGroupMembersTable;
  endpoint_enrollment_links: EndpointEnrollmentLinksTable;
  endpoint_policies: EndpointPoliciesTable;
  endpoint_org_state: EndpointOrgStateTable;
  endpoint_alerts: EndpointAlertsTable;
  endpoint_logs: EndpointLogsTable;
  endpoint_stats: EndpointStatsTable;
  licenses: LicensesTable;
  shadow_ai_services: ShadowAiServicesTable;
  shadow_ai_usage: ShadowAiUsageTable;
  shadow_ai_reports: ShadowAiReportsTable;
  shadow_ai_catalog: ShadowAiCatalogTable;
  proofs: ProofsTable;
}
