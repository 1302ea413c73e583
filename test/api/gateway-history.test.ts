import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startMaintenance } from '../../src/main/maintenance.js';
import { REVALIDATE_MS } from '../../src/modules/dlp/index.js';
import { ManualClock } from '../../src/platform/clock/index.js';
import { type FakeProviderServer, startFakeProviderServer } from '../fakes/provider-server.js';
import { startTestServer, type Tenant, type TestServer } from '../support/harness.js';
import { sseEvents } from './gateway-support.js';

// A clock of its own: listings are ordered by time, the usage report defaults to the clock's month, and
// retention is tested by moving past the vault sessions' 24 hours.
const clock = new ManualClock('2026-06-15T12:00:00.000Z');
let t: TestServer;
let fake: FakeProviderServer;

const EMAIL = 'anna.keller@example.com';
const PII_MESSAGE = `Please write to ${EMAIL} about the invoice.`;
const CONVERSATIONS = '/api/v1/gateway/conversations';

before(async () => {
  fake = await startFakeProviderServer();
  const env: Record<string, string> = {};
  for (const [id, url] of Object.entries(fake.baseUrls))
    env[`PARAPET_PROVIDER_${id.toUpperCase()}_BASE_URL`] = url;
  t = await startTestServer({ env, clock });
});
after(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => fake.reset());

const chat = (tenant: Tenant, body: Record<string, unknown>) =>
  t.request('POST', '/api/v1/gateway/chat', { key: tenant.sw, body });
const get = (tenant: Tenant, path: string) => t.request('GET', path, { key: tenant.sw });
const del = (tenant: Tenant, path: string) => t.request('DELETE', path, { key: tenant.sw });
const rehydrate = (tenant: Tenant, sessionId: string, text: string) =>
  t.request('POST', '/api/v1/dlp/rehydrate', { key: tenant.al, body: { text, sessionId } });

async function newConversation(tenant: Tenant, message = PII_MESSAGE): Promise<string> {
  const res = await chat(tenant, { message });
  assert.equal(res.status, 200, res.text);
  clock.advance(1_000);
  return res.body.conversationId as string;
}

function assertBadRequest(res: { status: number; body: any }, mentions?: RegExp) {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.error, 'invalid_request');
  assert.equal(res.body.statusCode, 400);
  assert.equal(typeof res.body.message, 'string');
  assert.equal(typeof res.body.requestId, 'string');
  if (mentions) assert.match(res.body.message, mentions);
}

function assertNotFound(res: { status: number; body: any }) {
  assert.equal(res.status, 404, JSON.stringify(res.body));
  assert.equal(res.body.error, 'not_found');
  assert.equal(res.body.statusCode, 404);
}

describe('GET /api/v1/gateway/conversations', () => {
  let lister: Tenant;
  let ids: string[];
  let twoTurns: string;

  before(async () => {
    lister = await t.tenant({ name: 'Lister' });
    ids = [];
    for (const m of ['first', 'second', 'third']) ids.push(await newConversation(lister, `Hello, ${m} one`));
    twoTurns = ids[0] as string;
    const again = await chat(lister, { message: 'And a second turn', conversationId: twoTurns });
    assert.equal(again.status, 200, again.text);
    // someone else's conversation must never show up
    await newConversation(await t.tenant({ name: 'Neighbour' }));
  });

  it('lists the organization’s conversations newest first, with message counts and expiry', async () => {
    const res = await get(lister, CONVERSATIONS);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.total, 3);
    assert.equal(res.body.limit, 20);
    assert.equal(res.body.offset, 0);
    assert.deepEqual(
      res.body.conversations.map((c: { id: string }) => c.id),
      [...ids].reverse(),
    );
    for (const c of res.body.conversations) {
      assert.equal(c.model, 'parapet/parapet-offline-echo');
      assert.equal(c.messages, c.id === twoTurns ? 4 : 2);
      assert.ok(c.createdAt <= c.updatedAt);
      assert.ok(c.expiresAt > clock.now().toISOString(), 'the vault session is alive');
    }
    const continued = res.body.conversations.find((c: { id: string }) => c.id === twoTurns);
    assert.ok(continued.updatedAt > continued.createdAt);
  });

  it('pages with limit and offset, keeping the total', async () => {
    const first = await get(lister, `${CONVERSATIONS}?limit=2`);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(
      first.body.conversations.map((c: { id: string }) => c.id),
      [ids[2], ids[1]],
    );
    assert.equal(first.body.total, 3);
    const second = await get(lister, `${CONVERSATIONS}?limit=2&offset=2`);
    assert.deepEqual(
      second.body.conversations.map((c: { id: string }) => c.id),
      [ids[0]],
    );
    assert.equal(second.body.offset, 2);
    const past = await get(lister, `${CONVERSATIONS}?offset=10`);
    assert.deepEqual(past.body.conversations, []);
    assert.equal(past.body.total, 3);
  });

  it('refuses a limit or offset out of range', async () => {
    for (const q of ['limit=0', 'limit=101', 'limit=abc', 'offset=-1', 'page=2']) {
      assertBadRequest(await get(lister, `${CONVERSATIONS}?${q}`));
    }
  });
});

