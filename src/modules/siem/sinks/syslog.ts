import dgram from 'node:dgram';
import net, { isIP, type LookupFunction } from 'node:net';
import tls from 'node:tls';
import { type AddressPolicy, OutboundError, toOutboundError } from '../../../platform/net/index.js';
import { formatSyslog, octetFrame, type SyslogFormat, type SyslogOptions } from '../formats/syslog.js';
import type { SiemEvent, Sink, SinkRejection, SinkResult } from '../formats/types.js';

/** Largest UDP payload over IPv4 (65535 minus IP and UDP headers). */
const MAX_UDP_PAYLOAD = 65_507;
import { resultFromError } from './http-result.js';

export interface SyslogConfig {
  host: string;
  port: number;
  protocol: 'TCP' | 'UDP' | 'TLS';
  facility?: string | undefined;
  format?: SyslogFormat | undefined;
  appName?: string | undefined;
  /** Client certificate and key (PEM) for receivers that require mutual TLS. */
  tlsCert?: string | undefined;
  tlsKey?: string | undefined;
  /** PEM CA that signed the receiver's certificate, when it is not publicly trusted. */
  tlsCa?: string | undefined;
}

export interface SyslogDeps {
  policy: AddressPolicy;
  lookup: LookupFunction;
  hostname: string;
  timeoutMs: number;
}

/**
 * Syslog over UDP (one datagram per event), TCP or TLS (RFC 5425: octet-counted frames on one long-lived
 * connection). Neither transport acknowledges: "ok" means the local kernel accepted the bytes, and a
 * receiver crash can lose what was in flight. A refused or broken connection is reported as retryable and
 * the next send reconnects.
 */
