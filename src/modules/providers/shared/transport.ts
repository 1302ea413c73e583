import { Agent, type Dispatcher } from 'undici';
import { type AddressPolicy, createAddressPolicy, guardedConnector } from '../../../platform/net/index.js';
import type { AbortEmitter } from './abort.js';

/** What an upstream call answers: status, lower-cased headers and a body to read once (text or chunks). */
export type UpstreamResponse = Dispatcher.ResponseData;

// One pooled dispatcher for every provider origin. The deadlines are CallSignal's (call timeout, idle
// timeout per chunk), so undici's own header and body timeouts are off rather than a second, shorter
// limit on slow models. Idle connections are kept longer than undici's 4 s default, so that a request
// every few seconds still finds a warm TLS connection. Every connection passes the outbound address policy
// (an organization's base URL is user-supplied and the request carries its provider key): IP literals,
// every resolved address and the connected peer are checked.
const agentFor = (policy: AddressPolicy) =>
  new Agent({
    headersTimeout: 0,
    bodyTimeout: 0,
    keepAliveTimeout: 30_000,
    connect: guardedConnector(policy),
  });

// Until the process sets its policy (useProviderAddressPolicy, from the configuration), private addresses
// are reachable, as in tests of the adapters against local fakes; metadata and unspecified ones never are.
let dispatcher: Agent = agentFor(createAddressPolicy({ allowPrivate: true }));

/**
 * Sets the address policy of every provider call: the deployment's PARAPET_ALLOW_PRIVATE_TARGETS, with
 * the hosts of operator-configured base URLs (PARAPET_PROVIDER_<ID>_BASE_URL) as explicit exceptions.
 * Calls in flight finish on the previous pool.
 */
export function useProviderAddressPolicy(policy: AddressPolicy): void {
  const previous = dispatcher;
  dispatcher = agentFor(policy);
  void previous.close().catch(() => undefined);
}

/**
 * POSTs with undici's pooled client. Abort goes through `signal` (before and after the headers); the body
 * is a Node stream with backpressure, and destroying it releases the connection. Much cheaper per request
 * than node:http wrapped in a WHATWG Response, which was most of the gateway's added latency.
 */
export function post(
  url: string,
  init: { headers: Record<string, string>; body: string; signal: AbortEmitter },
): Promise<UpstreamResponse> {
  const target = targetOf(url);
  return dispatcher.request({
    origin: target.origin,
    path: target.path,
    method: 'POST',
    headers: init.headers,
    body: init.body,
    signal: init.signal,
  });
}

// A handful of distinct URLs (one per provider endpoint and base URL) serve every request.
const targets = new Map<string, { origin: string; path: string }>();
const MAX_TARGETS = 1_000;

function targetOf(url: string): { origin: string; path: string } {
  let target = targets.get(url);
  if (!target) {
    const parsed = new URL(url);
    target = { origin: parsed.origin, path: parsed.pathname + parsed.search };
    if (targets.size >= MAX_TARGETS) targets.clear();
    targets.set(url, target);
  }
  return target;
}

/** The first value of a response header (undici gives arrays for repeated ones). */
export function headerOf(response: UpstreamResponse, name: string): string | null {
  const v = response.headers[name];
  return (Array.isArray(v) ? v[0] : v) ?? null;
}
