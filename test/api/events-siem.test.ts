import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createEventWorkers, type EventWorkers } from '../../src/main/worker.js';
import { ManualClock } from '../../src/platform/clock/index.js';
import { startFakeHttp } from '../receivers/fake-http.js';
import { startHecFake, type HecFake } from '../receivers/splunk-hec-fake.js';
import { startWebhookFake, type WebhookFake } from '../receivers/webhook-fake.js';
import { type Tenant, type TestServer, startTestServer } from '../support/harness.js';

const TOKEN = 'hec-secret-token-7f3c';

let t: TestServer;
let clock: ManualClock;
let workers: EventWorkers;
let hec: HecFake;
let tenant: Tenant;
let cookie: string;

before(async () => {
  clock = new ManualClock(new Date());
  t = await startTestServer({ clock });
  workers = createEventWorkers(t.ctx);
  hec = await startHecFake(TOKEN);
});
after(async () => {
  await workers.close();
  await hec.close();
  await t.close();
});
beforeEach(async () => {
  tenant = await t.tenant({ plan: 'business' });
  cookie = await tenant.session('owner');
});

async function splunk(extra: Record<string, unknown> = {}) {
  const res = await t.request('POST', '/api/saas/siem/integrations', {
    cookie,
    body: {
      platform: 'SPLUNK',
      name: 'Corp Splunk',
      eventTypes: ['DETECTION', 'AUDIT'],
      config: { hecUrl: hec.url, hecToken: TOKEN, index: 'security', sourcetype: 'parapet' },
      ...extra,
    },
  });
  assert.equal(res.status, 201, res.text);
  return res.body as { id: string };
}

/** A Splunk integration with only the HEC settings, as sent (no status asserted). */
const postSplunk = (extra: Record<string, unknown>) =>
  t.request('POST', '/api/saas/siem/integrations', {
    cookie,
    body: { platform: 'SPLUNK', config: { hecUrl: hec.url, hecToken: TOKEN }, ...extra },
  });

const publish = (type: string, data: Record<string, unknown> = {}) =>
  t.ctx.events.publishFor(t.ctx.storage.db, tenant.org.id, type as 'detection.created', data);

const status = async (id: string) =>
  (await t.request('GET', `/api/saas/siem/integrations/${id}`, { cookie })).body.status;
const envelopeIds = () => hec.envelopes.map((e) => (e['fields'] as { event_id: string }).event_id);

