import type { Db } from '../../platform/storage/index.js';
import type { AlertBody } from './endpoint.schemas.js';

/** The audit event types of the endpoint product (forwarded to SIEMs as AUDIT). */
export type EndpointAuditType =
  | 'audit.endpoint_policy'
  | 'audit.endpoint_settings'
  | 'audit.endpoint_device'
  | 'audit.endpoint_enrollment'
  | 'audit.endpoint_dns';

export type EndpointPublish = (
  db: Db,
  org: { id: string; plan: string },
  type: EndpointAuditType | 'dlp.violation' | 'dlp.blocked',
  data: Record<string, unknown>,
) => Promise<unknown>;

export interface Actor {
  userId: string | null;
  apiKeyId: string | null;
  deviceId: string | null;
}

/** Audit data: what changed, on what, by whom; never a secret (tokens and codes appear by prefix only). */
export function auditData(
  action: string,
  target: { kind: string; id: string },
  by: Actor,
  detail: Record<string, unknown> = {},
): Record<string, unknown> {
  return { action, targetType: target.kind, targetId: target.id, actor: by, ...detail };
}

const SEVERITY_BY_ACTION = { blocked: 'HIGH', warned: 'MEDIUM', redacted: 'MEDIUM', logged: 'LOW' } as const;

/** The spec's DLP event data for an alert reported by the extension; the preview is already redacted. */
export function alertEventData(
  alertId: string,
  a: AlertBody,
  who: { deviceId: string; userId: string | null; sourceIp: string },
): { type: 'dlp.violation' | 'dlp.blocked'; data: Record<string, unknown> } {
  return {
    type: a.action === 'blocked' ? 'dlp.blocked' : 'dlp.violation',
    data: {
      alertId,
      domain: a.dlpDomain ?? 'PERSONAL',
      type: a.type,
      // every type found, as the proxy's DLP events list them (reports count each); `type` always among them
      types: [...new Set([a.type, ...(a.types ?? [])])],
      severity: a.severity ?? SEVERITY_BY_ACTION[a.action],
      action: a.action.toUpperCase(),
      findingsCount: a.findingsCount,
      redactedPreview: a.redactedPreview,
      serviceDomain: a.domain,
      sourceIp: who.sourceIp,
      userId: who.userId,
      deviceId: who.deviceId,
      source: 'endpoint',
    },
  };
}
