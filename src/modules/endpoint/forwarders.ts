import { cidrContains, classifyAddress, parseCidr, parseIPv4, parseIPv6 } from '../../platform/net/index.js';

/**
 * Reads a forwarder entry: `1.2.3.4`, `1.2.3.4:5353`, `[::1]:53` or a bare IPv6 address (port 53 when none
 * is given). Answers why the entry cannot be a resolver to forward to: not an address, a port outside
 * 1–65535, or an address no resolver answers at (unspecified, multicast, link-local, cloud metadata).
 * Private and loopback addresses are what forwarders usually are (the LAN's resolvers, a local cache).
 */
export function readForwarder(text: string): { host: string; port: number } | { problem: string } {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(text);
  const v4 = bracketed ? null : /^([0-9.]+)(?::(\d{1,5}))?$/.exec(text);
  const host = bracketed?.[1] ?? v4?.[1] ?? text;
  const port = Number(bracketed?.[2] ?? v4?.[2] ?? 53);
  if (parseIPv4(host) === null && parseIPv6(host) === null) {
    return {
      problem:
        'must be an IPv4 address or an IPv6 address, with an optional port (10.0.0.53:53, [2001:db8::53]:53)',
    };
  }
  if (!Number.isInteger(port) || port < 1 || port > 65_535)
    return { problem: 'must have a port from 1 to 65535' };
  if (classifyAddress(host) === 'never' || isLinkLocal(host)) {
    return {
      problem: 'is an address no resolver answers at (unspecified, multicast, link-local or cloud metadata)',
    };
  }
  return { host, port };
}

// Link-local resolvers answer on one link only; the platform's CIDR reader, not bit arithmetic of our own.
const LINK_LOCAL = ['169.254.0.0/16', 'fe80::/10'].map((c) => parseCidr(c)!);
const isLinkLocal = (host: string): boolean => LINK_LOCAL.some((c) => cidrContains(c, host));

/** The upstream of a stored entry; entries stored before they were validated and unusable are skipped. */
export function parseForwarder(text: string): { host: string; port: number } | null {
  const f = readForwarder(text);
  return 'problem' in f ? null : f;
}