describe('SIEM integrations', () => {
  it('needs the Business plan', async () => {
    const pro = await t.tenant({ plan: 'pro' });
    const res = await t.request('POST', '/api/saas/siem/integrations', {
      cookie: await pro.session('owner'),
      body: { platform: 'SPLUNK', name: 'x', config: { hecUrl: hec.url, hecToken: TOKEN } },
    });
    assert.equal(res.status, 403);
    assert.equal(res.body.error, 'plan_required');
  });

  it('accepts every platform shape of the spec, seals secrets and never returns them', async () => {
    const shapes = [
      {
        platform: 'SPLUNK',
        name: 's',
        config: { hecUrl: 'https://splunk.example.com:8088', hecToken: 'tok-aaaaaaaaaaaa' },
      },
      {
        platform: 'ELASTIC',
        name: 'ec',
        config: {
          cloudId:
            'dep:ZXUtd2VzdC0xLmF3cy5mb3VuZC5pbyRjZWM2ZjI2MWE3NGJmMjRjZTMzYmI4ODExYjg0Mjk0ZiRjZWM2ZjI2MWE3NGJmMjRjZTMzYmI4ODExYjg0Mjk0Zg==',
          apiKey: 'key-bbbbbbbbbbbb',
          index: 'sec-{yyyy.MM}',
        },
      },
      {
        platform: 'ELASTIC',
        name: 'ed',
        config: {
          url: 'https://es.example.com:9200',
          username: 'u',
          password: 'pw-cccccccccccc',
          index: 'sec',
        },
      },
      {
        platform: 'DATADOG',
        name: 'd',
        config: { apiKey: 'dd-dddddddddddd', site: 'datadoghq.eu', service: 'parapet', tags: ['team:sec'] },
      },
      {
        platform: 'SYSLOG',
        name: 'sy',
        config: {
          host: 'siem.example.com',
          port: 6514,
          protocol: 'TLS',
          format: 'CEF',
          facility: 'LOCAL0',
          appName: 'parapet',
        },
      },
      {
        type: 'PRELUDE',
        name: 'p',
        endpoint: 'https://prelude.example.com/idmef',
        credentials: { apiKey: 'pr-eeeeeeeeeeee', agentId: 'a1', analyzerId: 'an1' },
      },
      {
        type: 'WAZUH',
        name: 'w',
        endpoint: 'https://wazuh.example.com:9200',
        credentials: { username: 'admin', password: 'wz-ffffffffffff', agentId: '001' },
      },
      {
        type: 'OPENSEARCH',
        name: 'o',
        endpoint: 'https://os.example.com:9200',
        credentials: { username: 'admin', password: 'os-gggggggggggg', index: 'sec' },
      },
      {
        platform: 'WEBHOOK',
        name: 'cw',
        config: { url: 'https://collector.example.com/in', secret: 'wh-hhhhhhhhhhhhhhhh' },
      },
    ];
    const secrets = [
      'tok-aaaa',
      'key-bbbb',
      'pw-cccc',
      'dd-dddd',
      'pr-eeee',
      'wz-ffff',
      'os-gggg',
      'wh-hhhh',
    ];
    for (const body of shapes) {
      const res = await t.request('POST', '/api/saas/siem/integrations', { cookie, body });
      assert.equal(res.status, 201, `${body.name}: ${res.text}`);
      assert.match(res.body.id, /^siem_/);
      assert.equal(res.body.status.circuit, 'closed');
    }
    const list = await t.request('GET', '/api/saas/siem/integrations', {
      cookie: await tenant.session('viewer'),
    });
    assert.equal(list.status, 200);
    assert.equal(list.body.integrations.length, shapes.length);
    for (const s of secrets) assert.ok(!list.text.includes(s), `${s} not returned`);
    const splunkView = list.body.integrations.find((i: { name: string }) => i.name === 's');
    assert.deepEqual(splunkView.secretFields, ['config.hecToken']);
    assert.equal(splunkView.config.hecUrl, 'https://splunk.example.com:8088');
    const rows = await t.ctx.storage.db
      .selectFrom('siem_integrations')
      .selectAll()
      .where('org_id', '=', tenant.org.id)
      .execute();
    const stored = JSON.stringify(rows);
    for (const s of secrets) assert.ok(!stored.includes(s), `${s} sealed at rest`);
  });

  it('shows members and viewers only the origin of a receiver address, whose path or query may be its credential', async () => {
    const addresses = [
      {
        body: {
          platform: 'WEBHOOK',
          name: 'hook',
          config: { url: 'https://hooks.example.com/services/T000/B000/XXXXSECRETPATH?token=querysecret' },
        },
        field: (i: any) => i.config.url,
        whole: 'https://hooks.example.com/services/T000/B000/XXXXSECRETPATH?token=querysecret',
        origin: 'https://hooks.example.com/…',
      },
      {
        body: {
          platform: 'SPLUNK',
          name: 'hec',
          config: {
            hecUrl: 'https://splunk.example.com:8088/services/collector/event?channel=SECRETCHAN',
            hecToken: TOKEN,
          },
        },
        field: (i: any) => i.config.hecUrl,
        whole: 'https://splunk.example.com:8088/services/collector/event?channel=SECRETCHAN',
        origin: 'https://splunk.example.com:8088/…',
      },
      {
        body: {
          type: 'WAZUH',
          name: 'wz',
          endpoint: 'https://wazuh.example.com:9200/SECRETTENANT',
          credentials: { username: 'admin', password: 'wz-ffffffffffff' },
        },
        field: (i: any) => i.endpoint,
        whole: 'https://wazuh.example.com:9200/SECRETTENANT',
        origin: 'https://wazuh.example.com:9200/…',
      },
      {
        body: {
          type: 'PRELUDE',
          name: 'pm',
          endpoint: 'prelude://manager.example.com:4690',
          credentials: {},
        },
        field: (i: any) => i.endpoint,
        whole: 'prelude://manager.example.com:4690',
        origin: 'prelude://manager.example.com:4690',
      },
    ];
    const ids: string[] = [];
    for (const a of addresses) {
      const res = await t.request('POST', '/api/saas/siem/integrations', { cookie, body: a.body });
      assert.equal(res.status, 201, res.text);
      assert.equal(a.field(res.body), a.whole, 'the admin who created it sees it whole');
      ids.push(res.body.id);
    }
    const readers = [
      ['member', { cookie: await tenant.session('member') }],
      ['viewer', { cookie: await tenant.session('viewer') }],
      ['owner', { cookie }],
      ['admin', { cookie: await tenant.session('admin') }],
      ['admin-scope key', { key: tenant.admin }],
    ] as const;
    for (const [who, auth] of readers) {
      const limited = who === 'member' || who === 'viewer';
      const list = await t.request('GET', '/api/saas/siem/integrations', auth);
      assert.equal(list.status, 200, `${who}: ${list.text}`);
      for (const [n, a] of addresses.entries()) {
        const one = await t.request('GET', `/api/saas/siem/integrations/${ids[n]}`, auth);
        assert.equal(one.status, 200, one.text);
        const listed = list.body.integrations.find((i: { id: string }) => i.id === ids[n]);
        for (const view of [listed, one.body])
          assert.equal(a.field(view), limited ? a.origin : a.whole, `${who}, ${a.body.name}`);
      }
      if (limited) {
        for (const secret of ['SECRETPATH', 'querysecret', 'SECRETCHAN', 'SECRETTENANT'])
          assert.ok(!list.text.includes(secret), `${who} reads ${secret}`);
      }
      assert.ok(!list.text.includes(TOKEN) && !list.text.includes('wz-ffff'), `${who}: credentials never`);
    }
  });

  it("never stores a receiver's query in an error, and shows members and viewers only the kind of failure", async () => {
    // A collector that echoes the request it refused, credential-bearing query included.
    const echo = await startFakeHttp((req) => ({
      status: 404,
      body: `Cannot POST ${req.path}?${req.query.toString()} (route-ECHOPATH)`,
    }));
    try {
      const res = await t.request('POST', '/api/saas/siem/integrations', {
        cookie,
        body: {
          platform: 'WEBHOOK',
          name: 'echo',
          eventTypes: ['DETECTION'],
          config: { url: `${echo.url}/collect?token=QUERYSECRET42` },
        },
      });
      assert.equal(res.status, 201, res.text);
      const id = res.body.id as string;
      echo.fail({ status: 500, body: `Cannot POST /collect?token=QUERYSECRET42 (route-ECHOPATH)` });
      await publish('detection.created', { severity: 'HIGH' });
      await workers.runDue();
      const failing = await status(id);
      assert.match(
        failing.lastError,
        /^HTTP 500: Cannot POST \/collect\?… \(route-ECHOPATH\)/,
        'owners see the answer',
      );
      clock.advance(new Date(failing.nextAttemptAt).getTime() - clock.now().getTime());
      await workers.runDue();
      assert.equal(echo.requests.length, 2);
      const db = t.ctx.storage.db;
      const stored = JSON.stringify([
        // The address itself is kept (owners see it whole); its failures are not.
        await db.selectFrom('siem_integrations').select('last_error').where('id', '=', id).execute(),
        await db.selectFrom('siem_queue').selectAll().execute(),
      ]);
      assert.match(stored, /HTTP 404: Cannot POST \/collect\?…/);
      assert.ok(!stored.includes('QUERYSECRET42'), 'no query stored with the failure');

      const member = { cookie: await tenant.session('member') };
      const viewer = { cookie: await tenant.session('viewer') };
      for (const auth of [member, viewer]) {
        const one = await t.request('GET', `/api/saas/siem/integrations/${id}`, auth);
        assert.equal(one.status, 200, one.text);
        assert.equal(one.body.status.lastError, 'HTTP 404 (the details are shown to owners and admins)');
        const list = await t.request('GET', '/api/saas/siem/integrations', auth);
        const dl = await t.request('GET', `/api/saas/siem/integrations/${id}/dead-letters`, auth);
        assert.equal(dl.status, 200, dl.text);
        assert.equal(dl.body.deadLetters[0].error, 'HTTP 404 (the details are shown to owners and admins)');
        for (const text of [one.text, list.text, dl.text]) {
          assert.ok(!text.includes('ECHOPATH') && !text.includes('QUERYSECRET42'), text);
        }
      }
      const dl = await t.request('GET', `/api/saas/siem/integrations/${id}/dead-letters`, { cookie });
      assert.match(dl.body.deadLetters[0].error, /^HTTP 404: Cannot POST \/collect\?… \(route-ECHOPATH\)/);
    } finally {
      await echo.close();
    }
  });

  it('refuses a body that matches no platform shape', async () => {
    const res = await t.request('POST', '/api/saas/siem/integrations', {
      cookie,
      body: { platform: 'SPLUNK', name: 'x', config: { hecUrl: hec.url } },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.message, "The body field 'config.hecToken' is required.");
    // A shape named by `type` is judged as that shape, not as the first one (which wants `platform`).
    const wazuh = await t.request('POST', '/api/saas/siem/integrations', {
      cookie,
      body: { type: 'WAZUH', name: 'x', endpoint: hec.url },
    });
    assert.equal(wazuh.status, 400);
    assert.equal(wazuh.body.message, "The body field 'credentials' is required.");
    const unknown = await t.request('POST', '/api/saas/siem/integrations', {
      cookie,
      body: { platform: 'SPLUNKX', name: 'x', config: {} },
    });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.message, /'platform' must be one of: SPLUNK, ELASTIC/);
  });

  it('takes categories, exact event types and prefixes in eventTypes, and names the unknown ones', async () => {
    const { id } = await splunk({ eventTypes: ['dlp.blocked', 'audit.*', 'AUTHENTICATION'] });
    const got = await t.request('GET', `/api/saas/siem/integrations/${id}`, { cookie });
    assert.deepEqual(got.body.eventTypes, ['dlp.blocked', 'audit.*', 'AUTHENTICATION']);
    const before = hec.envelopes.length;
    const blocked = await publish('dlp.blocked', { severity: 'HIGH' });
    await publish('dlp.violation', { severity: 'HIGH' });
    const settings = await publish('audit.settings', { setting: 'dlp' });
    await workers.runDue();
    assert.deepEqual(envelopeIds().slice(before), [blocked!.id, settings!.id]);
    const bad = await postSplunk({ name: 'typo', eventTypes: ['DLP', 'dlp.blockd', 'nope.*'] });
    assert.equal(bad.status, 400, bad.text);
    assert.match(bad.body.message, /eventTypes: unknown "dlp.blockd", "nope.\*"/);
    const patch = await t.request('PATCH', `/api/saas/siem/integrations/${id}`, {
      cookie,
      body: { eventTypes: ['detection.highseverity'] },
    });
    assert.equal(patch.status, 400, patch.text);
    assert.match(patch.body.message, /"detection.highseverity"/);
  });

  it('without eventTypes forwards every category (authentication and audit too) and says so; reseller shapes detection and DLP', async () => {
    const res = await postSplunk({ name: 'All' });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body.eventTypes, ['DETECTION', 'DLP', 'AUTHENTICATION', 'AUDIT']);
    const before = hec.envelopes.length;
    const login = await publish('audit.login', { userId: 'u1' });
    const settings = await publish('audit.settings', { setting: 'dlp' });
    await workers.runDue();
    assert.deepEqual(envelopeIds().slice(before), [login!.id, settings!.id]);
    const prelude = await t.request('POST', '/api/saas/siem/integrations', {
      cookie,
      body: {
        type: 'PRELUDE',
        name: 'p',
        endpoint: 'https://prelude.example.com/idmef',
        credentials: { apiKey: 'pr-eeeeeeeeeeee', agentId: 'a1', analyzerId: 'an1' },
        forwardDlp: false,
      },
    });
    assert.equal(prelude.status, 201, prelude.text);
    assert.deepEqual(prelude.body.eventTypes, ['DETECTION']);
    // Its creation is an audit event the first integration takes: sent now, not in the next test's count.
    await workers.runDue();
  });

  it('forwards matching events, filters the rest, and keeps secrets on update', async () => {
    const { id } = await splunk({ minSeverity: 'MEDIUM' });
    const before = hec.envelopes.length;
    const det = await publish('detection.created', {
      severity: 'HIGH',
      riskScore: 90,
      category: 'DAN_JAILBREAK',
    });
    await publish('detection.created', { severity: 'LOW' }); // below minSeverity
    await publish('user.joined', { userId: 'u1' }); // AUTHENTICATION: not subscribed
    const quota = await publish('quota.exceeded', { product: 'detection' }); // AUDIT, MEDIUM
    await workers.runDue();
    assert.deepEqual(envelopeIds().slice(before), [det!.id, quota!.id]);
    const st = await status(id);
    assert.equal(st.queued, 0);
    assert.equal(st.delivered, 2);
    const upd = await t.request('PATCH', `/api/saas/siem/integrations/${id}`, {
      cookie,
      body: { eventTypes: ['AUTHENTICATION'], minSeverity: 'LOW', config: { index: 'auth' } },
    });
    assert.equal(upd.status, 200, upd.text);
    assert.equal(upd.body.config.index, 'auth');
    const user = await publish('user.removed', { userId: 'u1' });
    await workers.runDue();
    assert.equal(envelopeIds().at(-1), user!.id, 'token kept across the update');
  });

  it('never carries a stored credential to a new destination: a changed receiver needs the credential again', async () => {
    const { id } = await splunk();
    const rogue = await startHecFake('rogue-token-0000');
    try {
      const moved = await t.request('PATCH', `/api/saas/siem/integrations/${id}`, {
        cookie,
        body: { config: { hecUrl: rogue.url } },
      });
      assert.equal(moved.status, 400, moved.text);
      assert.equal(moved.body.error, 'invalid_request');
      assert.match(moved.body.message, /config\.hecUrl changed: send config\.hecToken again/);
      assert.doesNotMatch(moved.text, new RegExp(TOKEN));
      const kept = await t.request('GET', `/api/saas/siem/integrations/${id}`, { cookie });
      assert.equal(kept.body.config.hecUrl, hec.url, 'the refused change is not stored');
      await publish('detection.created', { severity: 'HIGH' });
      await workers.runDue();
      assert.equal(rogue.requests.length, 0, 'the new host never received the stored token');
      // Given again with the new destination, the change is an ordinary one.
      const withToken = await t.request('PATCH', `/api/saas/siem/integrations/${id}`, {
        cookie,
        body: { config: { hecUrl: rogue.url, hecToken: 'rogue-token-0000' } },
      });
      assert.equal(withToken.status, 200, withToken.text);
      // A field beside the destination still merges without the secret.
      const other = await t.request('PATCH', `/api/saas/siem/integrations/${id}`, {
        cookie,
        body: { config: { index: 'other' } },
      });
      assert.equal(other.status, 200, other.text);
    } finally {
      await rogue.close();
    }
  });

  it('opens the breaker while the SIEM fails, keeps events queued, then drains them in creation order', async () => {
    const { id } = await splunk();
    const before = hec.envelopes.length;
    hec.fail({ status: 503, body: { text: 'Server is busy', code: 9 } });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await publish('detection.created', { severity: 'HIGH', n: i }))!.id);
    await workers.runDue();
    let st = await status(id);
    assert.equal(st.circuit, 'open');
    assert.equal(st.queued, 5);
    assert.equal(st.consecutiveFailures, 1);
    const requests = hec.requests.length;
    await workers.runDue();
    assert.equal(hec.requests.length, requests, 'no network call while open');
    hec.fail('reset');
    clock.advance(new Date(st.nextAttemptAt).getTime() - clock.now().getTime());
    await workers.runDue();
    st = await status(id);
    assert.equal(st.consecutiveFailures, 2);
    assert.equal(st.queued, 5);
    clock.advance(new Date(st.nextAttemptAt).getTime() - clock.now().getTime());
    for (let i = 5; i < 8; i++)
      ids.push((await publish('detection.created', { severity: 'HIGH', n: i }))!.id);
    await workers.runDue();
    await workers.runDue();
    st = await status(id);
    assert.equal(st.circuit, 'closed');
    assert.equal(st.queued, 0);
    assert.deepEqual(envelopeIds().slice(before), ids, 'every event once, oldest first');
  });

  it('dead-letters events the SIEM refuses for good, shows them, and retries them on request', async () => {
    const { id } = await splunk();
    hec.fail({ status: 400, body: { text: 'Invalid data format', code: 6 } });
    const ev = await publish('detection.created', { severity: 'HIGH' });
    await workers.runDue();
    const st = await status(id);
    assert.equal(st.deadLettered, 1);
    assert.equal(st.queued, 0);
    assert.equal(st.circuit, 'closed');
    const dl = await t.request('GET', `/api/saas/siem/integrations/${id}/dead-letters`, { cookie });
    assert.equal(dl.status, 200);
    assert.equal(dl.body.deadLetters[0].eventId, ev!.id);
    assert.match(dl.body.deadLetters[0].error, /Invalid data format/, dl.text);
    const retry = await t.request('POST', `/api/saas/siem/integrations/${id}/dead-letters/retry`, { cookie });
    assert.equal(retry.body.requeued, 1);
    await workers.runDue();
    assert.equal(envelopeIds().at(-1), ev!.id);
    assert.equal((await status(id)).deadLettered, 0);
  });

  it('keeps events on authentication failures instead of dropping them', async () => {
    const { id } = await splunk({ config: { hecUrl: hec.url, hecToken: 'wrong-token' } });
    await publish('detection.created', { severity: 'HIGH' });
    await workers.runDue();
    const st = await status(id);
    assert.equal(st.queued, 1);
    assert.equal(st.deadLettered, 0);
    assert.match(st.lastError, /403/);
    await t.request('PATCH', `/api/saas/siem/integrations/${id}`, {
      cookie,
      body: { config: { hecToken: TOKEN } },
    });
    await workers.runDue();
    assert.equal((await status(id)).queued, 0);
  });

  it('creating, disabling and deleting an integration are audit events the other integrations receive, without secrets', async () => {
    // Switching the forwarding off or deleting it left no trace: the first thing an intruder would do.
    await splunk({ eventTypes: ['AUDIT'], config: { hecUrl: hec.url, hecToken: TOKEN, index: 'watch' } });
    await workers.runDue();
    const before = hec.envelopes.length;
    const made = await t.request('POST', '/api/saas/siem/integrations', {
      key: tenant.admin,
      body: {
        platform: 'SPLUNK',
        name: 'Second',
        eventTypes: ['DETECTION'],
        config: { hecUrl: hec.url, hecToken: 'second-secret-token-9d1e', index: 'other' },
      },
    });
    assert.equal(made.status, 201, made.text);
    const off = await t.request('PATCH', `/api/saas/siem/integrations/${made.body.id}`, {
      cookie,
      body: { enabled: false, config: { hecToken: 'third-secret-token-2b7a' } },
    });
    assert.equal(off.status, 200, off.text);
    const del = await t.request('DELETE', `/api/saas/siem/integrations/${made.body.id}`, { cookie });
    assert.equal(del.status, 200, del.text);
    await workers.runDue();
    const seen = hec.envelopes.slice(before).map((e) => e['event'] as Record<string, any>);
    assert.deepEqual(
      seen.map((e) => [e['eventType'], e['data'].action, e['severity']]),
      [
        ['audit.siem_integration', 'siem_integration_created', 'MEDIUM'],
        ['audit.siem_integration', 'siem_integration_disabled', 'HIGH'],
        ['audit.siem_integration', 'siem_integration_deleted', 'HIGH'],
      ],
    );
    const owner = (await t.request('GET', '/api/dashboard/auth/me', { cookie })).body.user.id;
    assert.equal(seen[0]!['data'].targetId, made.body.id);
    assert.equal(seen[0]!['data'].actor.apiKeyId !== null, true);
    assert.deepEqual(seen[1]!['data'].changed, ['config', 'enabled']);
    assert.equal(seen[1]!['data'].actor.userId, owner);
    const text = JSON.stringify(hec.envelopes.slice(before));
    assert.ok(!/second-secret-token|third-secret-token/.test(text), 'no secret in the events');
  });

  it('tests the connection on request', async () => {
    const { id } = await splunk();
    const ok = await t.request('POST', `/api/saas/siem/integrations/${id}/test`, { cookie });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.success, true);
    assert.equal(ok.body.responseCode, 200);
    hec.fail({ status: 503 });
    const bad = await t.request('POST', `/api/saas/siem/integrations/${id}/test`, { cookie });
    assert.equal(bad.body.success, false);
    assert.equal(bad.body.responseCode, 503);
  });

  it('moves the oldest events past the queue bound to the dead-letter state, never silently', async () => {
    const { id } = await splunk();
    await t.ctx.storage.db
      .updateTable('siem_integrations')
      .set({ queue_limit: 3 })
      .where('id', '=', id)
      .execute();
    hec.fail({ status: 503 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await publish('detection.created', { severity: 'HIGH' }))!.id);
    await workers.runDue();
    const st = await status(id);
    assert.equal(st.queued, 3);
    assert.equal(st.deadLettered, 2);
    const dl = await t.request('GET', `/api/saas/siem/integrations/${id}/dead-letters`, { cookie });
    assert.deepEqual(
      dl.body.deadLetters.map((d: { eventId: string }) => d.eventId),
      ids.slice(0, 2),
    );
    assert.match(dl.body.deadLetters[0].error, /queue_full/);
  });
});

