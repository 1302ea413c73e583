import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTestPki, type TestPki } from './pki.js';
import { freeTcpPort, freeUdpPort, waitForTcp } from './ports.js';
import { requireBinary } from './require-binary.js';

/** One message as rsyslog parsed it (see the template below). */
export interface ReceivedSyslog {
  input: 'udp' | 'tcp' | 'tls';
  pri: string;
  version: string;
  timestamp: string;
  hostname: string;
  appname: string;
  procid: string;
  msgid: string;
  sd: string;
  msg: string;
  raw: string;
}

export interface RsyslogReceiver {
  udpPort: number;
  tcpPort: number;
  tlsPort: number;
  pki: TestPki;
  dir: string;
  received(): ReceivedSyslog[];
  /** Waits until at least `count` messages matching `filter` were written, then returns them. */
  waitFor(
    count: number,
    filter?: (m: ReceivedSyslog) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedSyslog[]>;
  /** Cheap variant for large volumes: waits until the output file holds `count` lines, without parsing them. */
  waitForLines(count: number, timeoutMs?: number): Promise<number>;
  /** Stops rsyslogd only (ports free, output kept), to test how senders handle a receiver outage. */
  stopDaemon(): Promise<void>;
  /** Starts rsyslogd again with the same ports and output file. */
  startDaemon(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A private rsyslogd on high loopback ports: UDP, plain TCP (imptcp, octet counting or LF framing) and TLS
 * (imtcp + gtls, RFC 5425) with a throw-away CA. It writes each parsed message as one JSON line so tests
 * can assert on PRI, header fields, structured data and MSG exactly as a real collector sees them.
 */
export async function startRsyslog(): Promise<RsyslogReceiver> {
  const rsyslogd = requireBinary('rsyslogd');
  const gtls = [
    '/usr/lib/x86_64-linux-gnu/rsyslog/lmnsd_gtls.so',
    '/usr/lib/aarch64-linux-gnu/rsyslog/lmnsd_gtls.so',
  ];
  if (!gtls.some((p) => existsSync(p))) {
    throw new Error(
      'rsyslog-gnutls is not installed: run scripts/ensure-system-packages.sh (as root; npm test runs it first)',
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'parapet-rsyslog-'));
  mkdirSync(join(dir, 'work'));
  const pki = makeTestPki(join(dir, 'pki'));
  const [udpPort, tcpPort, tlsPort] = [await freeUdpPort(), await freeTcpPort(), await freeTcpPort()];
  const out = join(dir, 'received.jsonl');
  const conf = `
global(workDirectory="${dir}/work" maxMessageSize="64k" parser.escapeControlCharactersOnReceive="off"
  DefaultNetstreamDriver="gtls"
  DefaultNetstreamDriverCAFile="${pki.caFile}"
  DefaultNetstreamDriverCertFile="${pki.certFile}"
  DefaultNetstreamDriverKeyFile="${pki.keyFile}")
module(load="imudp")
module(load="imptcp")
module(load="imtcp" StreamDriver.Name="gtls" StreamDriver.Mode="1" StreamDriver.AuthMode="anon")
template(name="parsed" type="list" option.jsonf="on") {
  property(outname="input" name="inputname" format="jsonf")
  property(outname="pri" name="pri" format="jsonf")
  property(outname="version" name="protocol-version" format="jsonf")
  property(outname="timestamp" name="timereported" dateFormat="rfc3339" format="jsonf")
  property(outname="hostname" name="hostname" format="jsonf")
  property(outname="appname" name="app-name" format="jsonf")
  property(outname="procid" name="procid" format="jsonf")
  property(outname="msgid" name="msgid" format="jsonf")
  property(outname="sd" name="structured-data" format="jsonf")
  property(outname="msg" name="msg" format="jsonf")
  property(outname="raw" name="rawmsg" format="jsonf")
}
ruleset(name="toFile") { action(type="omfile" file="${out}" template="parsed" flushOnTXEnd="on" asyncWriting="off") }
input(type="imudp" address="127.0.0.1" port="${udpPort}" name="udp" ruleset="toFile")
input(type="imptcp" address="127.0.0.1" port="${tcpPort}" name="tcp" ruleset="toFile")
input(type="imtcp" address="127.0.0.1" port="${tlsPort}" name="tls" ruleset="toFile")
`;
  const confFile = join(dir, 'rsyslog.conf');
  writeFileSync(confFile, conf);
  try {
    execFileSync(rsyslogd, ['-N1', '-f', confFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as { stderr?: Buffer };
    throw new Error(`rsyslog rejected the test configuration: ${e.stderr?.toString() ?? String(err)}`);
  }
  let stderr = '';
  let proc: ChildProcess | null = null;
  const alive = () => proc !== null && proc.exitCode === null && proc.signalCode === null;
  // A test process that ends without calling stop() must not leave a receiver behind.
  const reap = () => {
    if (alive()) proc?.kill('SIGKILL');
  };
  process.once('exit', reap);
  const startDaemon = async () => {
    const p = spawn(rsyslogd, ['-n', '-f', confFile, '-i', join(dir, 'rsyslogd.pid')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    proc = p;
    p.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-2000);
    });
    try {
      await waitForTcp(tcpPort, 10_000, alive);
      await waitForTcp(tlsPort, 10_000, alive);
    } catch (err) {
      p.kill('SIGKILL');
      throw new Error(`rsyslogd did not start: ${(err as Error).message}; stderr: ${stderr}`);
    }
  };
  const stopDaemon = async () => {
    const p = proc;
    if (p !== null && alive()) {
      await new Promise<void>((resolve) => {
        p.once('exit', () => resolve());
        p.kill('SIGTERM');
        setTimeout(() => p.kill('SIGKILL'), 3000).unref();
      });
    }
    proc = null;
  };
  await startDaemon();

  const received = (): ReceivedSyslog[] => {
    if (!existsSync(out)) return [];
    // rsyslog may be half-way through writing the last line: only lines ended by a newline are complete.
    const lines = readFileSync(out, 'utf8').split('\n');
    lines.pop();
    return lines.filter((l) => l !== '').map((l) => JSON.parse(l) as ReceivedSyslog);
  };

  return {
    udpPort,
    tcpPort,
    tlsPort,
    pki,
    dir,
    received,
    async waitFor(count, filter = () => true, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const got = received().filter(filter);
        if (got.length >= count) return got;
        if (Date.now() > deadline) {
          throw new Error(`rsyslog received ${got.length} of ${count} expected messages; stderr: ${stderr}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async waitForLines(count, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        let lines = 0;
        if (existsSync(out)) {
          const buf = readFileSync(out);
          for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) lines++;
        }
        if (lines >= count) return lines;
        if (Date.now() > deadline)
          throw new Error(`rsyslog wrote ${lines} of ${count} expected lines; stderr: ${stderr}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    stopDaemon,
    startDaemon,
    async stop() {
      process.off('exit', reap);
      await stopDaemon();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
