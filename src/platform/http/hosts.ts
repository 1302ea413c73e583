/**
 * The one set of host patterns of request schemas. A host "as the browser names it" is what a device sees
 * in the address bar: a public host name, a one-label intranet name (`ollama`, `chat`), an IPv4 address or
 * a bracketed IPv6 address. Self-hosted AI services are mostly reached the last three ways, so every
 * device-reported host and every policy rule that must be able to name them uses these patterns.
 */

const LABEL = '[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
// A name's last label starts with a letter: an all-digit dotted text is an address, validated as one.
const LAST_LABEL = '[A-Za-z]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const NAME = `(${LABEL}\\.)*${LAST_LABEL}`;
/** A dotted IPv4 address, each octet 0–255 without leading zeros (resolvers may read those as octal). */
export const IPV4 =
  '(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}';
// An IPv6 address as RFC 3986 writes it (IPv6address, section 3.2.2: at most one `::`, eight groups of one
// to four hex digits, an IPv4 tail in place of the last two), in brackets. A looser character class took
// `[:::::]` and `[....]`, and each spelling of one address was counted as another service.
const H16 = '[0-9A-Fa-f]{1,4}';
const LS32 = `(${H16}:${H16}|${IPV4})`;
const IPV6 = [
  `(${H16}:){6}${LS32}`,
  `::(${H16}:){5}${LS32}`,
  `(${H16})?::(${H16}:){4}${LS32}`,
  `((${H16}:){0,1}${H16})?::(${H16}:){3}${LS32}`,
  `((${H16}:){0,2}${H16})?::(${H16}:){2}${LS32}`,
  `((${H16}:){0,3}${H16})?::${H16}:${LS32}`,
  `((${H16}:){0,4}${H16})?::${LS32}`,
  `((${H16}:){0,5}${H16})?::${H16}`,
  `((${H16}:){0,6}${H16})?::`,
].join('|');
const IPV6_LITERAL = `\\[(${IPV6})\\]`;

/** A host as the browser names it: a host name (one label allowed), an IPv4 address or `[IPv6]`. */
export const SITE_HOST_PATTERN = `^(${NAME}|${IPV4}|${IPV6_LITERAL})$`;

/**
 * A rule naming such a host: the same forms, and `*.x.y` for "x.y and its subdomains" on names only (an
 * address has no subdomains).
 */
export const SITE_HOST_RULE_PATTERN = `^((\\*\\.)?${NAME}|${IPV4}|${IPV6_LITERAL})$`;

/**
 * One spelling per host, so the same service is counted and matched once: lower case, no trailing dot, and
 * a bracketed IPv6 address in its canonical compressed form (RFC 5952, as WHATWG URLs serialize it:
 * `[FD00:0:0::5]` → `[fd00::5]`). Call on a host that passed one of the patterns above.
 */
export function canonicalHost(host: string): string {
  const h = host.trim().toLowerCase().replace(/\.$/, '');
  if (!h.startsWith('[')) return h;
  try {
    return new URL(`http://${h}/`).hostname;
  } catch {
    return h; // not an address after all: kept as sent, the pattern refused it before this
  }
}
