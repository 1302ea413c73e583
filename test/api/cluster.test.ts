import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { dropSchema } from '../support/harness.js';

// `parapet serve` with PARAPET_HTTP_WORKERS=2, as users run it: a primary and two API processes on one port.
const BIN = fileURLToPath(new URL('../../bin/parapet', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'parapet-cluster-'));
const schema = `t_${randomBytes(6).toString('hex')}`;
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PORT: '0',
  // serve also starts the network proxy: on an ephemeral port too
  PROXY_PORT: '0',
  LOG_LEVEL: 'info',
  PARAPET_DATA_DIR: dir,
  PARAPET_HTTP_WORKERS: '2',
  PARAPET_MASTER_KEY: randomBytes(32).toString('hex'),
  ...(process.env.TEST_DATABASE_URL
    ? { DATABASE_URL: process.env.TEST_DATABASE_URL, DATABASE_SCHEMA: schema }
    : {}),
  ...(process.env.TEST_REDIS_URL
    ? { REDIS_URL: process.env.TEST_REDIS_URL, REDIS_PREFIX: `test:${schema}:` }
    : {}),
};
if (!process.env.TEST_DATABASE_URL) delete env.DATABASE_URL;
if (!process.env.TEST_REDIS_URL) delete env.REDIS_URL;

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** One request on a connection of its own, so the cluster hands each to the next process in turn. */
function call(url: string, path: string, key: string, body?: unknown): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      {
        method: body === undefined ? 'GET' : 'POST',
        agent: false,
        headers: {
          authorization: `Bearer ${key}`,
          connection: 'close',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (b) => (text += b));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text ? JSON.parse(text) : null,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

describe('serve with PARAPET_HTTP_WORKERS=2', () => {
  let child: ChildProcess;
  let output = '';
  let url = '';
  let al = '';
  const exited = () => new Promise<number | null>((r) => child.once('exit', (code) => r(code)));

  before(async () => {
    child = spawn(process.execPath, [BIN, 'serve'], { env });
    child.stdout!.on('data', (b) => (output += b.toString()));
    child.stderr!.on('data', (b) => (output += b.toString()));
    const deadline = Date.now() + 90_000;
    while (!/API listening on (http:\/\/\S+)/.test(output)) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`serve did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    url = /API listening on (http:\/\/\S+)/.exec(output)![1]!;
    // The banner of several processes names the dashboard as serve's single-process banner does.
    assert.match(output, /API listening on \S+ \(dashboard at http:\/\/\S+\/, docs at /);
    // A free-plan organization (10 requests a minute), made with the CLI on the same database.
    const org = spawnSync(
      process.execPath,
      [BIN, 'org', 'create', '--name', 'Free', '--plan', 'free', '--json'],
      {
        env: { ...env, LOG_LEVEL: 'silent' },
        encoding: 'utf8',
      },
    );
    const orgId = /"(org_[0-9A-Za-z]+)"/.exec(org.stdout)?.[1];
    assert.ok(orgId, org.stdout + org.stderr);
    const key = spawnSync(
      process.execPath,
      [BIN, 'key', 'create', '--org', orgId, '--kind', 'al', '--json'],
      {
        env: { ...env, LOG_LEVEL: 'silent' },
        encoding: 'utf8',
      },
    );
    al = /(al_live_[0-9A-Za-z]{43})/.exec(key.stdout)?.[1] ?? '';
    assert.ok(al, key.stdout + key.stderr);
  });

  after(async () => {
    if (child.exitCode === null) {
      child.kill('SIGKILL');
      await exited();
    }
    rmSync(dir, { recursive: true, force: true });
    if (process.env.TEST_DATABASE_URL) await dropSchema(process.env.TEST_DATABASE_URL, schema);
  });

  it('prints the first-start secrets once, with the number of processes', () => {
    assert.equal(output.match(/first start: these secrets are shown once/g)?.length, 1);
    assert.match(output, /2 processes\)/);
  });

  it('serves the network proxy from both API processes on one port', async () => {
    const proxy = /network proxy listening on (http:\/\/\S+?)\/proxy/.exec(output)?.[1];
    assert.ok(proxy, output);
    const owner = /(al_live_[0-9A-Za-z]{43})/.exec(output)![1]!;
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const r = await new Promise<{ status: number; body: any }>((resolve, reject) => {
        const req = request(
          `${proxy}/proxy/nowhere/v1/chat/completions`,
          { method: 'GET', agent: false, headers: { 'x-service-key': owner, connection: 'close' } },
          (res) => {
            let text = '';
            res.on('data', (b) => (text += b));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
          },
        );
        req.on('error', reject);
        req.end();
      });
      assert.equal(r.status, 404);
      assert.equal(r.body.error, 'not_found');
      assert.match(r.body.message, /Unknown provider/);
    }
    // Request lines name the route's pattern, never the path as sent (docs/deployment.md "Logs"); no other
    // request has reached the network proxy's route yet.
    for (const m of output.matchAll(/"pid":(\d+)[^\n]*"url":"\/proxy\/:provider\/\*"/g)) seen.add(m[1]!);
    assert.equal(seen.size, 2, 'proxied requests were spread over the two API processes');
  });

  it('counts one rate limit for the organization across both processes', async () => {
    // The windows are whole minutes of the clock (rate-windows.ts), which the child processes share with
    // this one: twelve requests begun in a minute's last seconds ran into the next window, which admitted
    // an eleventh (seen once in a full run). They start at the beginning of a minute instead.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 30_000) await new Promise((ok) => setTimeout(ok, 60_000 - intoMinute + 50));
    const remaining: number[] = [];
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await call(url, '/api/v1/detect', al, { text: 'Summarise the meeting notes, please.' });
      statuses.push(r.status);
      remaining.push(Number(r.headers['x-ratelimit-remaining']));
    }
    assert.deepEqual(statuses, [...Array(10).fill(200), 429, 429]);
    assert.deepEqual(remaining, [9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0]);
    // Both processes answered: each logs its requests with its own pid.
    const pids = new Set(
      [...output.matchAll(/"pid":(\d+)[^\n]*"url":"\/api\/v1\/detect"/g)].map((m) => m[1]),
    );
    assert.equal(pids.size, 2, 'requests were spread over the two API processes');
  });

  it('rehydrates in one process a vault session written by the other', async () => {
    const analyzed = await call(url, '/api/v1/dlp/analyze', al, {
      text: 'Write to anna.meier@example.com about invoice 42.',
    });
    assert.equal(analyzed.status, 429, 'the free organization is out of requests this minute');
    // The bootstrap organization is enterprise: no per-minute limit.
    const owner = /(al_live_[0-9A-Za-z]{43})/.exec(output)![1]!;
    const a = await call(url, '/api/v1/dlp/analyze', owner, {
      text: 'Write to anna.meier@example.com about invoice 42.',
    });
    assert.equal(a.status, 200);
    const token = a.body.tokens[0].token as string;
    for (let i = 0; i < 4; i++) {
      const r = await call(url, '/api/v1/dlp/rehydrate', owner, {
        sessionId: a.body.sessionId,
        text: `Sent to ${token}.`,
      });
      assert.equal(r.status, 200);
      assert.equal(r.body.rehydrated, 'Sent to anna.meier@example.com.');
    }
  });

  it('replaces an API process that dies, and stops cleanly on SIGTERM', async () => {
    const pids = [...new Set([...output.matchAll(/"pid":(\d+)[^\n]*Server listening/g)].map((m) => m[1]))];
    assert.equal(pids.length, 2);
    // Each process listens twice: the API and the network proxy.
    const listened = output.match(/Server listening/g)?.length ?? 0;
    assert.equal(listened, 4);
    process.kill(Number(pids[0]), 'SIGKILL');
    const deadline = Date.now() + 60_000;
    while ((output.match(/Server listening/g)?.length ?? 0) < listened + 2) {
      assert.ok(Date.now() < deadline, `no replacement process:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const owner = /(al_live_[0-9A-Za-z]{43})/.exec(output)![1]!;
    for (let i = 0; i < 4; i++) {
      const r = await call(url, '/api/v1/detect', owner, { text: 'Hello there' });
      assert.equal(r.status, 200);
    }
    const code = exited();
    child.kill('SIGTERM');
    assert.equal(await code, 0);
    for (const pid of [...output.matchAll(/"pid":(\d+)[^\n]*Server listening/g)].map((m) => Number(m[1]))) {
      assert.throws(() => process.kill(pid, 0), 'no API process is left behind');
    }
  });
});

describe('serve with PARAPET_HTTP_WORKERS=2 on a port that is taken', () => {
  it('exits with an error instead of waiting for API processes that cannot listen', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as AddressInfo).port;
    const busyDir = mkdtempSync(join(tmpdir(), 'parapet-cluster-busy-'));
    const busySchema = `t_${randomBytes(6).toString('hex')}`;
    const child = spawn(process.execPath, [BIN, 'serve'], {
      env: {
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
        PARAPET_DATA_DIR: busyDir,
        ...(env.DATABASE_URL ? { DATABASE_SCHEMA: busySchema } : {}),
        ...(env.REDIS_URL ? { REDIS_PREFIX: `test:${busySchema}:` } : {}),
      },
    });
    let output = '';
    child.stdout!.on('data', (b) => (output += b.toString()));
    child.stderr!.on('data', (b) => (output += b.toString()));
    try {
      const code = await new Promise<number | null>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`serve is still running:\n${output}`)), 60_000);
        child.once('exit', (c) => {
          clearTimeout(timer);
          resolve(c);
        });
      });
      assert.notEqual(code, 0, output);
      assert.match(output, /EADDRINUSE/);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await new Promise((r) => taken.close(r));
      rmSync(busyDir, { recursive: true, force: true });
      if (process.env.TEST_DATABASE_URL) await dropSchema(process.env.TEST_DATABASE_URL, busySchema);
    }
  });
});
