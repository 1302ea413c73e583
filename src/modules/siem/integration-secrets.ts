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
