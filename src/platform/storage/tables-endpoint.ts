/** Row types of the endpoint and licensing tables (migration 0010). JSON columns are text. */

export interface EndpointDevicesTable {
  id: string;
  org_id: string;
  name: string;
  os: string | null;
  browser: string | null;
  extension_version: string | null;
  group_id: string | null;
  user_id: string | null;
  /** apiKey:<key id> or link:<enrollment link id>. */
  enrolled_via: string;
  status: string;
  created_at: string;
  last_seen_at: string | null;
  revoked_at: string | null;
}

/** Device tokens (keys module): SHA-256 hashes only; a rotation revokes the old row and adds a new one. */
export interface DeviceTokensTable {
  id: string;
  org_id: string;
  device_id: string;
  prefix: string;
  hash: string;
  created_at: string;
  revoked_at: string | null;
}

export interface EndpointGroupsTable {
  id: string;
  org_id: string;
  name: string;
  /** foldName(name): what the unique index per organization compares (migration 0062). */
  name_folded: string;
  created_at: string;
}

export interface EndpointGroupMembersTable {
  org_id: string;
  group_id: string;
  user_id: string;
}

export interface EndpointEnrollmentLinksTable {
  id: string;
  org_id: string;
  name: string;
  code_hash: string;
  code_prefix: string;
  max_uses: number;
  uses: number;
  expires_at: string;
  group_id: string | null;
  user_id: string | null;
  created_by: string | null;
  created_at: string;
  revoked_at: string | null;
}

export interface EndpointPoliciesTable {
  id: string;
  org_id: string;
  name: string;
  scope_type: string;
  scope_targets: string;
  rules: string;
  enforcement: string;
  enabled: number;
  created_at: string;
  updated_at: string;
}

/** One row per organization: endpoint settings, DNS filtering configuration and the config version. */
export interface EndpointOrgStateTable {
  org_id: string;
  settings: string;
  dns_config: string | null;
  config_version: number;
  updated_at: string;
}

export interface EndpointAlertsTable {
  id: string;
  org_id: string;
  device_id: string;
  client_id: string;
  user_id: string | null;
  type: string;
  dlp_domain: string;
  service_domain: string;
  action: string;
  severity: string;
  findings_count: number;
  redacted_preview: string;
  occurred_at: string;
  created_at: string;
}

export interface EndpointLogsTable {
  org_id: string;
  device_id: string;
  client_id: string;
  kind: string;
  service_domain: string | null;
  detail: string;
  occurred_at: string;
  created_at: string;
}

/** Hourly counters per device (or DNS forwarder) and AI service domain, fed by heartbeats and `parapet dns`. */
export interface EndpointStatsTable {
  org_id: string;
  source_id: string;
  hour: string;
  service_domain: string;
  interactions: number;
  blocked_unapproved: number;
  blocked_dlp: number;
  blocked_policy: number;
}

export interface LicensesTable {
  id: string;
  org_id: string;
  plan: string;
  seats: number;
  products: string;
  features: string;
  issued_at: string;
  expires_at: string;
  revoked_at: string | null;
}
