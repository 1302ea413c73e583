import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { createInterface } from 'node:readline';
import { type Outbound, OutboundError } from '../../../platform/net/index.js';
import { idmefJson, idmefXml, type IdmefOptions } from '../formats/idmef.js';
import type { SiemEvent, Sink, SinkResult } from '../formats/types.js';
import { PRELUDE_BRIDGE_SOURCE } from './prelude-bridge.js';
import {
  chunkBySize,
  mergeResults,
  resultFromError,
  resultFromStatus,
  sendSplittingOn413,
} from './http-result.js';

export interface PreludeCredentials {
  apiKey?: string | undefined;
  /** For prelude:// endpoints: the sensor profile registered with `prelude-admin register`. */
  agentId?: string | undefined;
  analyzerId?: string | undefined;
}

export interface PreludeDeps {
  outbound: Outbound;
  timeoutMs: number;
  pythonPath?: string | undefined;
}

/**
 * Two transports, chosen by the endpoint's scheme:
 * - `prelude://manager:4690`: native delivery to prelude-manager through the libprelude bridge, with the
 *   sensor profile named by credentials.agentId;
 * - `https://…`: RFC 4765 IDMEF XML POSTed to an IDMEF collector, `Authorization: Bearer <apiKey>`.
 */
export function createPreludeSink(endpoint: string, creds: PreludeCredentials, deps: PreludeDeps): Sink {
  const idmef: IdmefOptions = { analyzerId: creds.analyzerId || creds.agentId || 'parapet' };
  const url = new URL(endpoint);
  if (url.protocol === 'prelude:') return createNativePreludeSink(url, creds, idmef, deps);
  return createHttpIdmefSink(endpoint, creds, idmef, deps.outbound);
}

function createHttpIdmefSink(
  endpoint: string,
  creds: PreludeCredentials,
  idmef: IdmefOptions,
  outbound: Outbound,
): Sink {
  const sendOnce = async (batch: readonly SiemEvent[]): Promise<SinkResult> => {
    const headers: Record<string, string> = { 'content-type': 'application/xml; charset=utf-8' };
    if (creds.apiKey) headers['authorization'] = `Bearer ${creds.apiKey}`;
    try {
      const res = await outbound.request(endpoint, { method: 'POST', headers, body: idmefXml(batch, idmef) });
      return resultFromStatus(res);
    } catch (err) {
      return resultFromError(err);
    }
  };
  return {
    platform: 'PRELUDE',
    async send(events) {
      const parts: [SiemEvent[], SinkResult][] = [];
      for (const c of chunkBySize(events, () => 1, Infinity, 200))
        parts.push([c, await sendSplittingOn413(c, sendOnce)]);
      return mergeResults(parts);
    },
    async close() {},
  };
}

interface Pending {
  resolve: (line: string) => void;
}

