import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/platform/clock/index.js';
import { type Tenant, type TestServer, startTestServer } from '../support/harness.js';

const clock = new ManualClock('2026-05-04T08:00:00.000Z');
let t: TestServer;
let tenant: Tenant;

const TEXT =
  'Hello, my name is Anna Meier. Please transfer the refund to CH93 0076 2011 6238 5295 7 and send the ' +
  'receipt to anna.meier@example.com or call +41 44 668 18 00.';

before(async () => {
  t = await startTestServer({ clock });
  tenant = await t.tenant({ plan: 'pro' });
});
after(async () => t.close());

describe('POST /api/v1/dlp/analyze', () => {
  it('tokenizes, never returns originals, and rehydrates exactly', async () => {
    const res = await t.request('POST', '/api/v1/dlp/analyze', { key: tenant.al, body: { text: TEXT } });
    assert.equal(res.status, 200, res.text);
    const body = res.body;
    assert.match(body.sessionId, /^sess_[0-9A-Za-z]{22}$/);
    for (const secret of ['Anna Meier', 'CH93', 'anna.meier@example.com', '668 18 00']) {
      assert.equal(res.text.includes(secret), false, `${secret} must not appear in the response`);
    }
    const types = body.tokens.map((x: { type: string }) => x.type).sort();
    assert.deepEqual(types, ['email', 'iban', 'name', 'phone']);
    for (const tok of body.tokens) {
      assert.match(tok.token, /^TKN_[A-Z_]+_[0-9a-z]+$/);
      assert.equal(tok.original, '[REDACTED]');
      assert.equal(tok.sessionId, body.sessionId);
      assert.ok(body.tokenized.includes(tok.token));
    }
    assert.equal(body.stats.totalDetected, 4);
    assert.deepEqual([...body.stats.categories].sort(), ['email', 'iban', 'name', 'phone']);
    assert.equal(typeof body.stats.processingMs, 'number');

    const back = await t.request('POST', '/api/v1/dlp/rehydrate', {
      key: tenant.sw,
      body: { text: body.tokenized, sessionId: body.sessionId },
    });
    assert.equal(back.status, 200);
    assert.equal(back.body.rehydrated, TEXT);
    assert.equal(back.body.count, 4);
    assert.deepEqual(back.body.unknownTokens, []);
  });

  it('keeps one token per value across calls of one session, and tolerates what models do to tokens', async () => {
    const first = await t.request('POST', '/api/v1/dlp/analyze', {
      key: tenant.al,
      body: { text: 'Mail bob@example.org' },
    });
    const token = first.body.tokens[0].token as string;
    const second = await t.request('POST', '/api/v1/dlp/analyze', {
      key: tenant.al,
      body: { text: 'Again: bob@example.org and eve@example.org', sessionId: first.body.sessionId },
    });
    assert.equal(second.body.sessionId, first.body.sessionId);
    assert.ok(second.body.tokenized.includes(token));
    const eve = second.body.tokens.find((x: { token: string }) => x.token !== token).token as string;
    assert.notEqual(eve, token);
    const modelAnswer = `I wrote to **${token.toLowerCase()}** and to [${eve}].`;
    const back = await t.request('POST', '/api/v1/dlp/rehydrate', {
      key: tenant.al,
      body: { text: modelAnswer, sessionId: first.body.sessionId },
    });
    assert.equal(back.body.rehydrated, 'I wrote to **bob@example.org** and to [eve@example.org].');
    assert.equal(back.body.count, 2);
  });

  it('stores originals sealed, and writes a dlp.violation event with a redacted preview', async () => {
    const res = await t.request('POST', '/api/v1/dlp/analyze', { key: tenant.al, body: { text: TEXT } });
    const rows = await t.ctx.storage.db
      .selectFrom('dlp_tokens')
      .selectAll()
      .where('session_id', '=', res.body.sessionId)
      .execute();
    assert.equal(rows.length, 4);
    const dump = JSON.stringify(rows);
    for (const secret of ['Meier', 'CH93', 'example.com', '668']) assert.equal(dump.includes(secret), false);
    const events = await t.ctx.storage.db
      .selectFrom('events')
      .selectAll()
      .where('org_id', '=', tenant.org.id)
      .where('type', '=', 'dlp.violation')
      .execute();
    const ev = events.map((e) => JSON.parse(e.data)).find((d) => d.sessionId === res.body.sessionId);
    assert.ok(ev, 'dlp.violation written');
    assert.equal(ev.findingsCount, 4);
    assert.equal(ev.action, 'REDACTED');
    assert.ok(['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'].includes(ev.severity));
    for (const secret of ['Meier', 'CH93', 'anna.meier', '668 18'])
      assert.equal(JSON.stringify(ev).includes(secret), false);
  });

  it('answers text without personal data unchanged and writes no event', async () => {
    const text = 'Version 2.4.1 ships on Monday; order #A-77812 costs 1,299.00 EUR.';
    const res = await t.request('POST', '/api/v1/dlp/analyze', { key: tenant.al, body: { text } });
    assert.equal(res.body.tokenized, text);
    assert.equal(res.body.stats.totalDetected, 0);
  });

  it('expires sessions after the TTL: 404 afterwards, and the retention job deletes them', async () => {
    const res = await t.request('POST', '/api/v1/dlp/analyze', {
      key: tenant.al,
      body: { text: 'eve@example.org' },
    });
    clock.advance(25 * 3600_000);
    const late = await t.request('POST', '/api/v1/dlp/rehydrate', {
      key: tenant.al,
      body: { text: res.body.tokenized, sessionId: res.body.sessionId },
    });
    assert.equal(late.status, 404);
    assert.equal(late.body.error, 'not_found');
    assert.ok((await t.ctx.vault.purgeExpired()) >= 1);
    const left = await t.ctx.storage.db
      .selectFrom('dlp_tokens')
      .selectAll()
      .where('session_id', '=', res.body.sessionId)
      .execute();
    assert.equal(left.length, 0);
  });

  it('refuses bad input with a clear 400, and an unknown session with 404', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{}, /text/],
      [{ text: '' }, /text/],
      [{ text: ['a'] }, /text/],
      [{ text: 'x', sessionId: 'not-a-session' }, /sessionId/],
    ];
    for (const [body, pattern] of cases) {
      const res = await t.request('POST', '/api/v1/dlp/analyze', { key: tenant.al, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(res.body.message, pattern);
    }
    const unknown = await t.request('POST', '/api/v1/dlp/rehydrate', {
      key: tenant.al,
      body: { text: 'x', sessionId: 'sess_0000000000000000000000' },
    });
    assert.equal(unknown.status, 404);
    const wrongOrg = await t.request('POST', '/api/v1/dlp/analyze', {
      key: tenant.al,
      body: { text: 'x', organizationId: 'org_other' },
    });
    assert.equal(wrongOrg.status, 403);
  });

  it('applies the organization settings: allow-listed values and custom patterns; refuses a ReDoS pattern', async () => {
    const org = await t.tenant({ plan: 'pro' });
    const cookie = await org.session('admin');
    const put = await t.request('PUT', '/api/dashboard/dlp/settings', {
      cookie,
      body: {
        allowValues: ['support@parapet.example'],
        customPatterns: [{ name: 'EMPLOYEE_ID', domain: 'CORPORATE', regex: 'EMP-\\d{6}' }],
      },
    });
    assert.equal(put.status, 200, put.text);
    const res = await t.request('POST', '/api/v1/dlp/analyze', {
      key: org.al,
      body: { text: 'Ask support@parapet.example about EMP-123456.' },
    });
    assert.ok(res.body.tokenized.includes('support@parapet.example'));
    assert.equal(res.body.tokenized.includes('EMP-123456'), false);
    const bad = await t.request('PUT', '/api/dashboard/dlp/settings', {
      cookie,
      body: { customPatterns: [{ name: 'BAD', domain: 'CORPORATE', regex: '(a+)+$' }] },
    });
    assert.equal(bad.status, 400);
    assert.match(bad.body.message, /BAD/);
  });

  it('reads national phone numbers in the organization region first (phoneRegion)', async () => {
    const org = await t.tenant({ plan: 'pro' });
    const cookie = await org.session('admin');
    const text = 'Please call 912 345 678 today.';
    const before = await t.request('POST', '/api/v1/dlp/analyze', { key: org.al, body: { text } });
    assert.equal(before.body.tokenized, text);
    const put = await t.request('PUT', '/api/dashboard/dlp/settings', {
      cookie,
      body: { phoneRegion: 'ES' },
    });
    assert.equal(put.status, 200, put.text);
    const after = await t.request('POST', '/api/v1/dlp/analyze', { key: org.al, body: { text } });
    assert.deepEqual(
      after.body.tokens.map((x: { type: string }) => x.type),
      ['phone'],
    );
    const bad = await t.request('PUT', '/api/dashboard/dlp/settings', {
      cookie,
      body: { phoneRegion: 'spain' },
    });
    assert.equal(bad.status, 400);
  });
});
