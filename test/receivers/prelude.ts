import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeTcpPort, waitForTcp } from './ports.js';
import { requireBinary } from './require-binary.js';

export interface PreludeReceiver {
  /** host:port the manager listens on, for a `prelude://` endpoint. */
  address: string;
  /** The registered sensor profile to pass as credentials.agentId. */
  sensorProfile: string;
  alertsXml(): string;
  /** Waits until an Alert with this messageid is in the manager's XML output and returns that alert's XML. */
  waitForAlert(messageId: string, timeoutMs?: number): Promise<string>;
  /** Stops only the manager process (profiles and output stay), to test the sensor's failover spool. */
  stopManager(): Promise<void>;
  /** Starts the manager again on the same port and output file. */
  startManager(): Promise<void>;
  stop(): Promise<void>;
}

const INSTALL_HINT = 'run scripts/ensure-system-packages.sh (as root; npm test runs it first)';

/**
 * A private prelude-manager on a high loopback port writing IDMEF XML to a temp file, plus a sensor profile
 * registered with it. libprelude keeps profiles in /etc/prelude/profile and spools in /var/spool/prelude,
 * so the names are unique per run and both are removed by stop().
 */
export async function startPreludeManager(): Promise<PreludeReceiver> {
  const manager = requireBinary('prelude-manager');
  const admin = requireBinary('prelude-admin');
  try {
    execFileSync('/usr/bin/python3', ['-c', 'import prelude'], { stdio: 'ignore' });
  } catch {
    throw new Error(`python3-prelude is not installed: ${INSTALL_HINT}`);
  }
  const suffix = randomBytes(4).toString('hex');
  const mgrProfile = `parapet-test-mgr-${suffix}`;
  const sensorProfile = `parapet-test-sensor-${suffix}`;
  const uid = String(process.getuid?.() ?? 0);
  const gid = String(process.getgid?.() ?? 0);
  const dir = mkdtempSync(join(tmpdir(), 'parapet-prelude-'));
  const alerts = join(dir, 'alerts.xml');
  const [port, regPort] = [await freeTcpPort(), await freeTcpPort()];
  const adminRun = (args: string[]) => execFileSync(admin, args, { stdio: ['ignore', 'pipe', 'pipe'] });

  const children: ChildProcess[] = [];
  const cleanup = () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    for (const p of [sensorProfile, mgrProfile]) {
      try {
        adminRun(['del', p]);
      } catch {
        // profile never created
      }
      rmSync(join('/var/spool/prelude', p), { recursive: true, force: true });
    }
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    adminRun(['add', mgrProfile, '--uid', uid, '--gid', gid]);
    writeFileSync(
      join(dir, 'manager.conf'),
      [
        'include = /etc/prelude/default/global.conf',
        `listen = 127.0.0.1:${port}`,
        '[xmlmod]',
        `logfile = ${alerts}`,
        'format',
        'disable-buffering',
        '',
      ].join('\n'),
    );
    let stderr = '';
    let mgr: ChildProcess | null = null;
    // A test process that ends without calling stop() must not leave a manager or profiles behind.
    process.once('exit', cleanup);
    const startManagerProcess = async () => {
      const proc = spawn(
        manager,
        ['--config', join(dir, 'manager.conf'), '--prelude', '--profile', mgrProfile],
        {
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      children.push(proc);
      proc.stderr?.on('data', (d: Buffer) => {
        stderr = (stderr + d.toString()).slice(-2000);
      });
      mgr = proc;
      await waitForTcp(port, 15_000, () => proc.exitCode === null).catch((err: Error) => {
        throw new Error(`prelude-manager did not start: ${err.message}; ${stderr}`);
      });
    };
    const stopManagerProcess = async () => {
      const proc = mgr;
      mgr = null;
      if (proc !== null && proc.exitCode === null && proc.signalCode === null) {
        await new Promise<void>((resolve) => {
          proc.once('exit', () => resolve());
          proc.kill('SIGTERM');
          setTimeout(() => proc.kill('SIGKILL'), 3000).unref();
        });
      }
    };
    await startManagerProcess();

    const password = randomBytes(12).toString('hex');
    const reg = spawn(
      admin,
      [
        'registration-server',
        mgrProfile,
        `--passwd=${password}`,
        '--keepalive',
        '--no-confirm',
        '--listen',
        `127.0.0.1:${regPort}`,
      ],
      { stdio: 'ignore' },
    );
    children.push(reg);
    await waitForTcp(regPort, 10_000, () => reg.exitCode === null);
    adminRun([
      'register',
      sensorProfile,
      'idmef:w',
      `127.0.0.1:${regPort}`,
      '--uid',
      uid,
      '--gid',
      gid,
      `--passwd=${password}`,
    ]);
    reg.kill('SIGTERM');

    const alertsXml = () => (existsSync(alerts) ? readFileSync(alerts, 'utf8') : '');
    return {
      address: `127.0.0.1:${port}`,
      sensorProfile,
      alertsXml,
      async waitForAlert(messageId, timeoutMs = 15_000) {
        const deadline = Date.now() + timeoutMs;
        const marker = `<Alert messageid="${messageId}">`;
        for (;;) {
          const xml = alertsXml();
          const at = xml.indexOf(marker);
          if (at >= 0) {
            const end = xml.indexOf('</Alert>', at);
            if (end >= 0) return xml.slice(at, end + '</Alert>'.length);
          }
          if (Date.now() > deadline)
            throw new Error(`prelude-manager never wrote alert ${messageId}; ${stderr}`);
          await new Promise((r) => setTimeout(r, 100));
        }
      },
      stopManager: stopManagerProcess,
      startManager: startManagerProcess,
      async stop() {
        await stopManagerProcess();
        process.off('exit', cleanup);
        cleanup();
      },
    };
  } catch (err) {
    cleanup();
    throw err;
  }
}