function createNativePreludeSink(
  url: URL,
  creds: PreludeCredentials,
  idmef: IdmefOptions,
  deps: PreludeDeps,
): Sink {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port === '' ? 4690 : Number(url.port);
  const profile = creds.agentId;
  let child: ChildProcessWithoutNullStreams | null = null;
  let starting: Promise<ChildProcessWithoutNullStreams> | null = null;
  const waiting = new Map<string, Pending[]>();
  let stderrTail = '';

  /** The bridge connects by itself, so the address is resolved and checked here and passed as an IP. */
  const resolveManager = (): Promise<string> => {
    if (isIP(host) !== 0) {
      const reason = deps.outbound.policy.check(host, host);
      return reason === null
        ? Promise.resolve(host)
        : Promise.reject(new OutboundError('ssrf_blocked', reason));
    }
    return new Promise((resolve, reject) => {
      deps.outbound.lookup(host, { all: true }, (err, addrs) => {
        if (err) reject(err);
        else if (Array.isArray(addrs)) resolve((addrs as LookupAddress[])[0]!.address);
        else resolve(addrs);
      });
    });
  };

  const failAll = (reason: string) => {
    for (const list of waiting.values()) for (const p of list) p.resolve(`err ? ${reason}`);
    waiting.clear();
  };

  const start = async (): Promise<ChildProcessWithoutNullStreams> => {
    if (child !== null && child.exitCode === null) return child;
    if (starting !== null) return starting;
    starting = (async () => {
      if (!profile)
        throw new OutboundError(
          'invalid_url',
          'credentials.agentId (the prelude sensor profile) is required',
        );
      const ip = await resolveManager();
      const addr = isIP(ip) === 6 ? `[${ip}]:${port}` : `${ip}:${port}`;
      const proc = spawn(
        deps.pythonPath ?? '/usr/bin/python3',
        ['-u', '-c', PRELUDE_BRIDGE_SOURCE, profile, '--prelude', '--server-addr', addr],
        { stdio: ['pipe', 'pipe', 'pipe'] },
      );
      proc.stderr.on('data', (d: Buffer) => {
        stderrTail = (stderrTail + d.toString('utf8')).slice(-600);
      });
      const lines = createInterface({ input: proc.stdout });
      return await new Promise<ChildProcessWithoutNullStreams>((resolve, reject) => {
        const timer = setTimeout(() => {
          proc.kill();
          reject(new OutboundError('timeout', 'prelude bridge did not start'));
        }, deps.timeoutMs);
        proc.once('error', (err) => {
          clearTimeout(timer);
          reject(new OutboundError('connect_failed', `cannot run the prelude bridge: ${err.message}`));
        });
        proc.once('exit', (code) => {
          clearTimeout(timer);
          if (child === proc) child = null;
          failAll(`bridge exited (${code})`);
          reject(
            new OutboundError('connect_failed', `prelude bridge exited with ${code}: ${stderrTail.trim()}`),
          );
        });
        lines.on('line', (line) => {
          if (line === 'ready') {
            clearTimeout(timer);
            child = proc;
            resolve(proc);
            return;
          }
          const id = line.split(' ')[1] ?? '?';
          const list = waiting.get(id);
          const next = list?.shift();
          if (list !== undefined && list.length === 0) waiting.delete(id);
          next?.resolve(line);
        });
      });
    })().finally(() => {
      starting = null;
    });
    return starting;
  };

  return {
    platform: 'PRELUDE',
    async send(events) {
      if (events.length === 0) return { ok: true, retryable: false };
      let proc: ChildProcessWithoutNullStreams;
      try {
        proc = await start();
      } catch (err) {
        return resultFromError(err);
      }
      const answers = events.map(
        (ev) =>
          new Promise<string>((resolve) => {
            const list = waiting.get(ev.id) ?? [];
            list.push({ resolve });
            waiting.set(ev.id, list);
          }),
      );
      proc.stdin.write(
        events.map((ev) => `${JSON.stringify({ id: ev.id, idmef: idmefJson(ev, idmef) })}\n`).join(''),
      );
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), deps.timeoutMs);
      });
      const result = await Promise.race([Promise.all(answers), timeout]);
      clearTimeout(timer);
      if (result === 'timeout') {
        proc.kill();
        return {
          ok: false,
          retryable: true,
          reason: 'transient',
          error: 'prelude bridge did not answer in time',
        };
      }
      const rejected = result
        .map((line, i) => ({ line, id: events[i]!.id }))
        .filter((x) => !x.line.startsWith('ok '))
        .map((x) => ({ id: x.id, retryable: x.line.includes('bridge exited'), error: x.line.slice(0, 300) }));
      if (rejected.length === 0) return { ok: true, retryable: false };
      return {
        ok: false,
        retryable: rejected.some((r) => r.retryable),
        reason: rejected.some((r) => r.retryable) ? 'transient' : 'permanent',
        error: rejected[0]!.error,
        rejected,
      };
    },
    async close() {
      const proc = child;
      child = null;
      if (proc !== null && proc.exitCode === null) {
        await new Promise<void>((resolve) => {
          proc.once('exit', () => resolve());
          // Closing stdin lets the bridge finish its loop and libprelude flush before exiting.
          proc.stdin.end();
          setTimeout(() => proc.kill(), 3000).unref();
        });
      }
    },
  };
}
