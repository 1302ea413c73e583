/**
 * Webhook signatures. Two schemes travel on every delivery:
 *
 * - the spec's own: `X-Service-Signature: sha256=<hex HMAC-SHA256(secret, "<ts>.<raw body>")>`, keyed with
 *   the secret string exactly as shown to the user (UTF-8, `whsec_` prefix included);
 * - Standard Webhooks: `webhook-signature: v1,<base64 HMAC-SHA256(key, "<id>.<ts>.<raw body>")>`, one entry per
 *   active secret (space separated) so a rotation's old and new secrets both verify. The key is the base64
 *   payload after `whsec_` (what the reference libraries decode); a secret without that prefix is used as its
 *   UTF-8 bytes, which receivers select with `new Webhook(bytes, { format: 'raw' })`.
 *
 * The Standard Webhooks form also signs the event id, so a captured request cannot be replayed under a new id.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const DEFAULT_TOLERANCE_SEC = 300;

/** 'sha256=<hex>' over `${timestampSec}.${rawBody}`. */
export function signWebhook(secret: string, timestampSec: number, rawBody: string): string {
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8'));
  mac.update(`${timestampSec}.${rawBody}`, 'utf8');
  return `sha256=${mac.digest('hex')}`;
}

/** The HMAC key Standard Webhooks libraries derive from a secret. */
export function standardWebhooksKey(secret: string): Buffer {
  if (secret.startsWith(WEBHOOK_SECRET_PREFIX)) {
    return Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
  }
  return Buffer.from(secret, 'utf8');
}

/** 'v1,<base64>' over `${id}.${timestampSec}.${rawBody}`. */
export function signStandardWebhook(
  secret: string,
  id: string,
  timestampSec: number,
  rawBody: string,
): string {
  const mac = createHmac('sha256', standardWebhooksKey(secret));
  mac.update(`${id}.${timestampSec}.${rawBody}`, 'utf8');
  return `v1,${mac.digest('base64')}`;
}

export interface WebhookHeaderInput {
  /** The current secret; it alone signs X-Service-Signature. */
  secret: string;
  /** Previous secrets still inside a rotation grace period; they add webhook-signature entries. */
  secrets?: string[];
  eventId: string;
  eventType: string;
  timestampSec: number;
  rawBody: string;
}

export function webhookHeaders(input: WebhookHeaderInput): Record<string, string> {
  const all = [input.secret, ...(input.secrets ?? []).filter((s) => s !== input.secret)];
  const ts = String(input.timestampSec);
  return {
    'content-type': 'application/json',
    'x-service-signature': signWebhook(input.secret, input.timestampSec, input.rawBody),
    'x-service-timestamp': ts,
    'x-service-event-id': input.eventId,
    'x-service-event-type': input.eventType,
    'webhook-id': input.eventId,
    'webhook-timestamp': ts,
    'webhook-signature': all
      .map((s) => signStandardWebhook(s, input.eventId, input.timestampSec, input.rawBody))
      .join(' '),
  };
}

function header(headers: Record<string, string>, name: string): string | undefined {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return undefined;
}

function equalConstantTime(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  // Comparing against itself keeps the work independent of where a length mismatch would have exited.
  if (x.length !== y.length) {
    timingSafeEqual(x, x);
    return false;
  }
  return timingSafeEqual(x, y);
}

function timestampFresh(raw: string | undefined, nowSec: number, toleranceSec: number): number | null {
  if (raw === undefined || !/^[0-9]{1,12}$/.test(raw)) return null;
  const ts = Number(raw);
  return Math.abs(nowSec - ts) <= toleranceSec ? ts : null;
}

/**
 * Receiver-side check of the spec's scheme: X-Service-Timestamp within tolerance of nowSec and
 * X-Service-Signature matching, compared in constant time. Header names are case-insensitive.
 */
export function verifyWebhook(
  secret: string,
  headers: Record<string, string>,
  rawBody: string,
  nowSec: number,
  toleranceSec = DEFAULT_TOLERANCE_SEC,
): boolean {
  const ts = timestampFresh(header(headers, 'x-service-timestamp'), nowSec, toleranceSec);
  const given = header(headers, 'x-service-signature');
  if (ts === null || given === undefined) return false;
  return equalConstantTime(signWebhook(secret, ts, rawBody), given.trim());
}

/** Receiver-side check of the Standard Webhooks headers, accepting any one matching v1 signature. */
export function verifyStandardWebhook(
  secret: string,
  headers: Record<string, string>,
  rawBody: string,
  nowSec: number,
  toleranceSec = DEFAULT_TOLERANCE_SEC,
): boolean {
  const id = header(headers, 'webhook-id');
  const ts = timestampFresh(header(headers, 'webhook-timestamp'), nowSec, toleranceSec);
  const list = header(headers, 'webhook-signature');
  if (id === undefined || ts === null || list === undefined) return false;
  const expected = signStandardWebhook(secret, id, ts, rawBody);
  let found = false;
  for (const candidate of list.split(' ')) {
    if (candidate !== '' && equalConstantTime(expected, candidate)) found = true;
  }
  return found;
}

/** 'whsec_' + base64 of 32 random bytes, the form Standard Webhooks libraries decode. */
export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64');
}

/**
 * Accepts user-supplied secrets that both schemes interpret the same way: a `whsec_` secret must be strict
 * base64 of 24 to 64 bytes (the reference libraries would otherwise fail to decode it or derive a different
 * key), and any other secret must be at least 16 printable characters.
 */
export function isAcceptableWebhookSecret(secret: string): boolean {
  if (secret.startsWith(WEBHOOK_SECRET_PREFIX)) {
    const b64 = secret.slice(WEBHOOK_SECRET_PREFIX.length);
    if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(b64)) return false;
    const n = Buffer.from(b64, 'base64').length;
    return n >= 24 && n <= 64;
  }
  return secret.length >= 16 && secret.length <= 256 && /^[\x21-\x7e]+$/.test(secret);
}
