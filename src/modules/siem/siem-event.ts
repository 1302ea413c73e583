import type { SiemCategory, SiemEvent, SiemSeverity } from './sinks/index.js';

/**
 * Stored event type → SIEM category: detection.* DETECTION; dlp.* DLP; audit.login*, audit.password_change* and user.*
 * AUTHENTICATION; api_key.*, quota.* and other audit.* AUDIT. Anything new defaults to AUDIT so that it is
 * still forwarded to integrations that take audit events rather than silently matching nothing.
 */
export function siemCategory(type: string): SiemCategory {
  if (type.startsWith('detection.')) return 'DETECTION';
  if (type.startsWith('dlp.')) return 'DLP';
  if (type.startsWith('audit.login') || type.startsWith('audit.password_change') || type.startsWith('user.'))
    return 'AUTHENTICATION';
  return 'AUDIT';
}

const DEFAULT_SEVERITY: Record<string, SiemSeverity> = {
  'detection.high_severity': 'HIGH',
  'detection.created': 'MEDIUM',
  'dlp.blocked': 'HIGH',
  'dlp.violation': 'MEDIUM',
  'quota.exceeded': 'MEDIUM',
  'audit.login_failed': 'MEDIUM',
  'audit.password_change_failed': 'MEDIUM',
  'audit.force_mode': 'MEDIUM',
  'audit.user_role': 'MEDIUM',
};

/** The event's own severity when it carries one (detections and DLP do), else a default per type. */
export function siemSeverity(type: string, data: Record<string, unknown>): SiemSeverity {
  const raw = typeof data['severity'] === 'string' ? data['severity'].toUpperCase() : '';
  if (raw === 'LOW' || raw === 'MEDIUM' || raw === 'HIGH' || raw === 'CRITICAL') return raw;
  if (raw === 'INFO') return 'LOW';
  return DEFAULT_SEVERITY[type] ?? 'LOW';
}

export function toSiemEvent(ev: {
  id: string;
  type: string;
  created_at: string;
  org_id: string;
  data: Record<string, unknown>;
}): SiemEvent {
  return {
    id: ev.id,
    category: siemCategory(ev.type),
    type: ev.type,
    severity: siemSeverity(ev.type, ev.data),
    timestamp: ev.created_at,
    organizationId: ev.org_id,
    data: ev.data,
  };
}
