import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type Tenant, type TestServer } from '../support/harness.js';

// Reading back what the chat kept (usage, conversations) and erasing a conversation are no chat requests
// (docs/auth.md, docs/gateway.md): they count against the rate limit, never against the monthly chat quota,
// so the dashboard's Overview, which reads the usage with the session of any role, spends nothing.
let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(async () => {
  await t.close();
});

const chatUsed = async (tenant: Tenant) =>
  (await t.ctx.limits.usage((await t.ctx.orgs.getOrg(tenant.org.id))!, 'chat')).requestsUsed;
const chatDays = async (tenant: Tenant) => {
  await t.ctx.limits.flush();
  const rows = await t.ctx.storage.db
    .selectFrom('usage_days')
    .select(['requests'])
    .where('org_id', '=', tenant.org.id)
    .where('product', '=', 'chat')
    .execute();
  return rows.reduce((n, r) => n + Number(r.requests), 0);
};

describe('gateway read-outs and the chat quota', () => {
  it('a session of any role or a key reading the usage and conversations spends no chat request', async () => {
    const tenant = await t.tenant({ name: 'Readers', plan: 'pro' });
    const member = await tenant.session('member');
    const chat = await t.request('POST', '/api/v1/gateway/chat', { cookie: member, body: { message: 'hi' } });
    assert.equal(chat.status, 200, chat.text);
    const id = chat.body.conversationId as string;
    assert.equal(await chatUsed(tenant), 1, 'the chat itself counts');
    const viewer = await tenant.session('viewer');
    for (const who of [{ cookie: viewer }, { cookie: member }, { key: tenant.sw }]) {
      for (const path of [
        '/api/v1/gateway/usage',
        '/api/v1/gateway/conversations',
        `/api/v1/gateway/conversations/${id}`,
      ]) {
        const res = await t.request('GET', path, who);
        assert.ok(res.status === 200 || res.status === 404, `${path} ${res.status} ${res.text}`);
        assert.ok(res.headers.get('x-ratelimit-limit'), 'counted against the rate limit');
      }
    }
    assert.equal(await chatUsed(tenant), 1, 'no read-out counted as a chat request');
    assert.equal(await chatDays(tenant), 1, "the Overview's chat request chart shows the one chat only");
    const erased = await t.request('DELETE', `/api/v1/gateway/conversations/${id}`, { cookie: member });
    assert.equal(erased.status, 200, erased.text);
    assert.equal(await chatUsed(tenant), 1, 'erasing is no chat request either');
  });

  it('with the chat quota spent, the usage still reads and a conversation can still be erased', async () => {
    const tenant = await t.tenant({ name: 'Spent', plan: 'free' });
    const member = await tenant.session('member');
    const chat = await t.request('POST', '/api/v1/gateway/chat', { cookie: member, body: { message: 'hi' } });
    assert.equal(chat.status, 200, chat.text);
    const org = (await t.ctx.orgs.getOrg(tenant.org.id))!;
    for (let i = 1; i < 1_000; i++) await t.ctx.limits.consume(org, 'chat');
    const refused = await t.request('POST', '/api/v1/gateway/chat', {
      key: tenant.sw,
      body: { message: 'hi' },
    });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.error, 'quota_exceeded');
    const usage = await t.request('GET', '/api/v1/gateway/usage', { key: tenant.sw });
    assert.equal(usage.status, 200, usage.text);
    const viaSession = await t.request('GET', '/api/v1/gateway/usage', { cookie: member });
    assert.equal(viaSession.status, 200, viaSession.text);
    const erased = await t.request('DELETE', `/api/v1/gateway/conversations/${chat.body.conversationId}`, {
      cookie: member,
    });
    assert.equal(erased.status, 200, erased.text);
  });

  it('the key kind rule stays: an al_live_ key may not read the chat usage', async () => {
    const tenant = await t.tenant({ name: 'Kinds' });
    const res = await t.request('GET', '/api/v1/gateway/usage', { key: tenant.al });
    assert.equal(res.status, 403, res.text);
  });
});

describe('read-outs of other products and their quota', () => {
  it('listing the DLP types and the claim corrections spends no tokenization or claim request', async () => {
    const tenant = await t.tenant({ name: 'Listers', plan: 'pro' });
    const used = async (product: 'tokenization' | 'hallucination') =>
      (await t.ctx.limits.usage((await t.ctx.orgs.getOrg(tenant.org.id))!, product)).requestsUsed;
    for (let i = 0; i < 3; i++) {
      const types = await t.request('GET', '/api/v1/dlp/types', { key: tenant.sw });
      assert.equal(types.status, 200, types.text);
      assert.ok(types.headers.get('x-ratelimit-limit'), 'counted against the rate limit');
      const corrections = await t.request('GET', '/api/v1/hallucination/corrections', { key: tenant.al });
      assert.equal(corrections.status, 200, corrections.text);
    }
    assert.equal(await used('tokenization'), 0);
    assert.equal(await used('hallucination'), 0);
  });
});
