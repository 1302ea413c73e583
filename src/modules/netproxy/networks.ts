import { BlockList, isIP } from 'node:net';
import { AppError } from '../../platform/errors/index.js';
import type { Organization } from '../orgs/index.js';

/** Most client networks one organization may list (a directory scan per unknown client stays cheap). */
export const MAX_CLIENT_NETWORKS = 256;
/** Broadest client network an organization may list, per family. */
export const MIN_IPV4_PREFIX = 8;
export const MIN_IPV6_PREFIX = 32;

export interface Cidr {
  /** Normalized text: the network address (host bits cleared) and prefix, e.g. `10.1.0.0/16`. */
  text: string;
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** Clears the host bits so that `10.1.2.3/16` and `10.1.0.0/16` are one network. */
function networkAddress(address: string, family: 'ipv4' | 'ipv6', prefix: number): string {
  if (family === 'ipv4') {
    const n = address.split('.').reduce((acc, o) => acc * 256 + Number(o), 0);
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    const net = (n & mask) >>> 0;
    return [24, 16, 8, 0].map((s) => (net >>> s) & 0xff).join('.');
  }
  // IPv6: expand, mask 16-bit groups, write back in full (BlockList accepts any valid spelling).
  const [head = '', tail] = address.split('::');
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const groups = [...h, ...Array(8 - h.length - t.length).fill('0'), ...t].map((g) => Number.parseInt(g, 16));
  return groups
    .map((g, i) => {
      const bits = Math.max(0, Math.min(16, prefix - i * 16));
      const mask = bits === 0 ? 0 : (0xffff << (16 - bits)) & 0xffff;
      return (g & mask).toString(16);
    })
    .join(':');
}

/** RFC 5952 spelling of eight hex groups: the longest run of two or more zero groups becomes `::`. */
function compressIpv6(full: string): string {
  const groups = full.split(':');
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < groups.length; ) {
    if (groups[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < groups.length && groups[j] === '0') j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  if (best === -1) return full;
  return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLen).join(':')}`;
}

/** Parses `a.b.c.d/n`, `x::y/n` or a bare address (a /32 or /128); undefined when it is neither. */
export function parseCidr(text: string): Cidr | undefined {
  const [address = '', prefixText, extra] = text.trim().split('/');
  if (extra !== undefined) return undefined;
  const version = isIP(address);
  // IPv4 inside IPv6 notation (::ffff:1.2.3.4) and zone ids are not networks anyone lists.
  if (version === 0 || address.includes('%') || (version === 6 && address.includes('.'))) return undefined;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  const max = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) return undefined;
  const net = networkAddress(address, family, prefix);
  return { text: `${family === 'ipv6' ? compressIpv6(net) : net}/${prefix}`, address: net, prefix, family };
}

function blockListOf(cidrs: readonly Cidr[]): BlockList {
  const list = new BlockList();
  for (const c of cidrs) list.addSubnet(c.address, c.prefix, c.family);
  return list;
}

/** The organization's client networks as stored in its settings (`netproxy.clientNetworks`). */
export function clientNetworksOf(settings: Record<string, unknown>): string[] {
  const s = settings['netproxy'] as { clientNetworks?: unknown } | undefined;
  return Array.isArray(s?.clientNetworks)
    ? s.clientNetworks.filter((v): v is string => typeof v === 'string')
    : [];
}

/**
 * Validates and normalizes a list of client networks: each entry a CIDR, no duplicates, none overlapping
 * another organization's (a client address must name one organization). 400 or 409 naming the entry.
 */
export function checkClientNetworks(
  list: readonly string[],
  others: ReadonlyArray<{ orgId: string; networks: readonly string[] }>,
): string[] {
  if (list.length > MAX_CLIENT_NETWORKS)
    throw new AppError('invalid_request', `clientNetworks: at most ${MAX_CLIENT_NETWORKS} networks.`);
  const cidrs: Cidr[] = [];
  list.forEach((entry, i) => {
    const c = parseCidr(entry);
    if (!c)
      throw new AppError(
        'invalid_request',
        `clientNetworks[${i}]: '${entry.slice(0, 60)}' is not an IPv4 or IPv6 network (CIDR such as 10.20.0.0/16).`,
      );
    // Whoever lists a network takes every client in it: 0.0.0.0/0 would make all keyless traffic of the
    // interception this organization's and refuse every other organization's list (409). No organization
    // holds more than a /8 of IPv4 or a /32 of IPv6 (an ISP's allocation).
    const floor = c.family === 'ipv4' ? MIN_IPV4_PREFIX : MIN_IPV6_PREFIX;
    if (c.prefix < floor)
      throw new AppError(
        'invalid_request',
        `clientNetworks[${i}]: ${c.text} is broader than any one organization's network; list networks of /${floor} or narrower.`,
      );
    if (!cidrs.some((d) => d.text === c.text)) cidrs.push(c);
  });
  const mine = blockListOf(cidrs);
  for (const other of others) {
    const theirs = other.networks.map(parseCidr).filter((c): c is Cidr => c !== undefined);
    const list = blockListOf(theirs);
    const clash =
      cidrs.find((c) => list.check(c.address, c.family)) ??
      theirs.find((c) => mine.check(c.address, c.family));
    if (clash)
      throw new AppError(
        'conflict',
        `clientNetworks: ${clash.text} overlaps the client networks of another organization; a client address must identify one organization.`,
      );
  }
  return cidrs.map((c) => c.text);
}

