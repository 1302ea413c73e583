export type SiemPlatform =
  | 'SPLUNK'
  | 'ELASTIC'
  | 'DATADOG'
  | 'SYSLOG'
  | 'PRELUDE'
  | 'WAZUH'
  | 'OPENSEARCH'
  | 'WEBHOOK';
export const SIEM_PLATFORMS: readonly SiemPlatform[] = [
  'SPLUNK',
  'ELASTIC',
  'DATADOG',
  'SYSLOG',
  'PRELUDE',
  'WAZUH',
  'OPENSEARCH',
  'WEBHOOK',
];

export type SiemCategory = 'DETECTION' | 'DLP' | 'AUTHENTICATION' | 'AUDIT';
export const SIEM_CATEGORIES: readonly SiemCategory[] = ['DETECTION', 'DLP', 'AUTHENTICATION', 'AUDIT'];

export type SiemSeverity = 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL';
export const SIEM_SEVERITIES: readonly SiemSeverity[] = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'];

/**
 * One security event on its way to a SIEM. `data` is the event's payload as published (detection or DLP
 * event data from the spec, or an audit/authentication record); it must already be redacted: sinks forward
 * it as is.
 */
export interface SiemEvent {
  /** Stable id (evt_…); every format carries it so receivers can drop duplicates of a re-sent batch. */
  id: string;
  category: SiemCategory;
  /** The event type, e.g. detection.high_severity, dlp.violation, audit.login. */
  type: string;
  severity: SiemSeverity;
  /** ISO 8601 UTC time the event happened; formats use it, never the send time. */
  timestamp: string;
  organizationId: string;
  data: Record<string, unknown>;
}

export interface SinkRejection {
  id: string;
  retryable: boolean;
  error: string;
}

/**
 * Outcome of one send. ok: the destination acknowledged every event. Otherwise `retryable` says whether
 * the same events may succeed later (network, timeout, 429, 5xx, and 401/403 so credentials can be fixed
 * without losing data) or must be dead-lettered (malformed request, blocked destination). `rejected`, when
 * present, lists the only events that failed (bulk APIs answer per item); the others were delivered.
 */
export interface SinkResult {
  ok: boolean;
  retryable: boolean;
  status?: number;
  error?: string;
  /** Failure class to drive alerts and the circuit breaker. */
  reason?: 'transient' | 'auth' | 'permanent' | 'blocked';
  rejected?: SinkRejection[];
  /** Retry-After from the destination, in milliseconds, when it sent one. */
  retryAfterMs?: number;
}

export interface Sink {
  platform: SiemPlatform;
  send(events: SiemEvent[]): Promise<SinkResult>;
  close(): Promise<void>;
}
