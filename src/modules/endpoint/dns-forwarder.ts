import dgram from 'node:dgram';
import net from 'node:net';
import dnsPacket from 'dns-packet';
import { createDomainSet } from './domains.js';
import type { DnsConfig } from './endpoint.schemas.js';
import { parseForwarder } from './forwarders.js';

/**
 * The filtering DNS forwarder behind `parapet dns`: blocked names (and their subdomains) are answered
 * locally with the block-page address, allowed exceptions and every other name are forwarded to the
 * configured upstream resolvers, over UDP for UDP queries and over TCP for TCP queries (so truncated
 * answers still reach clients that retry over TCP). Packets are parsed and built with dns-packet.
 */
export interface DnsForwarderOptions {
  host: string;
  port: number;
  /** IPv4 address blocked A queries resolve to (the block page). */
  blockAddress: string;
  upstreamTimeoutMs: number;
  /** Called for every blocked query with the rule base that matched. */
  onBlocked?: (base: string) => void;
  onError?: (err: Error) => void;
}

interface Rules {
  enabled: boolean;
  blocked: ReturnType<typeof createDomainSet>;
  allowed: ReturnType<typeof createDomainSet>;
  forwarders: Array<{ host: string; port: number }>;
}

const BLOCK_TTL = 60;
const MAX_TCP_MESSAGE = 65_535;

function compile(cfg: DnsConfig | null): Rules {
  return {
    enabled: !!cfg?.enabled,
    blocked: createDomainSet(cfg?.blockedDomains ?? []),
    allowed: createDomainSet(cfg?.allowedDomains ?? []),
    forwarders: (cfg?.integration.forwarders ?? []).flatMap((f) => parseForwarder(f) ?? []),
  };
}

type Decision = { kind: 'block'; base: string } | { kind: 'forward' } | { kind: 'refuse' };

export function decide(rules: Rules, name: string): Decision {
  if (rules.forwarders.length === 0) return { kind: 'refuse' };
  if (!rules.enabled || rules.allowed.match(name) !== undefined) return { kind: 'forward' };
  const base = rules.blocked.match(name);
  return base === undefined ? { kind: 'forward' } : { kind: 'block', base };
}

function answer(query: dnsPacket.Packet, rcode: string, answers: dnsPacket.Answer[] = []): Buffer {
  const rd = (query.flags ?? 0) & dnsPacket.RECURSION_DESIRED;
  return dnsPacket.encode({
    type: 'response',
    id: query.id ?? 0,
    // RA: we recurse (through the forwarders); the rcode sits in the low four bits of the flags.
    flags: rd | dnsPacket.RECURSION_AVAILABLE | (RCODES[rcode] ?? 0),
    questions: query.questions ?? [],
    answers,
  });
}

const RCODES: Record<string, number> = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 };

function blockedAnswer(query: dnsPacket.Packet, blockAddress: string): Buffer {
  const q = query.questions?.[0];
  // A gets the block page; every other type gets NODATA, so clients fall back to the A answer.
  const answers: dnsPacket.Answer[] =
    q && q.type === 'A' ? [{ type: 'A', name: q.name, ttl: BLOCK_TTL, class: 'IN', data: blockAddress }] : [];
  return answer(query, 'NOERROR', answers);
}

function udpExchange(msg: Buffer, to: { host: string; port: number }, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const sock = dgram.createSocket(net.isIPv6(to.host) ? 'udp6' : 'udp4');
    const id = msg.readUInt16BE(0);
    const timer = setTimeout(() => done(new Error('upstream timeout')), timeoutMs);
    function done(err: Error | null, res?: Buffer) {
      clearTimeout(timer);
      sock.close();
      if (err) reject(err);
      else resolve(res as Buffer);
    }
    sock.on('error', (err) => done(err));
    sock.on('message', (res) => {
      // An answer to another query (or spoofed) is not ours.
      if (res.length >= 2 && res.readUInt16BE(0) === id) done(null, res);
    });
    sock.send(msg, to.port, to.host);
  });
}

