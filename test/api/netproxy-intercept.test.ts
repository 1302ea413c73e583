import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { after, before, beforeEach, describe, it } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import dnsPacket from 'dns-packet';
import OpenAI from 'openai';
import { Agent, fetch as undiciFetch } from 'undici';
import { buildIntercept, buildProxy, initCa, readCa } from '../../src/main/proxy.js';
import { createLeafIssuer, createUpstreamLookup } from '../../src/modules/netproxy/index.js';
import type { App } from '../../src/platform/http/index.js';
import { type FakeProviderServer, startFakeProviderServer } from '../fakes/provider-server.js';
import { type Tenant, type TestServer, startTestServer } from '../support/harness.js';

// Transparent mode as a device sees it: its DNS sends api.openai.com and api.anthropic.com to this
// machine (here: a lookup that answers 127.0.0.1), it trusts the organization's CA, and it runs the
// official SDKs with their default host names. The proxy resolves the real upstream with its own DNS
// server (a fake one that knows `upstream.localhost`), never with the system's lookup.
const EMAIL = 'ines.moreau@example.com';
const PHONE = '+44 20 7946 0123';
const PROMPT = `Write to ${EMAIL} or call ${PHONE} about the lease.`;

let fake: FakeProviderServer;
let t: TestServer;
let proxyApp: App;
let intercept: App;
let port: number;
let caPem: string;
let caDir: string;
let dns: { port: number; close(): void };
let inNetwork: Tenant; // client networks 127.0.0.1/32
let otherNetwork: Tenant; // client networks 127.0.0.3/32
let keyOnly: Tenant; // no client networks: reached only with its key

