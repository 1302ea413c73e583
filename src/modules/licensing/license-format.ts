import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * One licence format for the endpoint product and the on-premise container:
 *
 *   plk_<base64url(JSON payload)>.<base64url(HMAC-SHA256(secret, "plk_" + payload part))>
 *
 * The payload names the organization, plan, seats, products, features and validity. Anyone holding the
 * licence secret verifies a key offline (signature and expiry); the server adds the online revocation
 * list (the licenses table).
 */
export const LICENSE_PREFIX = 'plk_';
export const LICENSE_PRODUCTS = ['endpoint', 'onprem'] as const;
export type LicenseProduct = (typeof LICENSE_PRODUCTS)[number];

export interface LicensePayload {
  v: 1;
  id: string;
  org: string;
  plan: string;
  seats: number;
  products: LicenseProduct[];
  features: string[];
  /** Issue and expiry, ISO 8601. */
  iat: string;
  exp: string;
}

export type LicenseCheck =
  | { ok: true; payload: LicensePayload }
  | { ok: false; reason: 'malformed' | 'bad_signature' };

function sign(secret: Buffer, body: string): Buffer {
  return createHmac('sha256', secret).update(`${LICENSE_PREFIX}${body}`).digest();
}

export function encodeLicense(secret: Buffer, payload: LicensePayload): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${LICENSE_PREFIX}${body}.${sign(secret, body).toString('base64url')}`;
}

/** Checks shape and signature only (no clock, no revocation list): what an offline verifier can do. */
export function decodeLicense(secret: Buffer, key: string): LicenseCheck {
  const m = /^plk_([A-Za-z0-9_-]{10,4000})\.([A-Za-z0-9_-]{43})$/.exec(key.trim());
  if (!m?.[1] || !m[2]) return { ok: false, reason: 'malformed' };
  const given = Buffer.from(m[2], 'base64url');
  const want = sign(secret, m[1]);
  if (given.length !== want.length || !timingSafeEqual(given, want))
    return { ok: false, reason: 'bad_signature' };
  try {
    const p = JSON.parse(Buffer.from(m[1], 'base64url').toString('utf8')) as LicensePayload;
    if (p.v !== 1 || typeof p.id !== 'string' || typeof p.org !== 'string' || !Array.isArray(p.products)) {
      return { ok: false, reason: 'malformed' };
    }
    return { ok: true, payload: p };
  } catch {
    return { ok: false, reason: 'malformed' };
  }
}

/** The licence secret: configured, or derived from the master key so one deployment needs one secret. */
export function licenseSecret(configured: string, masterKey: Buffer): Buffer {
  if (configured) return Buffer.from(configured, 'utf8');
  return createHmac('sha256', masterKey).update('parapet licence signing v1').digest();
}
