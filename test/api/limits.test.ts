import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/platform/clock/index.js';
import { type TestServer, startTestServer } from '../support/harness.js';

const clock = new ManualClock('2026-03-10T12:00:05.000Z');
let t: TestServer;

before(async () => {
  t = await startTestServer({ clock });
});
after(async () => t.close());

describe('per-minute rate limit by plan', () => {
  it('counts per organization, sets the headers on every response and refuses the 11th Free request', async () => {
    const free = await t.tenant({ plan: 'free' });
    const windowEnd = Math.ceil(Date.parse('2026-03-10T12:01:00.000Z') / 1000);
    for (let i = 1; i <= 10; i++) {
      const res = await t.request('GET', '/api/v1/stats', { key: free.al });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-ratelimit-limit'), '10');
      assert.equal(res.headers.get('x-ratelimit-remaining'), String(10 - i));
      assert.equal(res.headers.get('x-ratelimit-reset'), String(windowEnd));
    }
    const res = await t.request('GET', '/api/v1/stats', { key: free.al });
    assert.equal(res.status, 429);
    assert.equal(res.body.error, 'rate_limit_exceeded');
    assert.equal(res.body.retryAfter, 55);
    assert.equal(res.headers.get('retry-after'), '55');
    assert.match(res.body.message, /55 seconds/);
    assert.equal(res.headers.get('x-ratelimit-remaining'), '0');

    // Another organization has its own window.
    const other = await t.tenant({ plan: 'free' });
    assert.equal((await t.request('GET', '/api/v1/stats', { key: other.al })).status, 200);

    clock.advance(60_000);
    const next = await t.request('GET', '/api/v1/stats', { key: free.al });
    assert.equal(next.status, 200);
    assert.equal(next.headers.get('x-ratelimit-remaining'), '9');
  });

  it('uses the plan figures: Pro 60, Business 300, Enterprise unlimited (a safety ceiling)', async () => {
    for (const [plan, limit] of [
      ['pro', '60'],
      ['business', '300'],
      ['enterprise', '1000000'],
    ] as const) {
      const tenant = await t.tenant({ plan });
      const res = await t.request('GET', '/api/v1/stats', { key: tenant.sw });
      assert.equal(res.headers.get('x-ratelimit-limit'), limit);
    }
  });

  it('sets the headers on error responses of authenticated routes too', async () => {
    const tenant = await t.tenant({ plan: 'pro', products: ['tokenization'] });
    const res = await t.request('POST', '/api/v1/detect', { key: tenant.al, body: { text: 'hello' } });
    assert.equal(res.status, 403);
    assert.equal(res.body.error, 'entitlement_missing');
    assert.equal(res.headers.get('x-ratelimit-limit'), '60');
  });
});

describe('monthly quota per product', () => {
  it('refuses with 403 quota_exceeded when spent, sends warning at 80% and exceeded once, renews on the renewal day', async () => {
    clock.set('2026-04-20T08:00:00.000Z');
    const tenant = await t.tenant({ plan: 'free' });
    const org = (await t.ctx.orgs.getOrg(tenant.org.id))!;
    // Spend 999 of the 1,000 requests directly, then the last over HTTP.
    for (let i = 0; i < 999; i++) await t.ctx.limits.consume(org, 'detection');
    const detect = () => t.request('POST', '/api/v1/detect', { key: tenant.al, body: { text: 'hello' } });
    const last = await detect();
    assert.equal(last.status, 200, last.text);
    clock.advance(61_000);
    const over = await detect();
    assert.equal(over.status, 403);
    assert.equal(over.body.error, 'quota_exceeded');
    assert.ok(over.headers.get('x-ratelimit-limit'));
    // Reading the usage spends none of it, and still answers once the quota is gone (docs/auth.md).
    for (let i = 0; i < 3; i++) {
      const stats = await t.request('GET', '/api/v1/stats', { key: tenant.al });
      assert.equal(stats.status, 200, stats.text);
      assert.equal(stats.body.requestsUsed, 1000);
      assert.equal(stats.body.requestsLimit, 1000);
      assert.ok(stats.headers.get('x-ratelimit-limit'), 'it counts against the rate limit');
    }

    const events = await t.ctx.storage.db
      .selectFrom('events')
      .select(['type'])
      .where('org_id', '=', org.id)
      .where('type', 'like', 'quota.%')
      .execute();
    assert.deepEqual(events.map((e) => e.type).sort(), ['quota.exceeded', 'quota.warning']);

    // Other products keep their own quota.
    assert.notEqual((await t.ctx.limits.usage(org, 'tokenization')).requestsUsed, 1000);

    clock.set(new Date(Date.UTC(2026, 4, org.renewalDay, 0, 0, 1)));
    const renewed = await detect();
    assert.equal(renewed.status, 200);
    assert.equal((await t.request('GET', '/api/v1/stats', { key: tenant.al })).body.requestsUsed, 1);
  });
});
