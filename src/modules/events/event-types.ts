import type { Feature } from '../plans/index.js';

/** The spec's ten webhook event types, with the feature (plan) that gates each. */
export const EVENT_TYPES = {
  'detection.created': null,
  'detection.high_severity': null,
  'dlp.violation': 'dlp_events',
  'dlp.blocked': 'dlp_events',
  'api_key.created': null,
  'api_key.revoked': null,
  'quota.warning': null,
  'quota.exceeded': null,
  'user.joined': 'user_events',
  'user.removed': 'user_events',
} as const satisfies Record<string, Feature | null>;

export type EventType = keyof typeof EVENT_TYPES;

/** Internal events that are stored and forwarded to SIEMs but are not webhook event types. */
export const AUDIT_EVENT_TYPES = [
  'audit.force_mode',
  'audit.provider_key',
  'audit.login',
  'audit.login_failed',
  'audit.password_changed',
  'audit.password_change_failed',
  'audit.settings',
  'audit.user_role',
  'audit.endpoint_policy',
  'audit.endpoint_settings',
  'audit.endpoint_device',
  'audit.endpoint_enrollment',
  'audit.endpoint_dns',
  'shadow_ai.discovered',
  'audit.shadow_ai_status',
  'audit.shadow_ai_catalog',
  'proof.risk_mismatch',
  'audit.proof_deleted',
  'audit.siem_integration',
  'audit.webhook',
] as const;
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

export function isEventType(v: string): v is EventType {
  return Object.hasOwn(EVENT_TYPES, v);
}