describe('GET /api/v1/gateway/conversations/:id', () => {
  let owner: Tenant;
  let stranger: Tenant;
  before(async () => {
    owner = await t.tenant({ name: 'Reader' });
    stranger = await t.tenant({ name: 'Stranger' });
  });

  it('shows the stored messages tokenized, and the vault session restores them', async () => {
    const res0 = await chat(owner, { message: PII_MESSAGE, system: 'You are terse.' });
    assert.equal(res0.status, 200, res0.text);
    const id = res0.body.conversationId as string;
    const res = await get(owner, `${CONVERSATIONS}/${id}`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.id, id);
    assert.equal(res.body.model, 'parapet/parapet-offline-echo');
    assert.match(res.body.sessionId, /^sess_[0-9A-Za-z]{22}$/);
    assert.ok(res.body.expiresAt > clock.now().toISOString());
    assert.deepEqual(
      res.body.messages.map((m: { role: string }) => m.role),
      ['system', 'user', 'assistant'],
    );
    assert.ok(!res.text.includes(EMAIL), 'the original never leaves the vault here');
    const user = res.body.messages[1].content as string;
    assert.match(user, /TKN_EMAIL_[0-9a-z]+/);

    const back = await rehydrate(owner, res.body.sessionId, user);
    assert.equal(back.status, 200, back.text);
    assert.equal(back.body.rehydrated, PII_MESSAGE);
    assert.equal(back.body.count, 1);
  });

  it("answers 404 for another organization's conversation and for an unknown one", async () => {
    const id = await newConversation(owner);
    assertNotFound(await get(stranger, `${CONVERSATIONS}/${id}`));
    assertNotFound(await get(owner, `${CONVERSATIONS}/conv_0000000000000000000000`));
  });

  it('refuses an id of the wrong form with 400', async () => {
    for (const bad of ['nope', 'conv_123', 'sess_0000000000000000000000', 'conv_00000000000000000000-0']) {
      assertBadRequest(await get(owner, `${CONVERSATIONS}/${bad}`), /id/);
    }
  });
});

