import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { AddressPolicy } from './address-policy.js';
import { OutboundError } from './outbound-error.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address; injectable so tests can simulate rebinding answers. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/**
 * A net/tls/dgram `lookup` that refuses the whole name when ANY of its addresses is forbidden. Checking
 * only the address we would pick is not enough: with happy-eyeballs Node may try the others, and a name
 * that mixes public and private answers is the DNS-rebinding pattern anyway.
 */
export function guardedLookup(policy: AddressPolicy, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (answers) => {
        if (answers.length === 0) {
          callback(new OutboundError('dns_failed', `no address for ${hostname}`), '', 4);
          return;
        }
        for (const a of answers) {
          const reason = policy.check(hostname, a.address);
          if (reason !== null) {
            callback(new OutboundError('ssrf_blocked', `${hostname}: ${reason}`), '', 4);
            return;
          }
        }
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = wanted === 0 ? answers : answers.filter((a) => a.family === wanted);
        if (usable.length === 0) {
          callback(new OutboundError('dns_failed', `no IPv${wanted} address for ${hostname}`), '', 4);
          return;
        }
        if (options.all) {
          // The Node typings only describe the single-address form of the callback.
          (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, usable);
        } else {
          const first = usable[0]!;
          callback(null, first.address, first.family);
        }
      },
      (err: unknown) => {
        const msg = err instanceof Error ? err.message : String(err);
        callback(new OutboundError('dns_failed', `cannot resolve ${hostname}: ${msg}`), '', 4);
      },
    );
  };
}