describe('SIEM webhook custom headers', () => {
  let receiver: WebhookFake;
  before(async () => {
    receiver = await startWebhookFake();
  });
  after(async () => {
    await receiver.close();
  });
  const create = (headers: Record<string, string>) =>
    t.request('POST', '/api/saas/siem/integrations', {
      cookie,
      body: { platform: 'WEBHOOK', name: 'collector', config: { url: receiver.url, headers } },
    });

  it('sends a valid header as given', async () => {
    const res = await create({ 'X-Collector-Token': 'tok 123/=' });
    assert.equal(res.status, 201, res.text);
    const test = await t.request('POST', `/api/saas/siem/integrations/${res.body.id}/test`, { cookie });
    assert.equal(test.body.success, true, test.text);
    const last = receiver.deliveries.at(-1)!.request;
    assert.equal(last.headers['x-collector-token'], 'tok 123/=');
  });

  it('refuses header names and values that are not HTTP, and headers the transport owns', async () => {
    const refused: [Record<string, string>, RegExp][] = [
      [{ 'X-Token': 'abc\r\nX-Injected: 1' }, /config\.headers\.X-Token/],
      [{ 'X-Token': 'abc\nX-Injected: 1' }, /config\.headers\.X-Token/],
      [{ 'X-Token': 'nul\u0000' }, /config\.headers\.X-Token/],
      [{ 'X-Token': 'caf\u00e9 \u2028' }, /config\.headers\.X-Token/],
      [{ 'X Bad:Name': 'abc' }, /config\.headers/],
      [{ 'X-Evil\r\nInjected': 'abc' }, /config\.headers/],
      [{ 'Transfer-Encoding': 'chunked' }, /Transfer-Encoding/],
      [{ Connection: 'close' }, /Connection/],
      [{ Host: 'internal.example' }, /Host/],
      [{ 'content-length': '0' }, /content-length/],
      [{ 'X-Service-Signature': 'sha256=forged' }, /X-Service-Signature/],
    ];
    for (const [headers, mentions] of refused) {
      const res = await create(headers);
      assert.equal(res.status, 400, `${JSON.stringify(headers)}: ${res.text}`);
      assert.equal(res.body.error, 'invalid_request');
      assert.match(res.body.message, mentions);
    }
    // the same rule when an integration is changed
    const ok = await create({ 'X-Collector-Token': 'fine' });
    assert.equal(ok.status, 201, ok.text);
    const patch = await t.request('PATCH', `/api/saas/siem/integrations/${ok.body.id}`, {
      cookie,
      body: { config: { url: receiver.url, headers: { 'X-Token': 'a\r\nb: c' } } },
    });
    assert.equal(patch.status, 400, patch.text);
    assert.match(patch.body.message, /config\.headers\.X-Token/);
  });
});