/** IPv4 clients of a dual-stack socket appear as ::ffff:a.b.c.d. */
function plainAddress(ip: string): { address: string; family: 'ipv4' | 'ipv6' } | undefined {
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  if (v4) return { address: v4, family: 'ipv4' };
  const version = isIP(ip);
  return version === 0 ? undefined : { address: ip, family: version === 4 ? 'ipv4' : 'ipv6' };
}

export interface NetworkDirectory {
  /** The organization whose client networks contain this address, if any. */
  orgIdFor(ip: string): Promise<string | undefined>;
}

/**
 * Which organization a client address belongs to, from every organization's client networks. The table
 * is read at most every `refreshMs`; an address found in none reads it again after `missRefreshMs`, so a
 * network just added works within a second, and unknown clients cannot make it scan the store each time.
 */
export function createNetworkDirectory(deps: {
  listOrgs(): Promise<Organization[]>;
  now(): number;
  refreshMs?: number;
  missRefreshMs?: number;
}): NetworkDirectory {
  const refreshMs = deps.refreshMs ?? 30_000;
  const missRefreshMs = deps.missRefreshMs ?? 1_000;
  let table: Array<{ orgId: string; list: BlockList }> = [];
  let loadedAt = Number.NEGATIVE_INFINITY;
  let loading: Promise<void> | null = null;

  function load(): Promise<void> {
    loading ??= deps
      .listOrgs()
      .then((orgs) => {
        table = orgs
          .map((o) => ({
            orgId: o.id,
            list: blockListOf(
              clientNetworksOf(o.settings)
                .map(parseCidr)
                .filter((c): c is Cidr => c !== undefined),
            ),
          }))
          .filter((e) => e.list.rules.length > 0);
        loadedAt = deps.now();
      })
      .finally(() => {
        loading = null;
      });
    return loading;
  }
  const find = (a: { address: string; family: 'ipv4' | 'ipv6' }) =>
    table.find((e) => e.list.check(a.address, a.family))?.orgId;

  return {
    async orgIdFor(ip) {
      const a = plainAddress(ip);
      if (!a) return undefined;
      const age = deps.now() - loadedAt;
      if (age >= refreshMs) await load();
      const hit = find(a);
      if (hit !== undefined || deps.now() - loadedAt < missRefreshMs) return hit;
      await load();
      return find(a);
    },
  };
}
