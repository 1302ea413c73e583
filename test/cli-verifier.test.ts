import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

// `parapet verifier …` as an administrator runs it: the keys `init` and `key create` make are the ones the
// server started on the same data folder accepts, and a revoked one it refuses.
const BIN = fileURLToPath(new URL('../bin/parapet', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'parapet-cli-verifier-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function env(): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    VERIFIER_PORT: '0',
    PARAPET_VERIFIER_DATA_DIR: join(dir, 'verifier'),
  };
  for (const k of [
    'PARAPET_VERIFIER_DATABASE_URL',
    'PARAPET_VERIFIER_MASTER_KEY',
    'PARAPET_VERIFIER_LICENSE',
    'DATABASE_URL',
  ])
    delete e[k];
  return e;
}

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, 'verifier', ...args], {
    cwd: dir,
    env: env(),
    encoding: 'utf8',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('parapet verifier (command line)', () => {
  const secrets: Record<string, string> = {};
  let revokedId = '';

  it('init makes an administrator key, key create a user key; list shows prefixes only; revoke', () => {
    const init = cli('init', '--json');
    assert.equal(init.code, 0, init.stderr);
    const admin = JSON.parse(init.stdout) as { id: string; role: string; secret: string };
    assert.equal(admin.role, 'admin');
    assert.match(admin.secret, /^vf_live_\w{40}$/);
    secrets['admin'] = admin.secret;

    const user = JSON.parse(cli('key', 'create', '--role', 'user', '--name', 'chat bot', '--json').stdout);
    assert.equal(user.role, 'user');
    secrets['user'] = user.secret;
    const other = JSON.parse(cli('key', 'create', '--json').stdout);
    assert.equal(other.role, 'user', 'user is the default role');
    secrets['revoked'] = other.secret;
    revokedId = other.id;

    const bad = cli('key', 'create', '--role', 'root');
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /--role must be admin or user/);

    const revoke = cli('key', 'revoke', '--id', revokedId);
    assert.equal(revoke.code, 0, revoke.stderr);
    assert.notEqual(cli('key', 'revoke', '--id', revokedId).code, 0, 'a key is revoked once');

    const list = cli('key', 'list');
    assert.equal(list.code, 0, list.stderr);
    for (const s of Object.values(secrets)) {
      assert.ok(!list.stdout.includes(s), 'no secret is listed');
      assert.ok(list.stdout.includes(`${s.slice(0, 12)}…`), 'each key by its prefix');
    }
    assert.match(list.stdout, new RegExp(`${revokedId} .*revoked`));
  });

  it('register accepts only the cloud SSH ports 22, 443, 2222 and 8022', () => {
    const r = cli(
      'register',
      '--host',
      '127.0.0.1',
      '--port',
      '2200',
      '--user',
      'verifier',
      '--api-host',
      '127.0.0.1',
      '--api-port',
      '3000',
    );
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /--port must be one of 22, 443, 2222, 8022/);
  });

  it('the server on the same data folder accepts those keys, and not the revoked one', async () => {
    const child = spawn(process.execPath, [BIN, 'verifier'], { cwd: dir, env: env() });
    let output = '';
    child.stdout.on('data', (b) => (output += b.toString()));
    child.stderr.on('data', (b) => (output += b.toString()));
    try {
      const deadline = Date.now() + 60_000;
      while (!/listening on \S+:(\d+)/.test(output)) {
        if (Date.now() > deadline || child.exitCode !== null)
          throw new Error(`the verifier did not start:\n${output}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const port = /listening on \S+:(\d+)/.exec(output)![1];
      const score = (key: string) =>
        fetch(`http://127.0.0.1:${port}/api/score`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal((await score(secrets['admin']!)).status, 200);
      const res = await score(secrets['user']!);
      assert.equal(res.status, 200);
      assert.deepEqual(((await res.json()) as { sources: unknown }).sources, { connected: 0, validated: 0 });
      assert.equal((await score(secrets['revoked']!)).status, 401);
      const add = await fetch(`http://127.0.0.1:${port}/api/sources`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secrets['user']}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'file', url: '/nonexistent.txt' }),
      });
      assert.equal(add.status, 403, 'a user key cannot add sources');
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  });
});
