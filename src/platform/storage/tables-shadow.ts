/** Row types of the shadow-AI (migration 0020) and proof (0021) tables. JSON columns are text. */

export interface ShadowAiServicesTable {
  id: string;
  org_id: string;
  domain: string;
  name: string;
  catalog_id: string | null;
  category: string;
  status: string;
  risk_level: string;
  detected_by: string;
  heuristic_signals: string;
  usage_count: number | string | bigint;
  first_seen: string;
  last_seen: string;
  created_at: string;
  updated_at: string;
}

export interface ShadowAiUsageTable {
  org_id: string;
  day: string;
  service_id: string;
  /** The device's bound user id, else `dev:<device id>`: never an e-mail address. */
  user_key: string;
  count: number | string | bigint;
}

export interface ShadowAiReportsTable {
  org_id: string;
  device_id: string;
  report_id: string;
  received_at: string;
}

export interface ShadowAiCatalogTable {
  org_id: string;
  id: string;
  builtin: number;
  status: string;
  name: string | null;
  domains: string | null;
  category: string | null;
  data_residency: string | null;
  gdpr_status: string | null;
  created_at: string;
  updated_at: string;
}

export interface ProofsTable {
  id: string;
  org_id: string;
  device_id: string;
  user_id: string | null;
  sha256: string;
  /** = sha256 on the organization's one copy of that content (unique); null on copies older than 0062. */
  sha256_unique: string | null;
  size_bytes: number;
  store_key: string;
  metadata: string;
  risk_score: number;
  computed_risk_score: number | null;
  risk_score_mismatch: number;
  uploaded_at: string;
  expires_at: string;
}