/** A DNS server on loopback that answers A queries from a table and NXDOMAIN for every other name. */
async function startFakeDns(table: Record<string, string>): Promise<{ port: number; close(): void }> {
  const socket = createSocket('udp4');
  socket.on('message', (msg, rinfo) => {
    const query = dnsPacket.decode(msg);
    const q = query.questions?.[0];
    const address = q && q.type === 'A' ? table[q.name.toLowerCase()] : undefined;
    const answer = dnsPacket.encode({
      type: 'response',
      id: query.id,
      flags:
        dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | (address || q?.type !== 'A' ? 0 : 3),
      questions: query.questions,
      answers: address ? [{ type: 'A', name: q?.name ?? '', ttl: 60, data: address }] : [],
    });
    socket.send(answer, rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { port: (socket.address() as AddressInfo).port, close: () => socket.close() };
}

before(async () => {
  fake = await startFakeProviderServer();
  dns = await startFakeDns({ 'upstream.localhost': '127.0.0.1', 'api.openai.com': '127.0.0.1' });
  caDir = mkdtempSync(join(tmpdir(), 'parapet-ca-'));
  const env: Record<string, string> = {
    PARAPET_PROXY_CA_DIR: caDir,
    // By name, so the upstream address goes through the proxy's own resolver (a .localhost name: plain http to
    // an upstream is accepted only for loopback names, docs/deployment.md).
    PARAPET_PROVIDER_OPENAI_BASE_URL: `http://upstream.localhost:${fake.port}/openai/v1`,
    PARAPET_PROVIDER_ANTHROPIC_BASE_URL: fake.baseUrls.anthropic,
  };
  t = await startTestServer({ env });
  await initCa(t.ctx.config, { name: 'Test Org CA' });
  const ca = readCa(t.ctx.config);
  caPem = ca.certPem;
  const built = await buildProxy(t.ctx, { lookup: createUpstreamLookup([`127.0.0.1:${dns.port}`]) });
  proxyApp = built.app;
  intercept = await buildIntercept(t.ctx, built.proxy, await createLeafIssuer(ca, () => new Date()));
  await intercept.listen({ port: 0, host: '127.0.0.1' });
  port = (intercept.server.address() as AddressInfo).port;

  inNetwork = await t.tenant({ name: 'Office network' });
  otherNetwork = await t.tenant({ name: 'Branch network' });
  keyOnly = await t.tenant({ name: 'Key users' });
  for (const [tenant, networks] of [
    [inNetwork, ['127.0.0.1/32']],
    [otherNetwork, ['127.0.0.3']],
  ] as const) {
    const res = await t.request('PUT', '/api/dashboard/netproxy/settings', {
      cookie: await tenant.session('admin'),
      body: { clientNetworks: networks },
    });
    assert.equal(res.status, 200, res.text);
  }
});
// Closes whatever `before` got to open: a failed start must not leave servers that keep the file running.
after(async () => {
  await intercept?.close();
  await proxyApp?.close();
  await t?.close();
  await fake?.close();
  dns?.close();
  if (caDir) rmSync(caDir, { recursive: true, force: true });
});
beforeEach(() => fake.reset());

/** A device: its DNS maps every name to this machine, it trusts the CA, it connects from `from`. */
function device(from = '127.0.0.1') {
  const agent = new Agent({
    localAddress: from,
    connect: {
      ca: caPem,
      lookup: (_host, options, cb) => {
        if ((options as { all?: boolean }).all) cb(null, [{ address: '127.0.0.1', family: 4 }] as never);
        else cb(null, '127.0.0.1', 4);
      },
    },
  });
  const fetch = ((url: string, init?: RequestInit) =>
    undiciFetch(url, {
      ...(init as object),
      dispatcher: agent,
    } as never)) as unknown as typeof globalThis.fetch;
  return { agent, fetch };
}

const openai = (from?: string, headers: Record<string, string> = {}) =>
  new OpenAI({
    apiKey: 'sk-device-key',
    baseURL: `https://api.openai.com:${port}/v1`,
    fetch: device(from).fetch,
    defaultHeaders: headers,
    maxRetries: 0,
  });

function assertUpstreamClean() {
  const seen = JSON.stringify(fake.requests.map((r) => r.body));
  assert.ok(fake.requests.length > 0, 'the upstream was called');
  assert.ok(!seen.includes(EMAIL) && !seen.includes(PHONE), `upstream saw a value: ${seen}`);
  assert.match(seen, /TKN_EMAIL_/);
}

async function usageOrgs(): Promise<string[]> {
  await t.ctx.gateway.usage.flush();
  const rows = await t.ctx.storage.db.selectFrom('gateway_usage').select('org_id').execute();
  return rows.map((r) => r.org_id);
}

describe('client networks setting', () => {
  it('each change is an audit.settings event naming the field, never the networks; a save that changes nothing writes none', async () => {
    const audits = async () =>
      (
        await t.ctx.storage.db
          .selectFrom('events')
          .selectAll()
          .where('org_id', '=', otherNetwork.org.id)
          .where('type', '=', 'audit.settings')
          .execute()
      ).map((e) => JSON.parse(e.data as string));
    const first = await audits();
    assert.equal(first.length, 1, 'the save in before() was audited');
    assert.equal(first[0].setting, 'netproxy');
    assert.deepEqual(first[0].changed, ['clientNetworks']);
    assert.ok(!JSON.stringify(first).includes('127.0.0.3'), 'no network in the event');
    const cookie = await otherNetwork.session('admin');
    const same = await t.request('PUT', '/api/dashboard/netproxy/settings', {
      cookie,
      body: { clientNetworks: ['127.0.0.3/32'] },
    });
    assert.equal(same.status, 200, same.text);
    assert.equal((await audits()).length, 1, 'nothing changed, nothing written');
    const other = await t.request('PUT', '/api/dashboard/netproxy/settings', {
      cookie,
      body: { clientNetworks: ['127.0.0.3/32', '10.99.0.0/16'] },
    });
    assert.equal(other.status, 200, other.text);
    const after = await audits();
    assert.equal(after.length, 2);
    assert.ok(
      after.every((a) => a.actorUserId),
      'who changed it',
    );
    // Back to what the other tests expect.
    await t.request('PUT', '/api/dashboard/netproxy/settings', {
      cookie,
      body: { clientNetworks: ['127.0.0.3'] },
    });
  });
});

describe('network proxy CA', () => {
  it('keeps the key readable by its owner only, and will not replace a CA devices trust unless forced', async () => {
    assert.equal(statSync(join(caDir, 'ca-key.pem')).mode & 0o777, 0o600);
    await assert.rejects(initCa(t.ctx.config, {}), /already exists/);
    assert.match(caPem, /^-----BEGIN CERTIFICATE-----/);
  });

  it('refuses the TLS handshake for a host name that is not a provider', async () => {
    const err = await new Promise<Error | undefined>((resolve) => {
      const socket = tlsConnect({ host: '127.0.0.1', port, servername: 'www.example.com', ca: caPem }, () => {
        socket.destroy();
        resolve(undefined);
      });
      socket.on('error', resolve);
    });
    assert.ok(err, 'no certificate for another name');
  });
});

describe('openai SDK, transparent mode', () => {
  it('organization from the client network: tokenized upstream, originals back, upstream found by its own resolver', async () => {
    const before = (await usageOrgs()).length;
    const { data, response } = await openai()
      .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: PROMPT }] })
      .withResponse();
    assert.equal(data.choices[0]?.message.content, PROMPT);
    assertUpstreamClean();
    assert.equal(fake.lastRequest()?.path, '/openai/v1/chat/completions');
    assert.equal(fake.lastRequest()?.headers['authorization'], 'Bearer sk-device-key');
    assert.ok(Number(response.headers.get('x-svc-tokenized-count')) >= 2);
    assert.ok(Number(response.headers.get('x-svc-rehydrated-count')) >= 2);
    const orgs = (await usageOrgs()).slice(before);
    assert.deepEqual(orgs, [inNetwork.org.id]);
  });

  it('streamed, tokens split across events', async () => {
    fake.setBehavior({ chunkSize: 3 });
    const stream = await openai().chat.completions.create({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: PROMPT }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    assert.equal(text, PROMPT);
    assertUpstreamClean();
  });

  it('another network identifies another organization', async () => {
    const before = (await usageOrgs()).length;
    const data = await openai('127.0.0.3').chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: PROMPT }],
    });
    assert.equal(data.choices[0]?.message.content, PROMPT);
    assert.deepEqual((await usageOrgs()).slice(before), [otherNetwork.org.id]);
  });

  it('X-Service-Key wins over the network, from any address', async () => {
    const before = (await usageOrgs()).length;
    const data = await openai('127.0.0.2', { 'x-service-key': keyOnly.al }).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: PROMPT }],
    });
    assert.equal(data.choices[0]?.message.content, PROMPT);
    assert.deepEqual((await usageOrgs()).slice(before), [keyOnly.org.id]);
    assert.equal(fake.lastRequest()?.headers['x-service-key'], undefined);
  });

  it('a client outside every client network and without a key is refused, and nothing is sent', async () => {
    const res = await device('127.0.0.2').fetch(`https://api.openai.com:${port}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-device-key' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: PROMPT }] }),
    });
    assert.equal(res.status, 401);
    // No organization, so no choice of error format: the spec's Error body.
    const body = (await res.json()) as { error: string; message: string; statusCode: number };
    assert.equal(body.error, 'unauthorized');
    assert.equal(body.statusCode, 401);
    assert.match(body.message, /127\.0\.0\.2 is in no organization's client networks/);
    assert.equal(fake.requests.length, 0);
  });

  it('a Host header that does not repeat the TLS server name is refused', async () => {
    // fetch will not let a caller set Host; a raw request can.
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          port,
          servername: 'api.openai.com',
          ca: caPem,
          path: '/v1/models',
          headers: { host: 'api.anthropic.com', authorization: 'Bearer sk-device-key' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    assert.equal(status, 400);
    assert.equal(fake.requests.length, 0);
  });
});

describe('anthropic SDK, transparent mode', () => {
  it('plain and streamed: tokenized upstream, originals back', async () => {
    const client = new Anthropic({
      apiKey: 'sk-ant-device',
      baseURL: `https://api.anthropic.com:${port}`,
      fetch: device().fetch,
      maxRetries: 0,
    });
    const message = await client.messages.create({
      model: 'claude-3-5-haiku-latest',
      max_tokens: 200,
      messages: [{ role: 'user', content: PROMPT }],
    });
    assert.equal(message.content[0]?.type === 'text' ? message.content[0].text : '', PROMPT);
    assertUpstreamClean();
    // This SDK version sends its key as a bearer token; either way it passes through untouched.
    const h = fake.lastRequest()?.headers ?? {};
    assert.ok(h['x-api-key'] === 'sk-ant-device' || h['authorization'] === 'Bearer sk-ant-device');

    fake.reset();
    fake.setBehavior({ chunkSize: 4 });
    const stream = client.messages.stream({
      model: 'claude-3-5-haiku-latest',
      max_tokens: 200,
      messages: [{ role: 'user', content: PROMPT }],
    });
    let text = '';
    stream.on('text', (d) => {
      text += d;
    });
    await stream.finalMessage();
    assert.equal(text, PROMPT);
    assertUpstreamClean();
  });
});

describe('upstream resolver', () => {
  it('asks its own DNS server, not the system lookup, and refuses a provider name that points back here', async () => {
    const lookup = createUpstreamLookup([`127.0.0.1:${dns.port}`]);
    const resolve = (host: string) =>
      new Promise<string>((ok, fail) =>
        lookup(host, {}, (err, address) => (err ? fail(err) : ok(String(address)))),
      );
    assert.equal(await resolve('upstream.localhost'), '127.0.0.1');
    // The system would answer localhost from /etc/hosts; this resolver asks its DNS server only.
    await assert.rejects(resolve('localhost'), /did not resolve/);
    await assert.rejects(resolve('api.openai.com'), /resolved to this machine/);
  });
});
