import { isIP } from 'node:net';
import { type AddressPolicyOptions, createAddressPolicy } from './address-policy.js';

/**
 * The kinds of user-supplied outbound targets. What differs between them is only whether a secret travels
 * with the request, which decides whether plain http may be used (docs/deployment.md, "Outbound targets").
 */
export type TargetKind = 'provider' | 'webhook' | 'siem' | 'crawler';

/** Kinds whose requests carry a secret: a provider key, a SIEM token or password, signed security events. */
const CARRIES_SECRET: Readonly<Record<TargetKind, boolean>> = {
  provider: true,
  webhook: true,
  siem: true,
  crawler: false,
};

export interface TargetUrlOptions extends AddressPolicyOptions {
  kind: TargetKind;
  /** The field the URL came from, named in every refusal ("baseUrl", "config.hecUrl"). */
  field: string;
  /** Schemes beyond http and https that this one field accepts (the "prelude:" of a Prelude manager). */
  extraSchemes?: readonly string[];
}

export const MAX_TARGET_URL_LENGTH = 2048;

// Names that only ever mean the machine itself, or the cloud's metadata service (refused like its address).
const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.internal',
]);
// Suffixes of names that resolve only inside a private network (mDNS, cloud-internal, RFC 8375, habits).
const PRIVATE_SUFFIXES = [
  '.localhost',
  '.local',
  '.internal',
  '.localdomain',
  '.home.arpa',
  '.lan',
  '.intranet',
];

/** A host name as WHATWG URL leaves it, without brackets or trailing dots ("localhost." is localhost). */
export function normalizeHost(hostname: string): string {
  return hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.+$/, '');
}

function isLoopbackName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}

/**
 * Why a host (name or IP literal, already normalized) may not be a target, or null. Names are judged by
 * what they say; what they resolve to is judged at connection by the guarded lookup of every transport.
 */
export function targetHostProblem(host: string, opts: AddressPolicyOptions): string | null {
  if (host === '') return 'has no host';
  const policy = createAddressPolicy(opts);
  if (isIP(host) !== 0) {
    const reason = policy.check(host, host);
    return reason === null ? null : `is not a permitted destination: ${reason}`;
  }
  if (METADATA_NAMES.has(host)) return 'is not a permitted destination: a cloud metadata service';
  if (!/^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/.test(host)) return 'has a host name that is not a DNS name';
  const privateName =
    isLoopbackName(host) || !host.includes('.') || PRIVATE_SUFFIXES.some((s) => host.endsWith(s));
  if (!privateName || opts.allowPrivate) return null;
  // A listed name is an explicit exception; the check of the address ("private" for 127.0.0.1) decides.
  return policy.check(host, '127.0.0.1') === null
    ? null
    : 'is not a permitted destination: a loopback or private-network name';
}

/**
 * The one outbound-URL policy for every user-supplied target (provider base URLs, webhooks, SIEM
 * integrations, the verifier's crawler). Returns null when `raw` may be stored, else a sentence that names
 * the field. The same policy is enforced again when connecting (createOutbound, guardedConnector), since
 * what a name resolves to can change after this check.
 *
 * - only http and https (plus the field's own extra schemes), no credentials in the URL;
 * - https whenever a secret travels with the request; plain http for those only to a loopback host, and
 *   only when private targets are allowed (local development and tests: the secret never leaves the host);
 * - IP literals in every notation (WHATWG URL turns 0x7f000001, 2130706433, 0177.0.0.1 and 127.1 into
 *   127.0.0.1, and [::ffff:127.0.0.1] into [::ffff:7f00:1]) are judged by the address policy;
 * - names with trailing dots or capitals are judged without them; loopback and private-network names are
 *   refused unless private targets are allowed; metadata names never.
 */
export function targetUrlProblem(raw: unknown, opts: TargetUrlOptions): string | null {
  const field = `The field '${opts.field}'`;
  if (typeof raw !== 'string' || raw === '') return `${field} must be an absolute URL.`;
  if (raw.length > MAX_TARGET_URL_LENGTH)
    return `${field} is longer than ${MAX_TARGET_URL_LENGTH} characters.`;
  // Control characters and spaces are silently stripped by WHATWG URL; a URL that needs them is not sent.
  if (/[\u0000-\u0020\u007f\\]/.test(raw))
    return `${field} contains spaces, backslashes or control characters.`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `${field} must be an absolute URL.`;
  }
  const extra = opts.extraSchemes ?? [];
  if (url.protocol !== 'http:' && url.protocol !== 'https:' && !extra.includes(url.protocol)) {
    const allowed = [
      'https',
      ...(CARRIES_SECRET[opts.kind] ? [] : ['http']),
      ...extra.map((s) => s.slice(0, -1)),
    ];
    return `${field} must use ${allowed.join(' or ')} (not ${url.protocol.slice(0, -1)}).`;
  }
  if (url.username !== '' || url.password !== '')
    return `${field} must not carry a user name or password; use the credential fields.`;
  const host = normalizeHost(url.hostname);
  if (url.protocol === 'http:' && CARRIES_SECRET[opts.kind]) {
    const loopback = isLoopbackName(host) || (isIP(host) !== 0 && isLoopbackAddress(host));
    if (!(opts.allowPrivate && loopback)) {
      return `${field} must use https: its requests carry a secret (plain http is accepted only for a loopback address, and only with PARAPET_ALLOW_PRIVATE_TARGETS=true, for development).`;
    }
  }
  const problem = targetHostProblem(host, opts);
  return problem === null ? null : `${field} ${problem}.`;
}

function isLoopbackAddress(ip: string): boolean {
  return /^127\./.test(ip) || ip === '::1' || /^::ffff:7f[0-9a-f]{2}:/.test(ip);
}

/**
 * What a reader who may not use a target sees of its address: the origin, and `/…` when a path or query
 * followed it. The path and query of a chat or automation webhook (Slack, Teams, Zapier) or a collector
 * (`?token=`) are its credential: whoever holds them can post to it. Non-web schemes (`prelude://`) have
 * no WHATWG origin, so theirs is built from the scheme and host; credentials in the URL are never shown.
 */
export function addressOrigin(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return '…';
  }
  const origin = u.origin !== 'null' ? u.origin : u.host ? `${u.protocol}//${u.host}` : `${u.protocol}…`;
  const more = (u.pathname !== '/' && u.pathname !== '') || u.search !== '' || u.hash !== '';
  return more ? `${origin}/…` : origin;
}
