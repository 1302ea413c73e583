import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/platform/clock/index.js';
import { createEventWorkers, type EventWorkers } from '../../src/main/worker.js';
import { startHecFake, type HecFake } from '../receivers/splunk-hec-fake.js';
import { startWebhookFake, type WebhookFake } from '../receivers/webhook-fake.js';
import { type Tenant, type TestServer, startTestServer } from '../support/harness.js';

// Endpoint alerts and logs come from devices as free text. Whatever a device leaves in them (an e-mail
// address its policy did not tokenize, an AVS number, a phone number, a card number), the stored rows and
// the events delivered to webhooks and SIEMs carry the type in its place, never the value; and the alert or
// log is still kept (a refusal made the extension drop it).
const EMAIL = 'lena.vogt@example.net';
const AVS = '756.1234.5678.97';
const PHONE = '+41 79 123 45 67';
const CARD = '4111 1111 1111 1111';
const IBAN = 'CH93 0076 2011 6238 5295 7';
const EMPLOYEE = 'EMP-204711';
const VALUES = [EMAIL, AVS, PHONE, CARD, IBAN, EMPLOYEE];
const PIECES = ['lena.vogt', 'example.net', '1234.5678', '123 45 67', '0076 2011', '204711'];
const TOKEN = 'hec-token-endpoint-pii';

let t: TestServer;
let workers: EventWorkers;
let hook: WebhookFake;
let hec: HecFake;
let org: Tenant;
let deviceToken: string;

before(async () => {
  t = await startTestServer({ clock: new ManualClock(new Date()) });
  workers = createEventWorkers(t.ctx);
  hook = await startWebhookFake();
  hec = await startHecFake(TOKEN);
  org = await t.tenant({ name: 'Endpoint PII', plan: 'enterprise' });
  const cookie = await org.session('owner');
  const wh = await t.request('POST', '/api/webhooks', {
    cookie,
    body: { url: `${hook.url}/hook`, events: ['*'] },
  });
  assert.equal(wh.status, 201, wh.text);
  const siem = await t.request('POST', '/api/saas/siem/integrations', {
    cookie,
    body: {
      platform: 'SPLUNK',
      name: 'DLP',
      eventTypes: ['DLP'],
      minSeverity: 'LOW',
      config: { hecUrl: hec.url, hecToken: TOKEN, index: 'security' },
    },
  });
  assert.equal(siem.status, 201, siem.text);
  // The organization's own pattern is personal data too, as everywhere else the DLP module looks.
  const dlp = await t.request('PUT', '/api/dashboard/dlp/settings', {
    cookie,
    body: { customPatterns: [{ name: 'EMPLOYEE', domain: 'CORPORATE', regex: 'EMP-\\d{6}' }] },
  });
  assert.equal(dlp.status, 200, dlp.text);
  const reg = await t.request('POST', '/api/v1/endpoint/register', { key: org.al, body: { name: 'Laptop' } });
  assert.equal(reg.status, 201, reg.text);
  deviceToken = reg.body.deviceToken;
});
after(async () => {
  await workers.close();
  await hook.close();
  await hec.close();
  await t.close();
});

const alert = (id: string, redactedPreview: string, action = 'blocked') => ({
  id,
  type: 'EMAIL',
  dlpDomain: 'PERSONAL',
  domain: 'chat.example',
  action,
  findingsCount: 1,
  redactedPreview,
});

function assertNoValue(where: string, text: string) {
  for (const v of [...VALUES, ...PIECES]) assert.ok(!text.includes(v), `${where} carries ${v}`);
  for (const v of [CARD, IBAN]) assert.ok(!text.includes(v.replace(/ /g, '')), `${where} carries ${v}`);
}