function tcpExchange(msg: Buffer, to: { host: string; port: number }, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(to.port, to.host);
    let buf = Buffer.alloc(0);
    const timer = setTimeout(() => finish(new Error('upstream timeout')), timeoutMs);
    function finish(err: Error | null, res?: Buffer) {
      clearTimeout(timer);
      sock.destroy();
      if (err) reject(err);
      else resolve(res as Buffer);
    }
    sock.on('error', (err) => finish(err));
    sock.on('connect', () => {
      const len = Buffer.alloc(2);
      len.writeUInt16BE(msg.length);
      sock.write(Buffer.concat([len, msg]));
    });
    sock.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      if (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0))
        finish(null, buf.subarray(2, 2 + buf.readUInt16BE(0)));
    });
    sock.on('end', () => finish(new Error('upstream closed the connection')));
  });
}

export function createDnsForwarder(opts: DnsForwarderOptions) {
  let rules = compile(null);
  let udp: dgram.Socket | null = null;
  let tcp: net.Server | null = null;

  /** Answers one query message; never throws (a failure is SERVFAIL). */
  async function handle(msg: Buffer, transport: 'udp' | 'tcp'): Promise<Buffer | null> {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(msg);
    } catch {
      return null; // not DNS: no answer, as resolvers do
    }
    const name = query.questions?.[0]?.name;
    if (query.type !== 'query' || !name) return answer(query, 'REFUSED');
    const d = decide(rules, name);
    if (d.kind === 'refuse') return answer(query, 'REFUSED');
    if (d.kind === 'block') {
      opts.onBlocked?.(d.base);
      return blockedAnswer(query, opts.blockAddress);
    }
    for (const f of rules.forwarders) {
      try {
        return transport === 'udp'
          ? await udpExchange(msg, f, opts.upstreamTimeoutMs)
          : await tcpExchange(msg, f, opts.upstreamTimeoutMs);
      } catch {
        // the next forwarder, if any
      }
    }
    return answer(query, 'SERVFAIL');
  }

  function serveTcp(sock: net.Socket): void {
    let buf = Buffer.alloc(0);
    sock.setTimeout(30_000, () => sock.destroy());
    sock.on('error', () => sock.destroy());
    sock.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      if (buf.length > MAX_TCP_MESSAGE + 2) return sock.destroy();
      while (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
        const len = buf.readUInt16BE(0);
        const msg = buf.subarray(2, 2 + len);
        buf = buf.subarray(2 + len);
        void handle(Buffer.from(msg), 'tcp').then((res) => {
          if (!res || sock.destroyed) return;
          const head = Buffer.alloc(2);
          head.writeUInt16BE(res.length);
          sock.write(Buffer.concat([head, res]));
        });
      }
    });
  }

  return {
    /** Replaces the rules (a new configuration); queries in flight finish with the old ones. */
    setConfig(cfg: DnsConfig | null): void {
      rules = compile(cfg);
    },

    async start(): Promise<{ port: number }> {
      tcp = net.createServer(serveTcp);
      await new Promise<void>((resolve, reject) => {
        tcp?.once('error', reject);
        tcp?.listen(opts.port, opts.host, () => resolve());
      });
      const port = (tcp.address() as net.AddressInfo).port;
      udp = dgram.createSocket(net.isIPv6(opts.host) ? 'udp6' : 'udp4');
      udp.on('message', (msg, rinfo) => {
        void handle(msg, 'udp').then((res) => {
          if (res) udp?.send(res, rinfo.port, rinfo.address);
        });
      });
      udp.on('error', (err) => opts.onError?.(err));
      // One port for both transports, as resolvers expect: UDP binds the port TCP got.
      await new Promise<void>((resolve, reject) => {
        udp?.once('error', reject);
        udp?.bind(port, opts.host, () => resolve());
      });
      return { port };
    },

    async close(): Promise<void> {
      await new Promise<void>((r) => (udp ? udp.close(() => r()) : r()));
      await new Promise<void>((r) => (tcp ? tcp.close(() => r()) : r()));
      udp = null;
      tcp = null;
    },
  };
}

export type DnsForwarder = ReturnType<typeof createDnsForwarder>;
