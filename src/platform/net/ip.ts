/**
 * Minimal IP parsing for the SSRF guard. Addresses reach the guard from DNS answers and from URL host
 * literals already normalised by WHATWG URL, so only canonical dotted IPv4 and RFC 4291 IPv6 text (with an
 * optional zone and an optional embedded dotted quad) need to be understood. Anything else is "not an IP".
 */

/** An IPv4 address as an unsigned 32-bit integer. */
export function parseIPv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    // Leading zeros are refused: some resolvers read them as octal, so "010" is ambiguous on purpose.
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    value = value * 256 + n;
  }
  return value;
}

/** An IPv6 address as eight 16-bit groups. */
export function parseIPv6(text: string): number[] | null {
  let s = text;
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (s.length === 0 || !/^[0-9a-fA-F:.]+$/.test(s)) return null;

  let tail: number[] = [];
  const lastColon = s.lastIndexOf(':');
  if (s.includes('.')) {
    const v4 = parseIPv4(s.slice(lastColon + 1));
    if (v4 === null) return null;
    tail = [v4 >>> 16, v4 & 0xffff];
    s = s.slice(0, lastColon + 1);
    if (!s.endsWith('::')) s = s.slice(0, -1);
  }

  const halves = s.split('::');
  if (halves.length > 2) return null;
  const parseGroups = (part: string): number[] | null => {
    if (part === '') return [];
    const out: number[] = [];
    for (const g of part.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
      out.push(Number.parseInt(g, 16));
    }
    return out;
  };
  const head = parseGroups(halves[0] ?? '');
  const rest = halves.length === 2 ? parseGroups(halves[1] ?? '') : [];
  if (head === null || rest === null) return null;
  const explicit = head.length + rest.length + tail.length;
  if (halves.length === 2) {
    if (explicit > 7) return null;
    return [...head, ...new Array<number>(8 - explicit).fill(0), ...rest, ...tail];
  }
  if (explicit !== 8) return null;
  return [...head, ...tail];
}

export function ipv4ToString(v: number): string {
  return [v >>> 24, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff].join('.');
}

/** True when the 32-bit address lies inside base/prefix. */
export function inV4Cidr(addr: number, base: number, prefix: number): boolean {
  if (prefix === 0) return true;
  const mask = prefix === 32 ? 0xffffffff : (0xffffffff << (32 - prefix)) >>> 0;
  return (addr & mask) >>> 0 === (base & mask) >>> 0;
}

/** True when the eight-group address lies inside base/prefix. */
export function inV6Cidr(addr: readonly number[], base: readonly number[], prefix: number): boolean {
  let bits = prefix;
  for (let i = 0; i < 8 && bits > 0; i++) {
    const take = Math.min(16, bits);
    const mask = (0xffff << (16 - take)) & 0xffff;
    if (((addr[i] ?? 0) & mask) !== ((base[i] ?? 0) & mask)) return false;
    bits -= take;
  }
  return true;
}

export type Cidr =
  | { family: 4; base: number; prefix: number }
  | { family: 6; base: number[]; prefix: number };

/** Parses "10.0.0.0/8", "fc00::/7" or a single address (full-length prefix). */
export function parseCidr(text: string): Cidr | null {
  const slash = text.indexOf('/');
  const addr = slash >= 0 ? text.slice(0, slash) : text;
  const prefixText = slash >= 0 ? text.slice(slash + 1) : null;
  if (prefixText !== null && !/^[0-9]{1,3}$/.test(prefixText)) return null;
  const v4 = parseIPv4(addr);
  if (v4 !== null) {
    const prefix = prefixText === null ? 32 : Number(prefixText);
    return prefix <= 32 ? { family: 4, base: v4, prefix } : null;
  }
  const v6 = parseIPv6(addr);
  if (v6 !== null) {
    const prefix = prefixText === null ? 128 : Number(prefixText);
    return prefix <= 128 ? { family: 6, base: v6, prefix } : null;
  }
  return null;
}

/** True when ip (any text form this module parses) lies in the CIDR, comparing IPv4-mapped IPv6 as IPv4. */
export function cidrContains(cidr: Cidr, ip: string): boolean {
  const v4 = parseIPv4(ip) ?? mappedIPv4(parseIPv6(ip));
  if (cidr.family === 4) return v4 !== null && inV4Cidr(v4, cidr.base, cidr.prefix);
  const v6 = parseIPv6(ip);
  return v6 !== null && inV6Cidr(v6, cidr.base, cidr.prefix);
}

function mappedIPv4(groups: number[] | null): number | null {
  if (groups === null) return null;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return (((groups[6] ?? 0) << 16) | (groups[7] ?? 0)) >>> 0;
  }
  return null;
}
