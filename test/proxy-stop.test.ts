import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type FakeProviderServer, startFakeProviderServer } from './fakes/provider-server.js';

// A network proxy stopped (a rolling deployment's SIGTERM) while a model streams its answer: the stream
// finishes within PARAPET_STOP_GRACE_SECONDS, and one cut by the end of it is said so on stderr. A fixed
// 10-second grace cut longer answers (reasoning models stream for minutes) with nothing in our logs.

const BIN = fileURLToPath(new URL('../bin/parapet', import.meta.url));
let cwd: string;
let fake: FakeProviderServer;
let key: string;

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'silent',
    PROXY_PORT: '0',
    PARAPET_DATA_DIR: join(cwd, 'data'),
    PARAPET_COMPUTE_THREADS: '0',
    PARAPET_ALLOW_PRIVATE_TARGETS: 'true',
    PARAPET_PROVIDER_OPENAI_BASE_URL: fake.baseUrls.openai,
    ...extra,
  };
  delete e.DATABASE_URL;
  delete e.REDIS_URL;
  delete e.PARAPET_MASTER_KEY;
  return e;
}

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args, '--json'], { cwd, env: env(), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

before(async () => {
  cwd = mkdtempSync(join(tmpdir(), 'parapet-stop-'));
  // 48 characters in 4-character chunks, one every 250 ms: about three seconds of stream.
  fake = await startFakeProviderServer({ chunkDelayMs: 250, chunkSize: 4 });
  const org = cli('org', 'create', '--name', 'Stop', '--plan', 'enterprise');
  key = cli('key', 'create', '--org', org.id, '--kind', 'al').secret;
});
after(async () => {
  await fake.close();
  rmSync(cwd, { recursive: true, force: true });
});

async function streamThroughStoppingProxy(graceSeconds: string) {
  const child: ChildProcess = spawn(process.execPath, [BIN, 'proxy'], {
    cwd,
    env: env({ PARAPET_STOP_GRACE_SECONDS: graceSeconds }),
  });
  let output = '';
  child.stdout!.on('data', (b) => (output += b.toString()));
  child.stderr!.on('data', (b) => (output += b.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  while (!/listening on (http:\/\/\S+)\/proxy/.test(output)) {
    if (child.exitCode !== null) throw new Error(`proxy did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const base = /listening on (http:\/\/\S+)\/proxy/.exec(output)![1];
  const res = await fetch(`${base}/proxy/openai/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-key': key, authorization: 'Bearer sk-x' },
    body: JSON.stringify({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: 'Write to ada@example.com about the plan today' }],
    }),
  });
  assert.equal(res.status, 200);
  const reader = res.body!.getReader();
  let text = '';
  const first = await reader.read();
  text += Buffer.from(first.value ?? []).toString();
  child.kill('SIGTERM');
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString();
    }
  } catch {
    // the stream was cut
  }
  return { code: await exited, text, output };
}

describe('a network proxy stopped while a model streams', () => {
  it('finishes the stream within PARAPET_STOP_GRACE_SECONDS and exits 0', async () => {
    const r = await streamThroughStoppingProxy('60');
    assert.match(r.text, /data: \[DONE\]/);
    assert.match(r.text, /ada@example\.com|ada@exa/, 'rehydrated for the client');
    assert.equal(r.code, 0, r.output);
  });

  it('cuts it when the grace ends, and says so', async () => {
    const r = await streamThroughStoppingProxy('1');
    assert.doesNotMatch(r.text, /data: \[DONE\]/);
    assert.equal(r.code, 1, r.output);
    assert.match(
      r.output,
      /still closing 1 s after SIGTERM; open requests and streams are cut \(PARAPET_STOP_GRACE_SECONDS\)/,
    );
  });
});