describe('endpoint alerts and logs carry no personal data', () => {
  it('an alert with an e-mail, AVS, phone, card, IBAN and own-pattern value is stored and delivered blanked', async () => {
    const preview = `Mail ${EMAIL}, AVS ${AVS}, call ${PHONE}, card ${CARD}, IBAN ${IBAN}, staff ${EMPLOYEE} [EMAIL_1]`;
    const res = await t.request('POST', '/api/v1/endpoint/alert', {
      key: deviceToken,
      body: alert('pii-1', preview),
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.event, 'dlp.blocked');
    const warned = await t.request('POST', '/api/v1/endpoint/alert', {
      key: deviceToken,
      body: alert('pii-2', `Write to ${EMAIL} please`, 'warned'),
    });
    assert.equal(warned.status, 201, warned.text);

    const rows = await t.ctx.storage.db
      .selectFrom('endpoint_alerts')
      .selectAll()
      .where('org_id', '=', org.org.id)
      .execute();
    assert.equal(rows.length, 2);
    const stored = rows.find((r) => r.id === res.body.id);
    assert.equal(
      stored?.redacted_preview,
      'Mail [EMAIL], AVS [AVS], call [PHONE], card [CARD], IBAN [IBAN], staff [EMPLOYEE] [EMAIL_1]',
    );

    for (let i = 0; i < 10 && (hook.deliveries.length < 2 || hec.envelopes.length < 2); i++)
      await workers.runDue();
    assert.ok(hook.deliveries.length >= 2, 'webhooks were delivered');
    assert.ok(hec.envelopes.length >= 2, 'the SIEM received the events');
    const events = await t.ctx.storage.db
      .selectFrom('events')
      .selectAll()
      .where('org_id', '=', org.org.id)
      .execute();
    const delivered = hook.deliveries.map((d) => d.request.text).join('\n');
    assert.ok(delivered.includes('[PHONE]'), 'the webhook carries the blanked preview');
    for (const [where, text] of [
      ['stored alerts', JSON.stringify(rows)],
      ['events table', JSON.stringify(events)],
      ['webhooks', delivered],
      ['SIEM', JSON.stringify(hec.envelopes)],
    ] as const)
      assertNoValue(where, text);
  });

  it('an alert type is a type name, never a value: digits in it are refused with the field named', async () => {
    for (const type of ['4111111111111111', '756_1234_5678_97']) {
      const res = await t.request('POST', '/api/v1/endpoint/alert', {
        key: deviceToken,
        body: { ...alert(`pii-type-${type}`, 'nothing here'), type },
      });
      assert.equal(res.status, 400, res.text);
      assert.match(res.body.message, /type/);
    }
    const own = await t.request('POST', '/api/v1/endpoint/alert', {
      key: deviceToken,
      body: { ...alert('pii-type-own', 'staff [EMPLOYEE_1]'), type: 'EMPLOYEE' },
    });
    assert.equal(own.status, 201, own.text);
  });

  it('log details are stored blanked, names and numbers included; a large batch is blanked off the event loop', async () => {
    const entries = [
      {
        id: 'log-pii-1',
        kind: 'paste_blocked',
        domain: 'chat.example',
        occurredAt: new Date().toISOString(),
        detail: {
          note: `from ${EMAIL} (${PHONE})`,
          avs: AVS,
          [EMAIL]: 1,
          'lena@example.org': 2,
          card: 4111111111111111,
          chars: 420,
          ok: true,
        },
      },
    ];
    const res = await t.request('POST', '/api/v1/endpoint/log', { key: deviceToken, body: { entries } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { received: 1, stored: 1, duplicates: 0 });
    const row = await t.ctx.storage.db
      .selectFrom('endpoint_logs')
      .select('detail')
      .where('org_id', '=', org.org.id)
      .where('client_id', '=', 'log-pii-1')
      .executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(row.detail), {
      note: 'from [EMAIL] ([PHONE])',
      avs: '[AVS]',
      '[EMAIL]': 1,
      '[EMAIL]_2': 2,
      card: '[CARD]',
      chars: 420,
      ok: true,
    });

    // 500 entries of 10 fields: about 0.5 MB of text (0.8 MB of JSON, under the body limit), which goes to
    // the analysis pool as one task.
    const before = t.ctx.compute.stats().completed;
    const big = Array.from({ length: 500 }, (_, i) => ({
      id: `big-${i}`,
      kind: 'interaction',
      occurredAt: new Date().toISOString(),
      detail: Object.fromEntries(
        Array.from({ length: 10 }, (_, f) => [`f${f}`, `${'plain words '.repeat(6)}mail ${EMAIL} ${i}`]),
      ),
    }));
    const bulk = await t.request('POST', '/api/v1/endpoint/log', {
      key: deviceToken,
      body: { entries: big },
    });
    assert.equal(bulk.status, 200, bulk.text);
    assert.equal(bulk.body.stored, 500);
    assert.ok(t.ctx.compute.stats().completed > before, 'the batch was blanked in the analysis pool');
    const logs = await t.ctx.storage.db
      .selectFrom('endpoint_logs')
      .select('detail')
      .where('org_id', '=', org.org.id)
      .execute();
    assert.equal(logs.length, 501);
    assertNoValue('stored logs', JSON.stringify(logs));
  });
});
