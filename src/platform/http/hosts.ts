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
const IPV6_LITERAL = '\\[[0-9A-Fa-f:.]{2,45}\\]';

/** A host as the browser names it: a host name (one label allowed), an IPv4 address or `[IPv6]`. */
export const SITE_HOST_PATTERN = `^(${NAME}|${IPV4}|${IPV6_LITERAL})$`;

/**
 * A rule naming such a host: the same forms, and `*.x.y` for "x.y and its subdomains" on names only (an
 * address has no subdomains).
 */
export const SITE_HOST_RULE_PATTERN = `^((\\*\\.)?${NAME}|${IPV4}|${IPV6_LITERAL})$`;