describe('DELETE /api/v1/gateway/conversations/:id', () => {
  let owner: Tenant;
  before(async () => {
    owner = await t.tenant({ name: 'Eraser' });
  });

  it('erases the conversation, its vault session and the originals, in every way they could be read', async () => {
    const id = await newConversation(owner);
    const read = await get(owner, `${CONVERSATIONS}/${id}`);
    const sessionId = read.body.sessionId as string;
    const tokenized = read.body.messages[0].content as string;
    // warm the vault's cache first: deletion has to reach it too
    assert.equal((await rehydrate(owner, sessionId, tokenized)).body.rehydrated, PII_MESSAGE);

    const res = await del(owner, `${CONVERSATIONS}/${id}`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { success: true });

    assertNotFound(await get(owner, `${CONVERSATIONS}/${id}`));
    const list = await get(owner, CONVERSATIONS);
    assert.ok(!list.body.conversations.some((c: { id: string }) => c.id === id));
    assertNotFound(await chat(owner, { message: 'still there?', conversationId: id }));
    assertNotFound(await rehydrate(owner, sessionId, tokenized));

    const db = t.ctx.storage.db;
    const sessions = await db.selectFrom('dlp_sessions').select('id').where('id', '=', sessionId).execute();
    const tokens = await db
      .selectFrom('dlp_tokens')
      .select('token')
      .where('session_id', '=', sessionId)
      .execute();
    const rows = await db.selectFrom('gateway_conversations').select('id').where('id', '=', id).execute();
    assert.deepEqual([sessions.length, tokens.length, rows.length], [0, 0, 0]);

    assertNotFound(await del(owner, `${CONVERSATIONS}/${id}`));
  });

  it('also when another instance has read the session since (shared through Redis when configured)', async () => {
    const peer = await startTestServer({ shareWith: t, clock });
    try {
      const id = await newConversation(owner);
      const read = await get(owner, `${CONVERSATIONS}/${id}`);
      const [sessionId, text] = [read.body.sessionId as string, read.body.messages[0].content as string];
      const viaPeer = await peer.request('POST', '/api/v1/dlp/rehydrate', {
        key: owner.al,
        body: { text, sessionId },
      });
      assert.equal(viaPeer.body.rehydrated, PII_MESSAGE);
      assert.equal((await del(owner, `${CONVERSATIONS}/${id}`)).status, 200);
      assertNotFound(await rehydrate(owner, sessionId, text));
      // The peer still holds the session in memory; once its copy is older than the vault's revalidation
      // period it checks the database, finds the session gone, and refuses too.
      clock.advance(REVALIDATE_MS + 1);
      const later = await peer.request('POST', '/api/v1/dlp/rehydrate', {
        key: owner.al,
        body: { text, sessionId },
      });
      assertNotFound(later);
    } finally {
      await peer.close();
    }
  });

  it('keeps an erased session erased when a stale shared copy is written back late', async () => {
    const id = await newConversation(owner);
    const read = await get(owner, `${CONVERSATIONS}/${id}`);
    const [sessionId, text] = [read.body.sessionId as string, read.body.messages[0].content as string];
    // Another process reads the session from the database (and, with Redis, shares its copy there).
    const reader = await startTestServer({ shareWith: t, clock });
    try {
      const viaReader = await reader.request('POST', '/api/v1/dlp/rehydrate', {
        key: owner.al,
        body: { text, sessionId },
      });
      assert.equal(viaReader.body.rehydrated, PII_MESSAGE);
    } finally {
      await reader.close();
    }
    const key = `vault:${sessionId}`;
    const copy = await t.ctx.cache.get(key);
    assert.equal((await del(owner, `${CONVERSATIONS}/${id}`)).status, 200);
    if (t.ctx.cache.kind === 'redis') {
      assert.ok(copy, 'the session was shared through Redis before the erasure');
      // That process now writes its copy back, as cache fills do: the erasure's tombstone refuses it.
      assert.equal(await t.ctx.cache.setIfAbsent(key, copy, 600_000), false);
    }
    // A process that has never seen the session (empty local cache) looks in Redis first.
    const fresh = await startTestServer({ shareWith: t, clock });
    try {
      assertNotFound(
        await fresh.request('POST', '/api/v1/dlp/rehydrate', { key: owner.al, body: { text, sessionId } }),
      );
    } finally {
      await fresh.close();
    }
  });

  it("answers 404 for another organization's conversation and leaves it alone", async () => {
    const other = await t.tenant({ name: 'Bystander' });
    const id = await newConversation(other);
    assertNotFound(await del(owner, `${CONVERSATIONS}/${id}`));
    assert.equal((await get(other, `${CONVERSATIONS}/${id}`)).status, 200);
  });

  it('refuses an id of the wrong form with 400', async () => {
    assertBadRequest(await del(owner, `${CONVERSATIONS}/conv_short`));
  });
});