export function createSyslogSink(cfg: SyslogConfig, deps: SyslogDeps): Sink {
  const format: SyslogFormat = cfg.format ?? 'RFC5424';
  const opts: SyslogOptions = {
    facility: cfg.facility ?? 'LOCAL0',
    appName: cfg.appName || 'parapet',
    hostname: deps.hostname,
    procId: String(process.pid),
  };
  const host = cfg.host.replace(/^\[|\]$/g, '');
  let socket: net.Socket | null = null;
  let connecting: Promise<net.Socket> | null = null;
  let udp: dgram.Socket | null = null;
  let udpType: 'udp4' | 'udp6' = 'udp4';
  let closed = false;

  const checkLiteral = () => {
    if (isIP(host) !== 0) {
      const reason = deps.policy.check(host, host);
      if (reason !== null) throw new OutboundError('ssrf_blocked', reason);
    }
  };

  const connectStream = (): Promise<net.Socket> => {
    if (socket !== null && !socket.destroyed && socket.writable) return Promise.resolve(socket);
    if (connecting !== null) return connecting;
    checkLiteral();
    connecting = new Promise<net.Socket>((resolve, reject) => {
      const common = { host, port: cfg.port, lookup: deps.lookup };
      const s =
        cfg.protocol === 'TLS'
          ? tls.connect({
              ...common,
              ...(isIP(host) === 0 ? { servername: host } : {}),
              ...(cfg.tlsCa ? { ca: [...tls.rootCertificates, cfg.tlsCa] } : {}),
              ...(cfg.tlsCert && cfg.tlsKey ? { cert: cfg.tlsCert, key: cfg.tlsKey } : {}),
            })
          : net.connect(common);
      const timer = setTimeout(
        () => s.destroy(new OutboundError('timeout', 'syslog connect timed out')),
        deps.timeoutMs,
      );
      const onError = (err: Error) => {
        clearTimeout(timer);
        reject(toOutboundError(err, `syslog ${cfg.protocol} connect`));
      };
      s.once('error', onError);
      s.once(cfg.protocol === 'TLS' ? 'secureConnect' : 'connect', () => {
        clearTimeout(timer);
        const peer = s.remoteAddress;
        const reason = peer === undefined ? 'peer address unknown' : deps.policy.check(host, peer);
        if (reason !== null) {
          s.destroy();
          reject(new OutboundError('ssrf_blocked', reason));
          return;
        }
        s.off('error', onError);
        s.setKeepAlive(true, 30_000);
        // A receiver that closes or resets an idle connection must not swallow the next batch silently.
        s.on('error', () => s.destroy());
        s.on('close', () => {
          if (socket === s) socket = null;
        });
        s.on('end', () => s.destroy());
        s.on('data', () => {}); // syslog receivers do not answer; drain anything unexpected
        socket = s;
        resolve(s);
      });
    }).finally(() => {
      connecting = null;
    });
    return connecting;
  };

  const writeAll = (s: net.Socket, payload: string): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        s.destroy();
        reject(new OutboundError('timeout', 'syslog write timed out'));
      }, deps.timeoutMs);
      const onClose = () => {
        clearTimeout(timer);
        reject(new OutboundError('connection_reset', 'syslog connection closed during write'));
      };
      s.once('close', onClose);
      s.write(payload, (err) => {
        clearTimeout(timer);
        s.off('close', onClose);
        if (err) reject(toOutboundError(err, 'syslog write'));
        else resolve();
      });
    });

  const sendStream = async (events: readonly SiemEvent[]): Promise<SinkResult> => {
    let payload = '';
    for (const ev of events) payload += octetFrame(formatSyslog(ev, format, opts));
    const s = await connectStream();
    await writeAll(s, payload);
    return { ok: true, retryable: false };
  };

  /** Resolves through the guarded lookup and returns the checked address, so datagrams go to a pinned IP. */
  const resolveChecked = (): Promise<string> => {
    if (isIP(host) !== 0) {
      checkLiteral();
      return Promise.resolve(host);
    }
    return new Promise((resolve, reject) => {
      deps.lookup(host, {}, (err, address) => {
        if (err) reject(err);
        else resolve(typeof address === 'string' ? address : (address[0]?.address ?? ''));
      });
    });
  };

  const sendUdp = async (events: readonly SiemEvent[]): Promise<SinkResult> => {
    const ip = await resolveChecked();
    const type = isIP(ip) === 6 ? 'udp6' : 'udp4';
    if (udp === null || udpType !== type) {
      udp?.close();
      // No custom lookup here: dgram would also run it for its own bind address (0.0.0.0).
      udp = dgram.createSocket(type);
      udpType = type;
      udp.on('error', () => {});
      udp.unref();
    }
    const u = udp;
    const rejected: SinkRejection[] = [];
    const sends: Promise<void>[] = [];
    for (const ev of events) {
      const datagram = Buffer.from(formatSyslog(ev, format, opts), 'utf8');
      if (datagram.byteLength > MAX_UDP_PAYLOAD) {
        // It can never fit in one datagram, so retrying would block the queue forever.
        rejected.push({
          id: ev.id,
          retryable: false,
          error: `message of ${datagram.byteLength} bytes exceeds a UDP datagram`,
        });
        continue;
      }
      sends.push(
        new Promise<void>((resolve, reject) => {
          u.send(datagram, cfg.port, ip, (err) =>
            err ? reject(toOutboundError(err, 'syslog UDP send')) : resolve(),
          );
        }),
      );
    }
    await Promise.all(sends);
    if (rejected.length === 0) return { ok: true, retryable: false };
    return { ok: false, retryable: false, reason: 'permanent', error: rejected[0]!.error, rejected };
  };

  return {
    platform: 'SYSLOG',
    async send(events) {
      if (closed) return { ok: false, retryable: true, reason: 'transient', error: 'sink closed' };
      if (events.length === 0) return { ok: true, retryable: false };
      try {
        return cfg.protocol === 'UDP' ? await sendUdp(events) : await sendStream(events);
      } catch (err) {
        socket?.destroy();
        socket = null;
        return resultFromError(err);
      }
    },
    async close() {
      closed = true;
      const s = socket;
      socket = null;
      if (s !== null && !s.destroyed) {
        await new Promise<void>((resolve) => {
          s.once('close', () => resolve());
          s.end();
          setTimeout(() => s.destroy(), 1000).unref();
        });
      }
      udp?.close();
      udp = null;
    },
  };
}
