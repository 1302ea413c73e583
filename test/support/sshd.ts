import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import ssh2 from 'ssh2';
import { fingerprint } from '../../src/modules/verifier/index.js';

/**
 * A real OpenSSH server (Debian's openssh-server) on a loopback port, configured as the cloud side of the
 * verifier's tunnel is documented: keys only, no shell, no TTY, forwarding only to `permitOpen`.
 */
export interface TestSshd {
  port: number;
  user: string;
  hostKeyFingerprint: string;
  /** Replaces authorized_keys (sshd reads it on every connection). */
  authorize(lines: string[]): void;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

async function waitForPort(port: number, child: ChildProcess, stderr: () => string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`sshd exited: ${stderr()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const sock = net.connect(port, '127.0.0.1');
      sock.once('connect', () => {
        sock.destroy();
        resolve(true);
      });
      sock.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`sshd did not listen: ${stderr()}`);
}

export async function startSshd(permitOpen: string): Promise<TestSshd> {
  const dir = mkdtempSync(join(tmpdir(), 'parapet-sshd-'));
  // sshd wants its privilege separation directory (created by the service unit, which tests do not run).
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const host = ssh2.utils.generateKeyPairSync('ed25519');
  writeFileSync(join(dir, 'host_key'), host.private, { mode: 0o600 });
  writeFileSync(join(dir, 'authorized_keys'), '', { mode: 0o600 });
  const port = await freePort();
  const user = userInfo().username;
  writeFileSync(
    join(dir, 'sshd_config'),
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(dir, 'host_key')}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      `AllowUsers ${user}`,
      'PermitRootLogin prohibit-password',
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'UsePAM no',
      'StrictModes no',
      'AllowTcpForwarding local',
      `PermitOpen ${permitOpen}`,
      'PermitTTY no',
      'X11Forwarding no',
      'AllowAgentForwarding no',
      'AllowStreamLocalForwarding no',
      'PermitTunnel no',
      'GatewayPorts no',
      'ForceCommand /bin/false',
      'LogLevel ERROR',
      '',
    ].join('\n'),
  );
  let stderr = '';
  const child = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', join(dir, 'sshd_config')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  await waitForPort(port, child, () => stderr);
  const blob = ssh2.utils.parseKey(host.public);
  if (blob instanceof Error) throw blob;
  return {
    port,
    user,
    hostKeyFingerprint: fingerprint((Array.isArray(blob) ? blob[0]! : blob).getPublicSSH()),
    authorize(lines) {
      writeFileSync(join(dir, 'authorized_keys'), `${lines.join('\n')}\n`, { mode: 0o600 });
    },
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