describe('GET /api/v1/gateway/usage', () => {
  let spender: Tenant;
  const reported: Array<{ model: string; promptTokens: number; completionTokens: number; cost: number }> = [];

  before(async () => {
    spender = await t.tenant({ name: 'Spender' });
    const openai = { routing: { preferredModel: 'openai/gpt-4o-mini' } };
    const record = (model: string, usage: { promptTokens: number; completionTokens: number; cost: number }) =>
      reported.push({ model, ...usage });

    for (const message of ['Hello there', PII_MESSAGE]) {
      const res = await chat(spender, { message });
      assert.equal(res.status, 200, res.text);
      record(res.body.model, res.body.usage);
    }
    // Only now: with a provider key, the offline model is no longer the one picked by default.
    await t.ctx.gateway.keys.put(spender.org, 'openai', { apiKey: 'sk-test-0123456789' }, null);
    fake.queue({ usage: { prompt: 1200, completion: 300 } }, { usage: { prompt: 40, completion: 9 } });
    for (const message of ['Summarise the quarter', 'And the next one']) {
      const res = await chat(spender, { message, ...openai });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.model, 'openai/gpt-4o-mini');
      record(res.body.model, res.body.usage);
    }
    // Cut after the first chunk: the provider never reports usage, so it is estimated.
    fake.setBehavior({ chunkSize: 2, errorAfterChunks: 2 });
    const cut = await chat(spender, { message: 'a long enough message to stream', stream: true, ...openai });
    const meta = sseEvents(cut.text).find((e) => e.json?.type === 'meta')?.json;
    assert.ok(meta, cut.text);
    record(meta.model, meta.usage);
    // And one provider-proxy call, to be told apart by endpoint.
    const proxied = await t.request('POST', '/api/v1/proxy/parapet/v1/chat/completions', {
      headers: { 'x-service-key': spender.sw, 'x-service-organization': spender.org.id },
      body: { model: 'parapet-offline-echo', messages: [{ role: 'user', content: 'Hi' }] },
    });
    assert.equal(proxied.status, 200, proxied.text);
    reported.push({
      model: 'proxy',
      promptTokens: proxied.body.usage.prompt_tokens,
      completionTokens: proxied.body.usage.completion_tokens,
      cost: 0,
    });
  });

  const total = (pick: (r: (typeof reported)[number]) => number, which = (_: string) => true) =>
    reported.filter((r) => which(r.model)).reduce((n, r) => n + pick(r), 0);

  it('adds up what the chat and the proxy reported, over the current month by default', async () => {
    const res = await get(spender, '/api/v1/gateway/usage');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.from, '2026-06-01T00:00:00.000Z');
    assert.equal(res.body.to, '2026-07-01T00:00:00.000Z');
    assert.equal(res.body.requests, 6);
    assert.equal(
      res.body.promptTokens,
      total((r) => r.promptTokens),
    );
    assert.equal(
      res.body.completionTokens,
      total((r) => r.completionTokens),
    );
    assert.ok(total((r) => r.cost) > 0, 'the openai calls cost something');
    assert.ok(Math.abs(res.body.cost - total((r) => r.cost)) < 1e-12, `${res.body.cost}`);
  });

  it('breaks the figures down by model and by endpoint', async () => {
    const res = await get(spender, '/api/v1/gateway/usage');
    const byModel = Object.fromEntries(
      res.body.byModel.map((m: { provider: string; model: string }) => [m.model, m]),
    );
    // The chat and the proxy both record the catalog's key.
    assert.deepEqual(Object.keys(byModel).sort(), ['openai/gpt-4o-mini', 'parapet/parapet-offline-echo']);
    const openai = byModel['openai/gpt-4o-mini'];
    const isOpenai = (m: string) => m === 'openai/gpt-4o-mini';
    assert.equal(openai.provider, 'openai');
    assert.equal(openai.requests, 3);
    assert.equal(openai.estimated, 1);
    assert.equal(
      openai.promptTokens,
      total((r) => r.promptTokens, isOpenai),
    );
    assert.equal(
      openai.completionTokens,
      total((r) => r.completionTokens, isOpenai),
    );
    assert.ok(Math.abs(openai.cost - total((r) => r.cost, isOpenai)) < 1e-12);
    const offline = byModel['parapet/parapet-offline-echo'];
    assert.equal(offline.provider, 'parapet');
    assert.equal(offline.requests, 3, 'two chats and one proxied call');
    assert.equal(offline.estimated, 0);
    assert.equal(offline.cost, 0);
    assert.equal(
      offline.promptTokens,
      total(
        (r) => r.promptTokens,
        (m) => m === offline.model || m === 'proxy',
      ),
    );
    assert.equal(res.body.byModel[0].model, 'openai/gpt-4o-mini', 'dearest first');

    const byEndpoint = Object.fromEntries(
      res.body.byEndpoint.map((e: { endpoint: string }) => [e.endpoint, e]),
    );
    assert.equal(byEndpoint.chat.requests, 5);
    assert.ok(Math.abs(byEndpoint.chat.cost - res.body.cost) < 1e-12);
    assert.deepEqual(byEndpoint.proxy, { endpoint: 'proxy', requests: 1, cost: 0, costMicroUsd: 0 });
  });

  it('counts only the period asked for (to exclusive), and nothing of other organizations', async () => {
    const now = clock.now().toISOString();
    const inside = await get(spender, `/api/v1/gateway/usage?from=2026-06-01&to=2026-06-30T23:59:59Z`);
    assert.equal(inside.body.requests, 6);
    const before = await get(spender, `/api/v1/gateway/usage?from=2026-01-01&to=2026-06-01T00:00:00%2B00:00`);
    assert.equal(before.status, 200, before.text);
    assert.deepEqual(
      {
        requests: before.body.requests,
        promptTokens: before.body.promptTokens,
        completionTokens: before.body.completionTokens,
        cost: before.body.cost,
        byModel: before.body.byModel,
        byEndpoint: before.body.byEndpoint,
      },
      { requests: 0, promptTokens: 0, completionTokens: 0, cost: 0, byModel: [], byEndpoint: [] },
    );
    // Every call of this organization was recorded at the clock's present instant.
    const upToNow = await get(spender, `/api/v1/gateway/usage?from=2026-06-01&to=${encodeURIComponent(now)}`);
    assert.equal(upToNow.body.to, now);
    assert.equal(upToNow.body.requests, 0, 'to is exclusive');
    const justAfter = new Date(clock.now().getTime() + 1).toISOString();
    const through = await get(
      spender,
      `/api/v1/gateway/usage?from=${encodeURIComponent(now)}&to=${justAfter}`,
    );
    assert.equal(through.body.requests, 6, 'from is inclusive');
    const stranger = await t.tenant({ name: 'Frugal' });
    assert.equal((await get(stranger, '/api/v1/gateway/usage')).body.requests, 0);
  });

  it('refuses bad dates, a reversed period and one longer than 366 days', async () => {
    const cases: Array<[string, RegExp]> = [
      ['from=yesterday', /from/],
      ['from=2026-13-01', /from/],
      ['from=2026-02-30', /from/],
      ['to=2026-06-01T10:00', /to/],
      ['to=2026-06-01T25:00:00Z', /to/],
      ['from=2026-06-10&to=2026-06-01', /later/],
      ['from=2025-01-01&to=2026-01-03', /366 days/],
      ['since=2026-01-01', /since/],
    ];
    for (const [q, mentions] of cases) {
      assertBadRequest(await get(spender, `/api/v1/gateway/usage?${q}`), mentions);
    }
    const leapYear = await get(spender, '/api/v1/gateway/usage?from=2024-01-01&to=2025-01-01');
    assert.equal(leapYear.status, 200, 'exactly 366 days is allowed');
  });
});

