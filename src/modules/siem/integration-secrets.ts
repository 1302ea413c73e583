import type { Sealer } from '../../platform/crypto/index.js';
import { SIEM_SECRET_PATHS } from './siem.schemas.js';

export interface IntegrationBody {
  platform?: string;
  type?: string;
  name: string;
  enabled?: boolean;
  config?: Record<string, unknown>;
  credentials?: Record<string, unknown>;
  endpoint?: string;
  eventTypes?: string[];
  minSeverity?: string;
  forwardDetections?: boolean;
  forwardDlp?: boolean;
}

type Part = 'config' | 'credentials';

function secretKeys(part: Part): string[] {
  return SIEM_SECRET_PATHS.filter((p) => p.startsWith(`${part}.`)).map((p) => p.slice(part.length + 1));
}

/** The body with every secret removed, and the dotted paths of the secrets it had. */
export function publicPart(body: IntegrationBody): { body: IntegrationBody; secretFields: string[] } {
  const out: IntegrationBody = { ...body };
  const secretFields: string[] = [];
  for (const part of ['config', 'credentials'] as const) {
    const src = body[part];
    if (!src) continue;
    const copy = { ...src };
    for (const k of secretKeys(part)) {
      if (k in copy) {
        delete copy[k];
        secretFields.push(`${part}.${k}`);
      }
    }
    out[part] = copy;
  }
  return { body: out, secretFields };
}

/** The whole body (secrets included) sealed under the master key, bound to the integration id. */
export function sealBody(sealer: Sealer, id: string, body: IntegrationBody): string {
  return sealer.seal(JSON.stringify(body), `siem:${id}`);
}

export function openBody(sealer: Sealer, id: string, sealed: string): IntegrationBody {
  return JSON.parse(sealer.open(sealed, `siem:${id}`)) as IntegrationBody;
}

/**
 * An update merges into the stored body: config and credentials key by key, so a client that never saw
 * the secrets can change other fields without sending them again.
 */
export function mergeBody(stored: IntegrationBody, patch: Partial<IntegrationBody>): IntegrationBody {
  const out: IntegrationBody = { ...stored };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    if ((k === 'config' || k === 'credentials') && typeof v === 'object' && v !== null) {
      out[k] = { ...(stored[k] ?? {}), ...(v as Record<string, unknown>) };
    } else {
      (out as unknown as Record<string, unknown>)[k] = v;
    }
  }
  return out;
}

/**
 * Where an integration's events go. A stored credential that the receiver reads (a HEC token, an API key,
 * a password, custom headers) was given for that receiver only: a change of any of these must not carry it
 * to another host, or an admin (or a stolen admin session) could point the integration at a host of their
 * own and read the organization's SIEM credential from the first delivery.
 */
const DESTINATION_PATHS = [
  'endpoint',
  'config.hecUrl',
  'config.cloudId',
  'config.url',
  'config.site',
  'config.host',
  'config.port',
  'config.protocol',
] as const;

/**
 * Secrets that never leave this service: a webhook's signing secret (only the signature is sent) and a
 * syslog client's TLS key (it signs the handshake, the receiver never sees it). They may stay across a
 * change of destination.
 */
const SECRETS_NOT_SENT = new Set(['config.secret', 'config.tlsKey']);

function valueAt(body: IntegrationBody, path: string): unknown {
  const [part, key] = path.split('.') as [string, string | undefined];
  const top = (body as unknown as Record<string, unknown>)[part];
  if (key === undefined) return top;
  return top && typeof top === 'object' ? (top as Record<string, unknown>)[key] : undefined;
}

/**
 * When the update changes where events go, the stored secrets sent to the receiver that the update does
 * not give again (their dotted paths, with the destination fields that changed); empty when the update may
 * keep them.
 */
export function secretsLeftBehind(
  stored: IntegrationBody,
  merged: IntegrationBody,
  patch: Partial<IntegrationBody>,
): { changed: string[]; missing: string[] } {
  const changed = DESTINATION_PATHS.filter(
    (p) => JSON.stringify(valueAt(stored, p)) !== JSON.stringify(valueAt(merged, p)),
  );
  if (changed.length === 0) return { changed: [], missing: [] };
  const missing = SIEM_SECRET_PATHS.filter(
    (p) =>
      !SECRETS_NOT_SENT.has(p) &&
      valueAt(stored, p) !== undefined &&
      valueAt(patch as IntegrationBody, p) === undefined,
  );
  return { changed: [...changed], missing };
}
