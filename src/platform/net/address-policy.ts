import { type Cidr, cidrContains, inV4Cidr, inV6Cidr, parseCidr, parseIPv4, parseIPv6 } from './ip.js';

/**
 * Why an address is refused. "never" addresses are refused even when private targets are allowed, because
 * no legitimate webhook or SIEM lives there and they are the classic SSRF prizes (cloud metadata) or
 * meaningless as destinations (unspecified, multicast, broadcast).
 */
export type AddressClass = 'public' | 'private' | 'never';

const V4 = (cidr: string): [number, number] => {
  const c = parseCidr(cidr);
  if (c === null || c.family !== 4) throw new Error(`bad built-in IPv4 range ${cidr}`);
  return [c.base, c.prefix];
};
const V6 = (cidr: string): [number[], number] => {
  const c = parseCidr(cidr);
  if (c === null || c.family !== 6) throw new Error(`bad built-in IPv6 range ${cidr}`);
  return [c.base, c.prefix];
};

const V4_NEVER = [
  '0.0.0.0/8', // "this network": connecting to 0.0.0.0 reaches the local host on Linux
  '169.254.169.254/32', // AWS, GCP, Azure, OpenStack metadata
  '169.254.170.2/32', // ECS task metadata
  '100.100.100.200/32', // Alibaba Cloud metadata
  '192.0.0.192/32', // Oracle Cloud metadata
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, includes 255.255.255.255
].map(V4);

const V4_PRIVATE = [
  '10.0.0.0/8',
  '100.64.0.0/10', // carrier-grade NAT, often the provider's internal network
  '127.0.0.0/8',
  '169.254.0.0/16', // link-local
  '172.16.0.0/12',
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // documentation
  '192.88.99.0/24', // deprecated 6to4 relay anycast
  '192.168.0.0/16',
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation
  '203.0.113.0/24', // documentation
].map(V4);

const V6_NEVER = [
  '::/128', // unspecified
  'fd00:ec2::254/128', // AWS metadata over IPv6
  'ff00::/8', // multicast
].map(V6);

const V6_PRIVATE = [
  '::1/128',
  '::/8', // reserved block that holds the loopback and the deprecated IPv4-compatible form
  '64:ff9b:1::/48', // local-use NAT64
  '100::/64', // discard-only
  '2001::/32', // Teredo: the embedded server and client addresses can point anywhere
  '2001:2::/48', // benchmarking
  '2001:10::/28', // ORCHID
  '2001:db8::/32', // documentation
  '3fff::/20', // documentation
  '5f00::/16', // segment routing
  'fc00::/7', // unique local
  'fe80::/10', // link-local
  'fec0::/10', // deprecated site-local
].map(V6);

function classifyV4(v: number): AddressClass {
  for (const [base, prefix] of V4_NEVER) if (inV4Cidr(v, base, prefix)) return 'never';
  for (const [base, prefix] of V4_PRIVATE) if (inV4Cidr(v, base, prefix)) return 'private';
  return 'public';
}

/** IPv4 carried inside an IPv6 address by a translation or tunnelling scheme, judged by its IPv4 rules. */
function embeddedV4(g: readonly number[]): number | null {
  const word = (hi: number | undefined, lo: number | undefined) => (((hi ?? 0) << 16) | (lo ?? 0)) >>> 0;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return word(g[6], g[7]); // ::ffff:a.b.c.d, mapped
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return word(g[6], g[7]); // ::ffff:0:a.b.c.d, translated
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return word(g[6], g[7]); // 64:ff9b::a.b.c.d, NAT64
  if (g[0] === 0x2002) return word(g[1], g[2]); // 2002:AABB:CCDD::/48, 6to4
  return null;
}

/** Classifies one textual IP address; anything unparseable is "never" so that a parser gap fails closed. */
export function classifyAddress(ip: string): AddressClass {
  const v4 = parseIPv4(ip);
  if (v4 !== null) return classifyV4(v4);
  const v6 = parseIPv6(ip);
  if (v6 === null) return 'never';
  for (const [base, prefix] of V6_NEVER) if (inV6Cidr(v6, base, prefix)) return 'never';
  const inner = embeddedV4(v6);
  if (inner !== null) return classifyV4(inner);
  for (const [base, prefix] of V6_PRIVATE) if (inV6Cidr(v6, base, prefix)) return 'private';
  return 'public';
}

/**
 * True for every address an outbound request to a user-supplied URL must not reach by default: loopback,
 * RFC 1918, CGNAT, link-local and metadata, ULA, IPv4-mapped/NAT64/6to4 forms of those, unspecified,
 * multicast, documentation and other reserved ranges. Unparseable input counts as forbidden.
 */
export function isForbiddenAddress(ip: string): boolean {
  return classifyAddress(ip) !== 'public';
}

export interface AddressPolicyOptions {
  /** Allows private and loopback ranges (tests, local development, self-hosted SIEMs on the LAN). */
  allowPrivate: boolean;
  /**
   * Explicit exceptions: host names ("siem.corp.example", "*.corp.example"), IP addresses or CIDR ranges
   * ("10.20.0.0/16"). A listed name may resolve to private addresses; a listed address or range is reachable
   * whatever the URL's host name. This is the only way to reach a "never" address such as a metadata IP.
   */
  allowHosts?: readonly string[] | undefined;
}

export interface AddressPolicy {
  /** Null when host (as written in the URL, lower case) may connect to ip, otherwise the refusal reason. */
  check(host: string, ip: string): string | null;
}

export function createAddressPolicy(opts: AddressPolicyOptions): AddressPolicy {
  const names: string[] = [];
  const suffixes: string[] = [];
  const ranges: Cidr[] = [];
  for (const raw of opts.allowHosts ?? []) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    const cidr = parseCidr(entry.replace(/^\[|\]$/g, ''));
    if (cidr !== null) ranges.push(cidr);
    else if (entry.startsWith('*.')) suffixes.push(entry.slice(1));
    else names.push(entry.replace(/\.$/, ''));
  }
  const hostListed = (host: string) => {
    const h = host.toLowerCase().replace(/\.$/, '');
    return names.includes(h) || suffixes.some((s) => h.endsWith(s));
  };

  return {
    check(host, ip) {
      if (ranges.some((r) => cidrContains(r, ip))) return null;
      const cls = classifyAddress(ip);
      if (cls === 'public') return null;
      if (cls === 'never') return `address ${ip} is never a permitted destination`;
      if (opts.allowPrivate || hostListed(host)) return null;
      return `address ${ip} is private, loopback or link-local`;
    },
  };
}
