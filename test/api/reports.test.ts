import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { inflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { type Tenant, type TestServer, startTestServer } from '../support/harness.js';

const EMAIL = 'jane.roe@example.org';
const DAY = 86_400_000;

let t: TestServer;
let mine: Tenant;
let other: Tenant;

async function seed(tenant: Tenant, daysAgo: number[], extra: Record<string, unknown> = {}) {
  const db = t.ctx.storage.db;
  const org = { id: tenant.org.id, plan: tenant.org.plan };
  for (const d of daysAgo) {
    const created = new Date(Date.now() - d * DAY - 60_000).toISOString();
    // Stored as producers store them, at a chosen time (publish stamps "now").
    await db
      .insertInto('events')
      .values({
        id: `evt_${created}_${Math.random().toString(36).slice(2, 10)}`,
        org_id: org.id,
        type: 'detection.created',
        created_at: created,
        data: JSON.stringify({
          severity: d % 2 ? 'HIGH' : 'LOW',
          category: 'JAILBREAK',
          blocked: d % 2 === 1,
          userId: 'usr_alpha',
          apiKeyId: 'key_one',
          ...extra,
        }),
      })
      .execute();
  }
}

before(async () => {
  t = await startTestServer();
  mine = await t.tenant({ plan: 'business' });
  other = await t.tenant({ plan: 'business' });
  await seed(mine, [0, 1, 1, 3]);
  // A DLP event as the vault publishes it: types and counts, a preview with tokens only.
  await t.ctx.events.publish(t.ctx.storage.db, mine.org, 'dlp.violation', {
    type: 'EMAIL',
    types: ['EMAIL', 'IBAN'],
    findingsCount: 3,
    severity: 'HIGH',
    action: 'REDACTED',
    redactedPreview: 'mail [EMAIL_1] about [IBAN_1]',
    userId: 'usr_beta',
  });
  await t.ctx.events.publish(t.ctx.storage.db, mine.org, 'dlp.blocked', {
    type: 'CREDIT_CARD',
    types: ['CREDIT_CARD'],
    findingsCount: 1,
    severity: 'CRITICAL',
    action: 'BLOCKED',
    userId: 'usr_beta',
  });
  await seed(other, [0, 0, 0]);
  // A prompt with an e-mail through the real DLP route: its report must not carry the address.
  const res = await t.request('POST', '/api/v1/dlp/analyze', {
    key: mine.al,
    body: { text: `Write to ${EMAIL} today.` },
  });
  assert.equal(res.status, 200, res.text);
});

after(async () => {
  await t.close();
});

describe('POST /api/v1/report', () => {
  it('builds a short period at once and counts only the organization’s own events', async () => {
    const res = await t.request('POST', '/api/v1/report', { key: mine.sw, body: { period: '7d' } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.status, 'ready');
    assert.equal(res.body.progress, 100);
    assert.equal(res.headers.get('location'), `/api/v1/report/${res.body.id}`);

    const dl = await t.request('GET', `/api/v1/report/${res.body.id}/download`, { key: mine.al });
    assert.equal(dl.status, 200, dl.text);
    const r = dl.body;
    assert.equal(r.organization.id, mine.org.id);
    assert.equal(r.detections.total, 4);
    assert.equal(r.detections.blocked, 3);
    assert.deepEqual(r.detections.bySeverity, { LOW: 1, MEDIUM: 0, HIGH: 3, CRITICAL: 0 });
    assert.deepEqual(r.detections.byCategory, [{ name: 'JAILBREAK', count: 4 }]);
    assert.ok(r.dlp.events >= 2);
    assert.ok(r.dlp.byType.some((c: { name: string }) => c.name === 'IBAN'));
    assert.equal(r.dlp.blocked, 1);
    assert.equal(r.blockedRequests.total, 4);
    assert.deepEqual(r.top.apiKeys, [{ name: 'key_one', count: 4 }]);
    assert.equal(r.top.users[0].name, 'usr_alpha');
    assert.equal(
      r.daily.reduce((n: number, d: { detections: number }) => n + d.detections, 0),
      4,
    );
    assert.ok(
      r.usage.some(
        (u: { product: string; requests: number }) => u.product === 'tokenization' && u.requests >= 1,
      ),
    );
    assert.equal(r.hallucination.checks, 0, 'hallucination checks of the period');
    assert.ok(Array.isArray(r.hallucination.periods));
    assert.ok(!dl.text.includes(EMAIL), 'no personal data in a report');
  });

  it('refuses periods it cannot build, naming the field', async () => {
    for (const [body, word] of [
      [{ period: '24h', from: '2026-01-01' }, 'either'],
      [{ from: 'yesterday' }, 'from'],
      [{ from: '2020-01-01', to: '2022-01-01' }, '366'],
      [{ from: '2999-01-01' }, 'future'],
      [{}, 'from'],
      // Impossible calendar days used to roll over into the next month (a report of another period).
      [{ from: '2026-02-30T00:00:00Z' }, 'from names a day that does not exist'],
      [{ from: '2025-02-29' }, 'from names a day that does not exist'],
      [{ from: '2025-01-01', to: '2025-04-31' }, 'to names a day that does not exist'],
      // Without an offset a date-time was read in the server's own time zone: another instant per server.
      [{ from: '2026-01-01T10:00' }, 'from is a date-time without a time zone'],
      [
        { from: '2026-01-01T10:00:00Z', to: '2026-01-02T10:00:00.000' },
        'to is a date-time without a time zone',
      ],
    ] as const) {
      const res = await t.request('POST', '/api/v1/report', { key: mine.al, body });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.error, 'invalid_request');
      assert.match(res.body.message, new RegExp(word));
    }
  });

  it('refuses a to later than now beyond the clock tolerance, and takes a to within it as now', async () => {
    const iso = (ms: number) => new Date(Date.now() + ms).toISOString();
    const ahead = await t.request('POST', '/api/v1/report', {
      key: mine.al,
      body: { from: iso(-30 * DAY), to: iso(30 * DAY) },
    });
    assert.equal(ahead.status, 400, ahead.text);
    assert.equal(ahead.body.error, 'invalid_request');
    assert.match(ahead.body.message, /to lies in the future/);
    const skewed = await t.request('POST', '/api/v1/report', {
      key: mine.al,
      body: { from: iso(-DAY), to: iso(60_000) },
    });
    assert.equal(skewed.status, 201, skewed.text);
    assert.ok(Date.parse(skewed.body.period.to) <= Date.now(), 'the stored period ends at the latest now');
  });

  it('builds a long period in the background with its progress, then serves it', async () => {
    const res = await t.request('POST', '/api/v1/report', { key: mine.al, body: { period: '90d' } });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.status, 'running');
    await t.ctx.reports.close();
    const done = await t.request('GET', `/api/v1/report/${res.body.id}`, { key: mine.al });
    assert.equal(done.body.status, 'ready');
    assert.equal(done.body.progress, 100);
    const dl = await t.request('GET', `/api/v1/report/${res.body.id}/download`, { key: mine.al });
    assert.equal(dl.body.detections.total, 4);
  });

  it('answers 409 while a report runs and marks a report whose process died as failed', async () => {
    const res = await t.request('POST', '/api/v1/report', { key: mine.al, body: { period: '24h' } });
    const db = t.ctx.storage.db;
    await db
      .updateTable('reports')
      .set({ status: 'running', progress: 40 })
      .where('id', '=', res.body.id)
      .execute();
    const busy = await t.request('GET', `/api/v1/report/${res.body.id}/download`, { key: mine.al });
    assert.equal(busy.status, 409);
    assert.match(busy.body.message, /40 %/);
    const old = new Date(Date.now() - 3_600_000).toISOString();
    await db.updateTable('reports').set({ updated_at: old }).where('id', '=', res.body.id).execute();
    const dead = await t.request('GET', `/api/v1/report/${res.body.id}`, { key: mine.al });
    assert.equal(dead.body.status, 'failed');
    assert.match(dead.body.error, /interrupted/);
  });
});

