import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { dropSchema } from '../support/harness.js';
import { createContext } from '../../src/main/context.js';
import { loadConfig } from '../../src/platform/config/index.js';

/**
 * The promise of the outbox, end to end: the real service runs as a child process, commits events while
 * the SIEM answers 503 and the webhook receiver hangs, is SIGKILLed with deliveries in flight, restarts,
 * and afterwards every committed event has reached both destinations (counted against the events table).
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EVENTS = 40;

interface Receiver {
  url: string;
  up: boolean;
  ids: Set<string>;
  requests: number;
  close(): Promise<void>;
}

/** Hangs (webhook) or answers 503 (SIEM) while down; records the event ids it accepts while up. */
async function receiver(kind: 'webhook' | 'siem'): Promise<Receiver> {
  const r: Receiver = { url: '', up: false, ids: new Set(), requests: 0, close: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      r.requests++;
      if (!r.up) {
        if (kind === 'siem') res.writeHead(503).end('down');
        return; // the webhook receiver never answers: the delivery stays in flight
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (kind === 'webhook') r.ids.add(body.id);
      else for (const ev of body.events) r.ids.add(ev.id);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  r.close = async () => {
    server.closeAllConnections();
    await new Promise((ok) => server.close(ok));
  };
  return r;
}

let dataDir: string;
let env: Record<string, string>;
let child: ChildProcess | null = null;
let hook: Receiver;
let siem: Receiver;

function startService(): Promise<{ proc: ChildProcess; url: string }> {
  const proc = spawn(process.execPath, [join(ROOT, 'bin/parapet'), 'serve'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`service did not start: ${out}`)), 30_000);
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve({ proc, url: m[1] });
      }
    });
    proc.stderr!.on('data', (c: Buffer) => {
      out += c.toString();
    });
    proc.on('exit', (code) => reject(new Error(`service exited with ${code}: ${out}`)));
  });
}

async function kill(proc: ChildProcess): Promise<void> {
  const gone = new Promise((ok) => proc.once('exit', ok));
  proc.kill('SIGKILL');
  await gone;
  child = null;
}

async function call(url: string, method: string, path: string, body?: unknown, cookie?: string) {
  const res = await fetch(url + path, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
}

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'parapet-crash-'));
  const schema = `crash_${randomBytes(5).toString('hex')}`;
  env = {
    PORT: '0',
    // serve also starts the network proxy: on an ephemeral port too
    PROXY_PORT: '0',
    HOST: '127.0.0.1',
    PARAPET_DATA_DIR: dataDir,
    PARAPET_MASTER_KEY: randomBytes(32).toString('hex'),
    PARAPET_ALLOW_PRIVATE_TARGETS: 'true',
    PARAPET_RUN_WORKERS: 'true',
    LOG_LEVEL: 'silent',
    ...(process.env.TEST_DATABASE_URL
      ? { DATABASE_URL: process.env.TEST_DATABASE_URL, DATABASE_SCHEMA: schema }
      : {}),
  };
  hook = await receiver('webhook');
  siem = await receiver('siem');
});

after(async () => {
  if (child) await kill(child);
  await hook.close();
  await siem.close();
  if (env['DATABASE_URL'] && env['DATABASE_SCHEMA'])
    await dropSchema(env['DATABASE_URL'], env['DATABASE_SCHEMA']);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('events out across a SIGKILL', () => {
  it('delivers every committed event to the webhook and the SIEM after an outage and a crash', {
    timeout: 180_000,
  }, async () => {
    const setup = await createContext(loadConfig(env));
    const org = await setup.orgs.createOrg({ name: 'Crash Co', plan: 'enterprise' });
    const password = `pw-${randomBytes(12).toString('hex')}`;
    await setup.orgs.createUser({ org, email: 'owner@crash.test', role: 'owner', password });
    await setup.close();

    let svc = await startService();
    const login = await call(svc.url, 'POST', '/api/dashboard/auth/login', {
      email: 'owner@crash.test',
      password,
    });
    assert.equal(login.status, 200);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const wh = await call(
      svc.url,
      'POST',
      '/api/webhooks',
      { url: `${hook.url}/in`, events: ['api_key.created'] },
      cookie,
    );
    assert.equal(wh.status, 201);
    const integ = await call(
      svc.url,
      'POST',
      '/api/saas/siem/integrations',
      {
        platform: 'WEBHOOK',
        name: 'collector',
        eventTypes: ['AUDIT'],
        config: { url: `${siem.url}/events` },
      },
      cookie,
    );
    assert.equal(integ.status, 201);

    // Producers commit events while both destinations are down.
    for (let i = 0; i < EVENTS; i++) {
      const res = await call(svc.url, 'POST', '/api/dashboard/keys', { name: `k${i}`, kind: 'al' }, cookie);
      assert.equal(res.status, 201);
    }
    // Let the workers pick them up: webhook attempts hang in flight, SIEM sends get 503 and open the breaker.
    const deadline = Date.now() + 20_000;
    while ((hook.requests < EVENTS || siem.requests < 1) && Date.now() < deadline) await sleep(50);
    assert.ok(hook.requests > 0 && siem.requests > 0, 'deliveries were attempted before the crash');
    await kill(svc.proc);
    assert.equal(hook.ids.size + siem.ids.size, 0, 'nothing was accepted before the crash');

    hook.up = true;
    siem.up = true;
    svc = await startService();

    const check = await createContext(loadConfig(env), { migrate: false });
    let committed: string[];
    try {
      committed = (
        await check.storage.db
          .selectFrom('events')
          .select('id')
          .where('org_id', '=', org.id)
          .where('type', '=', 'api_key.created')
          .execute()
      ).map((r) => r.id);
    } finally {
      await check.close();
    }
    assert.equal(committed.length, EVENTS);

    const until = Date.now() + 120_000;
    const missing = () => committed.filter((id) => !hook.ids.has(id) || !siem.ids.has(id));
    while (missing().length > 0 && Date.now() < until) await sleep(100);
    assert.deepEqual(missing(), [], 'every committed event reached both destinations');
    assert.equal(hook.ids.size, EVENTS);
    assert.equal(siem.ids.size, EVENTS);
    await kill(svc.proc);
  });
});