// Last: it moves the clock past every vault session of this file.
describe('retention: a conversation does not outlive its vault session', () => {
  let owner: Tenant;
  before(async () => {
    owner = await t.tenant({ name: 'Forgetful' });
  });

  it('hides an expired conversation, refuses to continue it, and the retention job deletes it', async () => {
    const expired = await newConversation(owner);
    const erasedLate = await newConversation(owner);
    const sessionOf = async (id: string) =>
      (
        await t.ctx.storage.db
          .selectFrom('gateway_conversations')
          .select('vault_session_id')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).vault_session_id;
    const session = await sessionOf(expired);
    clock.advance(25 * 3_600_000);
    const fresh = await newConversation(owner);

    const list = await get(owner, CONVERSATIONS);
    assert.deepEqual(
      list.body.conversations.map((c: { id: string }) => c.id),
      [fresh],
    );
    assertNotFound(await get(owner, `${CONVERSATIONS}/${expired}`));

    // Before the retention job ran: the conversation row is still there, its session is expired.
    const continued = await chat(owner, { message: 'are you still there?', conversationId: expired });
    assertNotFound(continued);
    assert.match(continued.body.message, /^Conversation has expired/);

    // An expired conversation can still be erased on request.
    assert.equal((await del(owner, `${CONVERSATIONS}/${erasedLate}`)).status, 200);

    const maintenance = startMaintenance(t.ctx);
    try {
      await maintenance.runOnce();
    } finally {
      maintenance.stop();
    }
    const db = t.ctx.storage.db;
    const left = await db
      .selectFrom('gateway_conversations')
      .select('id')
      .where('org_id', '=', owner.org.id)
      .execute();
    assert.deepEqual(
      left.map((r) => r.id),
      [fresh],
    );
    assert.equal(
      (await db.selectFrom('dlp_sessions').select('id').where('id', '=', session).execute()).length,
      0,
    );
    assertNotFound(await chat(owner, { message: 'hello?', conversationId: expired }));
    assert.equal((await get(owner, `${CONVERSATIONS}/${fresh}`)).status, 200);
  });
});
