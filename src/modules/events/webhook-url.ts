import { isIP } from 'node:net';
import { createAddressPolicy } from '../../platform/net/index.js';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1']);

function isLoopback(host: string): boolean {
  return LOOPBACK_NAMES.has(host) || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Null when `raw` may be a webhook URL, else the reason. HTTPS only, except plain HTTP to loopback when the
 * deployment allows private targets (local development and tests). IP literals are checked against the
 * same address policy as the connection; names are checked again at connect time by the outbound client,
 * since what a name resolves to can change after this check.
 */
export function webhookUrlProblem(raw: string, allowPrivate: boolean): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'url is not a valid URL';
  }
  if (raw.length > 2048) return 'url is longer than 2048 characters';
  if (u.username !== '' || u.password !== '') return 'url must not carry credentials';
  const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (u.protocol === 'http:') {
    if (!(allowPrivate && isLoopback(host)))
      return 'url must use https (http is accepted only for loopback in development)';
  } else if (u.protocol !== 'https:') {
    return 'url must use https';
  }
  if (isIP(host) !== 0) {
    const reason = createAddressPolicy({ allowPrivate }).check(host, host);
    if (reason !== null) return `url is not a permitted destination: ${reason}`;
  } else if (!allowPrivate && isLoopback(host)) {
    return 'url is not a permitted destination: loopback';
  }
  return null;
}
