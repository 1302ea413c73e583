import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/parapet', import.meta.url));
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'parapet-cli-'));
  dirs.push(d);
  return d;
}

// The CLI runs against the embedded SQLite default: these tests are about the command line itself.
function cliEnv(cwd: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'silent',
    PORT: '0',
    // serve also starts the network proxy: on an ephemeral port too
    PROXY_PORT: '0',
    PARAPET_DATA_DIR: join(cwd, 'data'),
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.PARAPET_MASTER_KEY;
  return env;
}

function cli(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env: cliEnv(cwd), encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function startServe(cwd: string): Promise<{ child: ChildProcess; output: string; url: string }> {
  const child = spawn(process.execPath, [BIN, 'serve'], { cwd, env: cliEnv(cwd) });
  let output = '';
  child.stdout!.on('data', (b) => (output += b.toString()));
  child.stderr!.on('data', (b) => (output += b.toString()));
  const deadline = Date.now() + 60_000;
  while (!/listening on (http:\/\/\S+)/.test(output)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`serve did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, output, url: /listening on (http:\/\/\S+)/.exec(output)![1]! };
}

async function stop(child: ChildProcess): Promise<number | null> {
  child.kill('SIGTERM');
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('parapet serve on an empty data folder', () => {
  it('bootstraps once, prints the secrets once, serves, and keeps the master key private', async () => {
    const cwd = tempDir();
    const first = await startServe(cwd);
    try {
      assert.match(first.output, /shown once/);
      const password = /password (\S+)/.exec(first.output)?.[1];
      const al = /(al_live_[0-9A-Za-z]{43})/.exec(first.output)?.[1];
      const sw = /(sw_live_[0-9A-Za-z]{43})/.exec(first.output)?.[1];
      assert.ok(password && al && sw, first.output);

      const health = await fetch(`${first.url}/api/health`);
      assert.equal(health.status, 200);
      const h = (await health.json()) as { status: string; database: { reachable: boolean } };
      assert.equal(h.status, 'ok');
      assert.equal(h.database.reachable, true);

      const stats = await fetch(`${first.url}/api/v1/stats`, { headers: { authorization: `Bearer ${al}` } });
      assert.equal(stats.status, 200);

      const login = await fetch(`${first.url}/api/dashboard/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'owner@parapet.local', password }),
      });
      assert.equal(login.status, 200);

      const openapi = (await (await fetch(`${first.url}/api/openapi.json`)).json()) as {
        paths: Record<string, unknown>;
      };
      assert.ok(openapi.paths['/api/v1/stats']);
      assert.equal((await fetch(`${first.url}/api/docs`)).status < 400, true);

      assert.equal(statSync(join(cwd, 'data', 'master.key')).mode & 0o777, 0o600);
    } finally {
      assert.equal(await stop(first.child), 0);
    }

    const second = await startServe(cwd);
    try {
      assert.doesNotMatch(second.output, /shown once|_live_|password/);
    } finally {
      await stop(second.child);
    }
  });
});

describe('administration commands', () => {
  it('creates an organization, a user and keys, as text and as JSON', () => {
    const cwd = tempDir();
    const org = cli(cwd, 'org', 'create', '--name', 'Acme', '--plan', 'pro', '--json');
    assert.equal(org.code, 0, org.stderr);
    const orgId = JSON.parse(org.stdout).id as string;
    assert.match(orgId, /^org_/);

    const user = cli(
      cwd,
      'user',
      'create',
      '--org',
      orgId,
      '--email',
      'ops@acme.test',
      '--role',
      'admin',
      '--json',
    );
    assert.equal(user.code, 0, user.stderr);
    assert.ok(JSON.parse(user.stdout).password.length >= 12);

    const key = cli(cwd, 'key', 'create', '--org', orgId, '--kind', 'sw', '--name', 'bot');
    assert.equal(key.code, 0, key.stderr);
    assert.match(key.stdout, /sw_live_[0-9A-Za-z]{43}/);

    const list = JSON.parse(cli(cwd, 'key', 'list', '--org', orgId, '--json').stdout) as {
      keys: Array<{ id: string }>;
    };
    assert.equal(list.keys.length, 1);
    assert.doesNotMatch(JSON.stringify(list), /sw_live_[0-9A-Za-z]{43}/);

    const revoke = cli(cwd, 'key', 'revoke', '--org', orgId, '--id', list.keys[0]!.id, '--json');
    assert.equal(revoke.code, 0, revoke.stderr);
    assert.equal(JSON.parse(revoke.stdout).key.status, 'revoked');

    const migrate = cli(cwd, 'migrate');
    assert.equal(migrate.code, 0);
    assert.match(migrate.stdout, /up to date/);
  });

  it('exits non-zero with a clear message on bad arguments', () => {
    const cwd = tempDir();
    const cases: Array<[string[], RegExp]> = [
      [['frobnicate'], /unknown command/],
      [['org', 'create'], /--name is required/],
      [['org', 'create', '--name', 'X', '--plan', 'gold'], /--plan must be one of/],
      [['key', 'create', '--org', 'org_missing', '--kind', 'al'], /does not exist/],
      [['key', 'create', '--org', 'org_x', '--kind', 'zz'], /--kind must be al or sw/],
      [['org', 'create', '--name', 'X', '--bogus'], /Unknown option/],
    ];
    for (const [args, pattern] of cases) {
      const r = cli(cwd, ...args);
      assert.notEqual(r.code, 0, args.join(' '));
      assert.match(r.stderr, pattern, args.join(' '));
    }
  });
});
