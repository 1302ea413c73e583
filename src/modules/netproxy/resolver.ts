import type { LookupAddress } from 'node:dns';
import { Resolver } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { networkInterfaces } from 'node:os';
import { providerOfHost } from './hosts.js';

const MIN_TTL_S = 5;
const MAX_TTL_S = 300;

/** Every address of this machine: a provider name that resolves to one of them would come back to us. */
function ownAddresses(): Set<string> {
  const out = new Set<string>(['127.0.0.1', '::1']);
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) out.add(a.address);
  return out;
}

/**
 * The upstream resolver of transparent mode: it asks the DNS servers it is given (or, with none, the
 * system's servers) directly, never through the system's lookup (which may read the same intercepting
 * DNS or hosts file that sends clients to us), and caches answers for their TTL. A provider's own host
 * name answered with an address of this machine is refused: that resolver is the intercepting one, and
 * following it would send the request back to this proxy.
 */
export function createUpstreamLookup(servers: readonly string[]): LookupFunction {
  const resolver = new Resolver({ timeout: 3_000, tries: 2 });
  if (servers.length > 0) resolver.setServers([...servers]);
  const own = ownAddresses();
  const cache = new Map<string, { addresses: LookupAddress[]; until: number }>();

  async function resolve(host: string): Promise<LookupAddress[]> {
    const hit = cache.get(host);
    if (hit && hit.until > Date.now()) return hit.addresses;
    const v4 = await resolver.resolve4(host, { ttl: true }).catch(() => []);
    const v6 = v4.length > 0 ? [] : await resolver.resolve6(host, { ttl: true }).catch(() => []);
    const records = [...v4, ...v6];
    if (records.length === 0)
      throw Object.assign(new Error(`${host} did not resolve`), { code: 'ENOTFOUND' });
    const addresses = records.map((r) => ({ address: r.address, family: v4.length > 0 ? 4 : 6 }));
    if (providerOfHost(host) && addresses.some((a) => own.has(a.address))) {
      throw Object.assign(
        new Error(
          `${host} resolved to this machine; PARAPET_INTERCEPT_DNS must name a resolver that does not intercept`,
        ),
        { code: 'ELOOP' },
      );
    }
    const ttl = Math.min(MAX_TTL_S, Math.max(MIN_TTL_S, Math.min(...records.map((r) => r.ttl))));
    cache.set(host, { addresses, until: Date.now() + ttl * 1000 });
    return addresses;
  }

  return ((host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    resolve(host).then(
      (addresses) => {
        const first = addresses[0] as LookupAddress;
        if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (err: unknown) => callback(err),
    );
  }) as unknown as LookupFunction;
}
