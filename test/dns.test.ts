import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import dnsPacket from 'dns-packet';
import { type Context, createContext } from '../src/main/context.js';
import { loadConfig } from '../src/platform/config/index.js';
import { requireBinary } from './receivers/require-binary.js';

/**
 * `parapet dns` as a real process on loopback, queried by dig (bind9-dnsutils) and Node's resolver, with
 * a fake upstream resolver on loopback that answers every A query with UPSTREAM_ADDRESS.
 */
const BIN = fileURLToPath(new URL('../bin/parapet', import.meta.url));
const UPSTREAM_ADDRESS = '192.0.2.7';
const BLOCK_ADDRESS = '198.51.100.9';
const run = promisify(execFile);
const actor = { userId: null, apiKeyId: null, deviceId: null };

let dir: string;
let env: NodeJS.ProcessEnv;
let ctx: Context;
let orgId: string;
let upstream: { port: number; queries: string[]; close(): Promise<void> };
let child: ChildProcess;
let port: number;
const dig = requireBinary('dig');

/** A resolver that answers A queries with UPSTREAM_ADDRESS over UDP and TCP on one port. */
async function fakeUpstream() {
  const queries: string[] = [];
  const reply = (msg: Buffer) => {
    const q = dnsPacket.decode(msg);
    const question = q.questions?.[0];
    queries.push(question?.name ?? '');
    return dnsPacket.encode({
      type: 'response',
      id: q.id ?? 0,
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE,
      questions: q.questions ?? [],
      answers:
        question?.type === 'A'
          ? [{ type: 'A', name: question.name, ttl: 30, class: 'IN', data: UPSTREAM_ADDRESS }]
          : [],
    });
  };
  const tcp = net.createServer((sock) => {
    sock.on('data', (b) => {
      const res = reply(b.subarray(2, 2 + b.readUInt16BE(0)));
      const head = Buffer.alloc(2);
      head.writeUInt16BE(res.length);
      sock.end(Buffer.concat([head, res]));
    });
  });
  await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', () => r()));
  const p = (tcp.address() as net.AddressInfo).port;
  const udp = dgram.createSocket('udp4');
  udp.on('message', (m, rinfo) => udp.send(reply(m), rinfo.port, rinfo.address));
  await new Promise<void>((r) => udp.bind(p, '127.0.0.1', () => r()));
  return {
    port: p,
    queries,
    close: async () => {
      await new Promise<void>((r) => udp.close(() => r()));
      await new Promise<void>((r) => tcp.close(() => r()));
    },
  };
}

const dnsConfig = (blocked: string[]) => ({
  enabled: true,
  mode: 'blocklist' as const,
  blockedDomains: blocked,
  allowedDomains: ['docs.chat.example'],
  blockPage: { enabled: true, message: 'Blocked here.', contactEmail: 'it@example.test' },
  integration: { type: 'dns_forwarder' as const, forwarders: [`127.0.0.1:${upstream.port}`] },
});

async function digShort(name: string, ...extra: string[]): Promise<string> {
  const { stdout } = await run(dig, [
    '@127.0.0.1',
    '-p',
    String(port),
    name,
    'A',
    '+short',
    '+time=3',
    '+tries=1',
    ...extra,
  ]);
  return stdout.trim();
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parapet-dns-'));
  env = {
    ...process.env,
    LOG_LEVEL: 'warn',
    PARAPET_DATA_DIR: dir,
    PARAPET_MASTER_KEY: randomBytes(32).toString('hex'),
    PARAPET_DNS_PORT: '0',
    PARAPET_DNS_BLOCK_ADDRESS: BLOCK_ADDRESS,
    HOST: '127.0.0.1',
  };
  delete env['DATABASE_URL'];
  delete env['REDIS_URL'];
  ctx = await createContext(loadConfig(env as Record<string, string>));
  const org = await ctx.orgs.createOrg({ name: 'DNS', plan: 'business' });
  orgId = org.id;
  upstream = await fakeUpstream();
  await ctx.endpoint.admin.setDnsConfig(org, dnsConfig(['chat.example', '*.assistant.example']), actor);

  child = spawn(process.execPath, [BIN, 'dns', '--org', orgId], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (b) => (output += b.toString()));
  child.stderr?.on('data', (b) => (output += b.toString()));
  const deadline = Date.now() + 60_000;
  while (!/listening on 127\.0\.0\.1:(\d+)/.test(output)) {
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error(`parapet dns did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  port = Number(/listening on 127\.0\.0\.1:(\d+)/.exec(output)?.[1]);
});

after(async () => {
  if (child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
  await upstream.close();
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('parapet dns, a filtering forwarder', () => {
  it('answers blocked names and their subdomains with the block address, over UDP and TCP (dig)', async () => {
    assert.equal(await digShort('chat.example'), BLOCK_ADDRESS);
    assert.equal(await digShort('www.chat.example'), BLOCK_ADDRESS);
    assert.equal(await digShort('api.assistant.example', '+tcp'), BLOCK_ADDRESS);
    assert.equal(await digShort('assistant.example'), BLOCK_ADDRESS);
    assert.ok(!upstream.queries.some((q) => q.endsWith('chat.example') && q !== 'docs.chat.example'));
  });

  it('forwards allowed exceptions and every other name to the upstream, over UDP and TCP', async () => {
    assert.equal(await digShort('docs.chat.example'), UPSTREAM_ADDRESS);
    assert.equal(await digShort('example.org'), UPSTREAM_ADDRESS);
    assert.equal(await digShort('example.net', '+tcp'), UPSTREAM_ADDRESS);
    assert.ok(upstream.queries.includes('docs.chat.example'));
    assert.ok(upstream.queries.includes('example.net'));
  });

  it("answers Node's resolver too, and NODATA for AAAA of a blocked name", async () => {
    const r = new Resolver();
    r.setServers([`127.0.0.1:${port}`]);
    assert.deepEqual(await r.resolve4('x.chat.example'), [BLOCK_ADDRESS]);
    assert.deepEqual(await r.resolve4('example.com'), [UPSTREAM_ADDRESS]);
    await assert.rejects(r.resolve6('chat.example'), (err: NodeJS.ErrnoException) => err.code === 'ENODATA');
  });

  it('picks up a changed configuration from the database', async () => {
    const org = (await ctx.orgs.getOrg(orgId))!;
    await ctx.endpoint.admin.setDnsConfig(org, dnsConfig(['example.org']), actor);
    const deadline = Date.now() + 30_000;
    while ((await digShort('example.org')) !== BLOCK_ADDRESS) {
      if (Date.now() > deadline) assert.fail('the new configuration was not loaded');
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(await digShort('chat.example'), UPSTREAM_ADDRESS);
  });

  it('counts blocked queries into the endpoint statistics (unapproved_service)', async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    const stats = await ctx.endpoint.activity.stats(orgId, '24h');
    // four by dig, two by Node's resolver (A and AAAA), and example.org once after the change
    assert.equal(stats.blocked.byReason.unapproved_service, 7, JSON.stringify(stats));
    assert.equal(stats.blocked.byReason.dlp_violation, 0);
    assert.equal(stats.blocked.total, stats.blocked.byReason.unapproved_service);
  });
});
