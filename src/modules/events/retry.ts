/**
 * Delivery timing. Webhooks follow the spec's fixed schedule (5 attempts: immediately, then 1 s, 5 s, 30 s
 * and 2 min after the previous attempt); SIEM sinks back off exponentially with jitter while their circuit
 * is open. Pure functions of their inputs: the caller passes the clock and, for jitter, the random source.
 */

/** Delay before attempt n+1, measured from attempt n (attempt 1 goes out at once). */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = Object.freeze([0, 1000, 5000, 30000, 120000]);
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length;
/** A Retry-After longer than this is clipped, so one header cannot park a delivery for days. */
export const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

/**
 * Milliseconds to wait according to a Retry-After header (delta-seconds or HTTP-date), or null when the
 * header is absent or unreadable. Dates in the past give 0.
 */
export function parseRetryAfter(header: string | undefined, now: Date): number | null {
  if (header === undefined) return null;
  const v = header.trim();
  if (/^[0-9]+$/.test(v)) return Number(v) * 1000;
  if (!/[a-z]/i.test(v)) return null;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now.getTime());
}

/**
 * When the next attempt is due after `attemptsDone` attempts (0 = the first, due now), or null when all
 * five are spent and the delivery is failed. A Retry-After from the last answer can lengthen the wait,
 * never shorten it, up to MAX_RETRY_AFTER_MS.
 */
export function nextWebhookAttempt(attemptsDone: number, now: Date, retryAfterHeader?: string): Date | null {
  if (!Number.isInteger(attemptsDone) || attemptsDone < 0) throw new RangeError('attemptsDone must be >= 0');
  const scheduled = WEBHOOK_RETRY_DELAYS_MS[attemptsDone];
  if (scheduled === undefined) return null;
  const asked = parseRetryAfter(retryAfterHeader, now);
  const wait = asked === null ? scheduled : Math.max(scheduled, Math.min(asked, MAX_RETRY_AFTER_MS));
  return new Date(now.getTime() + wait);
}

export type WebhookOutcome = 'delivered' | 'retry' | 'disable_endpoint';

/**
 * What an HTTP answer means for a delivery: 2xx delivered; 410 Gone disables the endpoint (the receiver
 * says it is gone for good); anything else, 3xx included since redirects are not followed, is retried.
 */
export function classifyWebhookStatus(status: number): WebhookOutcome {
  if (status >= 200 && status < 300) return 'delivered';
  if (status === 410) return 'disable_endpoint';
  return 'retry';
}

export interface SiemBackoffOptions {
  /** Returns [0, 1); injectable so tests are deterministic. */
  random?: () => number;
  baseMs?: number;
  capMs?: number;
  /** Relative spread around the exponential value: 0.2 means ±20%. */
  jitter?: number;
}

/**
 * Next probe time for a SIEM destination after `failures` consecutive failures (1 = first failure):
 * base·2^(failures−1), capped, then spread ±jitter so that many sinks recovering together do not stampede.
 */
export function siemBackoff(failures: number, now: Date, opts: SiemBackoffOptions = {}): Date {
  const base = opts.baseMs ?? 1000;
  const cap = opts.capMs ?? 5 * 60 * 1000;
  const jitter = opts.jitter ?? 0.2;
  const random = opts.random ?? Math.random;
  const n = Math.max(1, Math.floor(failures));
  const raw = Math.min(cap, base * 2 ** Math.min(n - 1, 30));
  const spread = raw * jitter * (2 * random() - 1);
  return new Date(now.getTime() + Math.round(Math.max(0, raw + spread)));
}
