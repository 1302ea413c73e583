import type { Db } from '../../platform/storage/index.js';
import type { ServiceRow } from './shadow-ai.repo.js';

/** The event types of the shadow-AI radar (stored, forwarded to SIEMs; not webhook types). */
export type ShadowAiEventType = 'shadow_ai.discovered' | 'audit.shadow_ai_status' | 'audit.shadow_ai_catalog';

export type ShadowAiPublish = (
  db: Db,
  org: { id: string; plan: string },
  type: ShadowAiEventType,
  data: Record<string, unknown>,
) => Promise<unknown>;

// Events carry service facts and ids only: no user id, e-mail or URL path (a path can name a person or a
// document); the device id says where to look.

/** A service seen for the first time in the organization. An unknown AI service is MEDIUM, a known one LOW. */
export function discoveredEvent(s: ServiceRow, deviceId: string): Record<string, unknown> {
  return {
    serviceId: s.id,
    domain: s.domain,
    name: s.name,
    category: s.category,
    status: s.status,
    riskLevel: s.risk_level,
    detectedBy: s.detected_by,
    heuristicSignals: JSON.parse(s.heuristic_signals) as string[],
    catalogId: s.catalog_id,
    deviceId,
    severity: s.detected_by === 'heuristic' || s.risk_level === 'high' ? 'MEDIUM' : 'LOW',
  };
}

/** An administrator changed a service's status (AUDIT). */
export function statusChangedEvent(
  s: ServiceRow,
  to: string,
  by: { userId: string | null },
): Record<string, unknown> {
  return {
    action: 'status_changed',
    targetType: 'shadow_ai_service',
    targetId: s.id,
    domain: s.domain,
    from: s.status,
    to,
    actor: { userId: by.userId },
    severity: to === 'approved' ? 'MEDIUM' : 'LOW',
  };
}

/** An administrator changed the organization's catalog: a status override or an own entry (AUDIT). */
export function catalogChangedEvent(
  action: 'status_set' | 'entry_created' | 'entry_deleted' | 'override_removed',
  entry: { id: string; name: string; status?: string },
  by: { userId: string | null },
  catalogVersion: string,
): Record<string, unknown> {
  return {
    action,
    targetType: 'shadow_ai_catalog_entry',
    targetId: entry.id,
    name: entry.name,
    ...(entry.status ? { status: entry.status } : {}),
    catalogVersion,
    actor: { userId: by.userId },
  };
}