describe('report downloads', () => {
  let id: string;
  before(async () => {
    id = (await t.ctx.reports.create(mine.org, { period: '7d' }, null)).id;
  });

  it('renders CSV with one header and formula-safe cells', async () => {
    await seed(mine, [2], { category: '=HYPERLINK("http://x")' });
    const fresh = (await t.ctx.reports.create(mine.org, { period: '7d' }, null)).id;
    const res = await t.request('GET', `/api/v1/report/${fresh}/download?format=csv`, { key: mine.al });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/csv/);
    assert.match(
      res.headers.get('content-disposition') ?? '',
      /attachment; filename="parapet-report-.*\.csv"/,
    );
    const lines = res.text.trimEnd().split('\r\n');
    assert.equal(lines[0], 'section,name,value,detail');
    assert.ok(lines.includes('detections,total,5,'));
    assert.ok(
      lines.some((l) => l.startsWith(`detections.category,"'=HYPERLINK(""http://x"")",1`)),
      lines.join('\n'),
    );
  });

  it('renders a PDF that a PDF reader opens', async () => {
    const res = await fetch(`${t.url}/api/v1/report/${id}/download?format=pdf`, {
      headers: { authorization: `Bearer ${mine.al}` },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/pdf');
    const bytes = new Uint8Array(await res.arrayBuffer());
    assert.equal(Buffer.from(bytes.slice(0, 5)).toString('latin1'), '%PDF-');
    const doc = await PDFDocument.load(bytes);
    assert.ok(doc.getPageCount() >= 1);
    assert.match(doc.getTitle() ?? '', /Parapet analysis report/);
  });

  it('draws its charts in the PDF: bars per day with the blocked part in red, bars per breakdown', async () => {
    const res = await fetch(`${t.url}/api/v1/report/${id}/download?format=pdf`, {
      headers: { authorization: `Bearer ${mine.al}` },
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    // The page content streams, inflated where pdf-lib compressed them.
    let drawn = '';
    const raw = bytes.toString('latin1');
    for (const m of raw.matchAll(/(?<!end)stream\r?\n/g)) {
      const start = m.index! + m[0].length;
      const end = raw.indexOf('endstream', start);
      const body = bytes.subarray(start, end);
      try {
        drawn += inflateSync(body).toString('latin1');
      } catch {
        drawn += body.toString('latin1');
      }
    }
    // pdf-lib draws a rectangle as one q…Q block: fill colour, then a closed path (m l l l h) filled (f).
    const fills = (rgb: string) =>
      drawn.split('\nQ\n').filter((b) => b.includes(`q\n${rgb} rg\n`) && b.endsWith('\nh\nf')).length;
    // ALERT and BAR of reports.render.ts: red for blocked, blue for the rest
    assert.ok(fills('0.75 0.22 0.17') >= 2, 'blocked days and blocked severities drawn in red');
    assert.ok(fills('0.16 0.38 0.71') >= 7, 'a bar for each day of the week');
  });

  it('is readable with a dashboard session, and not by another organization', async () => {
    const cookie = await mine.session('viewer');
    const res = await t.request('GET', `/api/v1/report/${id}`, { cookie });
    assert.equal(res.status, 200, res.text);
    const foreign = await t.request('GET', `/api/v1/report/${id}/download`, { key: other.al });
    assert.equal(foreign.status, 404);
  });

  it('pages the list newest first with a cursor', async () => {
    const third = await t.tenant({ plan: 'pro' });
    for (let i = 0; i < 3; i++) await t.ctx.reports.create(third.org, { period: '24h' }, null);
    const first = await t.request('GET', '/api/v1/report?perPage=2', { key: third.al });
    assert.equal(first.body.reports.length, 2);
    assert.ok(first.body.nextCursor);
    const second = await t.request('GET', `/api/v1/report?perPage=2&cursor=${first.body.nextCursor}`, {
      key: third.al,
    });
    assert.equal(second.body.reports.length, 1);
    assert.equal(second.body.nextCursor, null);
    const ids = [...first.body.reports, ...second.body.reports].map((r: { id: string }) => r.id);
    assert.equal(new Set(ids).size, 3);
    for (const bad of ['0', '101', '999', 'ten']) {
      const res = await t.request('GET', `/api/v1/report?perPage=${bad}`, { key: third.al });
      assert.equal(res.status, 400, `perPage=${bad} is refused, not clamped`);
      assert.match(res.body.message, /perPage/);
    }
  });
});

describe('the /v1 base path', () => {
  it('serves every /api/v1 route under /v1 as well', async () => {
    const res = await t.request('POST', '/v1/report', { key: mine.al, body: { period: '24h' } });
    assert.equal(res.status, 201, res.text);
    const again = await t.request('GET', `/v1/report/${res.body.id}`, { key: mine.al });
    assert.equal(again.status, 200);
    const analyze = await t.request('POST', '/v1/analyze', {
      key: mine.al,
      body: { text: 'What is the weather like?' },
    });
    assert.equal(analyze.status, 200, analyze.text);
    assert.equal((await t.request('GET', '/v1/nothing-here', { key: mine.al })).status, 404);
  });
});
