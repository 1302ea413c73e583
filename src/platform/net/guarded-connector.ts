import { isIP } from 'node:net';
import { buildConnector } from 'undici';
import type { AddressPolicy } from './address-policy.js';
import { guardedLookup, type Resolver } from './guarded-lookup.js';
import { OutboundError } from './outbound-error.js';

/**
 * An undici `connect` that applies the address policy the way createOutbound does for node:http: IP
 * literals are judged before any packet is sent (Node skips `lookup` for them), names through the guarded
 * lookup (every resolved address must pass), and the peer address once more after connecting, so that
 * no path (a reused socket, an odd resolver) reaches a refused address.
 */
export function guardedConnector(
  policy: AddressPolicy,
  options: { resolver?: Resolver; tls?: buildConnector.BuildOptions } = {},
): buildConnector.connector {
  const connect = buildConnector({
    ...options.tls,
    lookup: guardedLookup(policy, options.resolver),
  } as buildConnector.BuildOptions);
  return (opts, callback) => {
    const host = opts.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (isIP(host) !== 0) {
      const reason = policy.check(host, host);
      if (reason !== null) {
        callback(new OutboundError('ssrf_blocked', reason), null);
        return;
      }
    }
    connect(opts, (err, socket) => {
      if (err !== null || socket === null) {
        callback(err ?? new OutboundError('connect_failed', `no socket for ${host}`), null);
        return;
      }
      const peer = socket.remoteAddress;
      const reason = peer === undefined ? 'peer address unknown' : policy.check(host, peer);
      if (reason !== null) {
        socket.destroy();
        callback(new OutboundError('ssrf_blocked', reason), null);
        return;
      }
      callback(null, socket);
    });
  };
}
