/**
 * Row types of the events-out tables (migration 0003): webhooks, their delivery outbox and attempt log,
 * SIEM integrations and their per-integration queue. Same portable conventions as tables.ts.
 */
export interface WebhooksTable {
  id: string;
  org_id: string;
  url: string;
  /** JSON array of event types. */
  events: string;
  /** Sealed with the master key; never returned after creation or rotation. */
  secret_sealed: string;
  /** The secret replaced by the last rotation, still signing until previous_secret_expires_at. */
  previous_secret_sealed: string | null;
  previous_secret_expires_at: string | null;
  enabled: number;
  /** Why the service turned the endpoint off (410 Gone), null when enabled or disabled by a user. */
  disabled_reason: string | null;
  /** JSON object of strings. */
  metadata: string;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveriesTable {
  id: string;
  org_id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  /** pending, delivered or failed. */
  status: string;
  attempts: number;
  /** When a pending delivery is due; while an attempt is in flight, the end of its lease. */
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  delivered_at: string | null;
  response_code: number | null;
  response_time_ms: number | null;
  error: string | null;
  is_test: number;
  created_at: string;
}

export interface WebhookAttemptsTable {
  id: string;
  org_id: string;
  delivery_id: string;
  attempt: number;
  started_at: string;
  response_code: number | null;
  latency_ms: number;
  /** ok, http_status, timeout, dns_failed, connect_failed, tls, connection_reset, ssrf_blocked, … */
  error_class: string | null;
  error: string | null;
}

export interface SiemIntegrationsTable {
  id: string;
  org_id: string;
  platform: string;
  name: string;
  /** The shape as created, secrets removed (JSON). */
  public_body: string;
  /** Sealed JSON {config, credentials} including secrets. */
  secret_body: string;
  endpoint: string | null;
  /** JSON ForwardingRules. */
  rules: string;
  enabled: number;
  /** closed, open or half_open. */
  circuit: string;
  consecutive_failures: number;
  next_attempt_at: string;
  /** A worker owns the integration until then, so one sender keeps creation order. */
  lease_until: string | null;
  last_error: string | null;
  last_success_at: string | null;
  last_failure_at: string | null;
  delivered_count: number;
  queue_limit: number;
  created_at: string;
  updated_at: string;
}

export interface SiemQueueTable {
  id: string;
  org_id: string;
  integration_id: string;
  event_id: string;
  event_created_at: string;
  /** queued or dead; delivered rows are deleted. */
  status: string;
  attempts: number;
  last_error: string | null;
  created_at: string;
}
