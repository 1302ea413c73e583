import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import { type AddressPolicy, createAddressPolicy } from './address-policy.js';
import { guardedLookup, type Resolver } from './guarded-lookup.js';
import { OutboundError, toOutboundError } from './outbound-error.js';

export interface OutboundOptions {
  /** Allow loopback and private ranges (tests, local development, SIEMs on the same LAN). */
  allowPrivate: boolean;
  /** Host names, "*.suffix" patterns, IPs or CIDR ranges that are reachable even when private. */
  allowHosts?: string[] | undefined;
  /** Whole-request deadline (connect, send, headers and body) unless a request sets its own. */
  timeoutMs: number;
  /** Response bytes kept in `body`; the rest is read and discarded so the connection can be reused. */
  maxResponseBytes?: number | undefined;
  /** Extra PEM trust anchor added to the system roots, for self-hosted SIEMs on a private CA and for tests. */
  ca?: string | Buffer | undefined;
  /** Replaces the system resolver; tests use it to simulate rebinding answers. */
  resolver?: Resolver | undefined;
  /** Connections kept per destination; batches to one SIEM rarely need more. */
  maxSocketsPerHost?: number | undefined;
}

export interface OutboundRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  timeoutMs?: number;
  /**
   * Response bytes kept for this request, when a caller has a smaller limit of its own than the client's (a
   * crawled web page against an API's JSON); never more than the client's `maxResponseBytes`.
   */
  maxResponseBytes?: number;
}

export interface OutboundResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: string;
  timeMs: number;
}

export interface Outbound {
  request(url: string, init?: OutboundRequestInit): Promise<OutboundResponse>;
  close(): Promise<void>;
  /** The same policy, for callers that open raw sockets (syslog over TCP/UDP/TLS). */
  readonly policy: AddressPolicy;
  /** A net/tls/dgram `lookup` applying the policy to every resolved address. */
  readonly lookup: LookupFunction;
}

/**
 * The only way the service talks to a user-supplied URL. Redirects are never followed (a 3xx is returned as
 * is), every resolved address is checked when the connection is made, and the peer address is re-checked
 * once connected so that no code path (IP literals, reused sockets, odd resolvers) skips the policy.
 */
export function createOutbound(opts: OutboundOptions): Outbound {
  const policy = createAddressPolicy(opts);
  const lookup = guardedLookup(policy, opts.resolver);
  const maxBytes = opts.maxResponseBytes ?? 1024 * 1024;
  const agentOpts = { keepAlive: true, maxSockets: opts.maxSocketsPerHost ?? 8, lookup };
  const httpAgent = new http.Agent(agentOpts);
  const httpsAgent = new https.Agent({
    ...agentOpts,
    ...(opts.ca === undefined ? {} : { ca: [...tls.rootCertificates, opts.ca.toString()] }),
  });
  let closed = false;

  function request(url: string, init: OutboundRequestInit = {}): Promise<OutboundResponse> {
    if (closed) return Promise.reject(new OutboundError('closed', 'outbound client is closed'));
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return Promise.reject(new OutboundError('invalid_url', 'not a valid URL'));
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      return Promise.reject(new OutboundError('invalid_url', `scheme ${target.protocol} is not allowed`));
    }
    if (target.username !== '' || target.password !== '') {
      // Credentials in URLs end up in logs and delivery history; sinks send them as headers instead.
      return Promise.reject(new OutboundError('invalid_url', 'credentials in the URL are not allowed'));
    }
    const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (isIP(host) !== 0) {
      // Node skips `lookup` for IP literals, so they are checked here.
      const reason = policy.check(host, host);
      if (reason !== null) return Promise.reject(new OutboundError('ssrf_blocked', reason));
    }

    const isHttps = target.protocol === 'https:';
    const body = init.body === undefined ? undefined : Buffer.from(init.body);
    const headers: Record<string, string> = { ...init.headers };
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')) {
      headers['content-length'] = String(body.byteLength);
    }
    const timeoutMs = init.timeoutMs ?? opts.timeoutMs;
    const keep = Math.min(maxBytes, init.maxResponseBytes ?? maxBytes);
    const started = performance.now();

    return new Promise<OutboundResponse>((resolve, reject) => {
      let settled = false;
      const fail = (err: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(toOutboundError(err, `${init.method ?? 'GET'} ${target.host}`));
      };
      const req = (isHttps ? https : http).request({
        protocol: target.protocol,
        hostname: host,
        port: target.port === '' ? undefined : Number(target.port),
        path: `${target.pathname}${target.search}`,
        method: init.method ?? 'GET',
        headers,
        agent: isHttps ? httpsAgent : httpAgent,
        lookup,
        ...(isHttps && isIP(host) === 0 ? { servername: host } : {}),
      });
      const timer = setTimeout(() => {
        req.destroy(new OutboundError('timeout', `no complete answer within ${timeoutMs} ms`));
      }, timeoutMs);

      req.on('socket', (socket: Socket) => {
        const verifyPeer = () => {
          const peer = socket.remoteAddress;
          const reason = peer === undefined ? 'peer address unknown' : policy.check(host, peer);
          if (reason !== null) req.destroy(new OutboundError('ssrf_blocked', reason));
        };
        if (socket.connecting) socket.once('connect', verifyPeer);
        else verifyPeer();
      });
      req.on('error', fail);
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (chunk: Buffer) => {
          if (kept >= keep) return;
          const slice = chunk.subarray(0, keep - kept);
          chunks.push(slice);
          kept += slice.byteLength;
        });
        res.on('error', fail);
        res.on('aborted', () => fail(new OutboundError('connection_reset', 'response aborted')));
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          const flat: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
          }
          resolve({
            status: res.statusCode ?? 0,
            headers: flat,
            body: Buffer.concat(chunks).toString('utf8'),
            timeMs: Math.round(performance.now() - started),
          });
        });
      });
      req.end(body);
    });
  }

  return {
    request,
    policy,
    lookup,
    async close() {
      closed = true;
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}
