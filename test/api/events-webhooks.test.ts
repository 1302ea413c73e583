import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createEventWorkers, type EventWorkers } from '../../src/main/worker.js';
import { ManualClock } from '../../src/platform/clock/index.js';
import { startWebhookFake, type WebhookFake } from '../receivers/webhook-fake.js';
import { type Tenant, type TestServer, startTestServer } from '../support/harness.js';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

let t: TestServer;
let clock: ManualClock;
let workers: EventWorkers;
let owner: Tenant;
let cookie: string;

before(async () => {
  // Receivers check timestamps against their real clock, so the manual clock starts at real time.
  clock = new ManualClock(new Date());
  t = await startTestServer({ clock });
  workers = createEventWorkers(t.ctx);
  owner = await t.tenant({ name: 'Hooks Inc', plan: 'enterprise' });
  cookie = await owner.session('owner');
});
after(async () => {
  await workers.close();
  await t.close();
});

async function hookTo(fake: WebhookFake, secret: string, events: string[] = ['*'], c = cookie) {
  const res = await t.request('POST', '/api/webhooks', {
    cookie: c,
    body: { url: `${fake.url}/hook`, events, secret, metadata: { team: 'sec' } },
  });
  assert.equal(res.status, 201, res.text);
  return res.body as { id: string; secret: string };
}

const publish = (
  type: 'api_key.created' | 'detection.created' | 'dlp.violation',
  data: Record<string, unknown> = {},
  tenant = owner,
) => t.ctx.events.publishFor(t.ctx.storage.db, tenant.org.id, type, data);

describe('webhook management', () => {
  it('creates with a generated whsec_ secret shown once, then lists and reads without it', async () => {
    const res = await t.request('POST', '/api/webhooks', {
      cookie,
      body: { url: 'https://hooks.example.com/in', events: ['detection.created', 'api_key.revoked'] },
    });
    assert.equal(res.status, 201, res.text);
    assert.match(res.body.id, /^wh_/);
    assert.match(res.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(res.body.enabled, true);
    assert.deepEqual(res.body.events, ['detection.created', 'api_key.revoked']);
    const got = await t.request('GET', `/api/webhooks/${res.body.id}`, {
      cookie: await owner.session('viewer'),
    });
    assert.equal(got.status, 200);
    assert.equal(got.body.secret, undefined);
    // A viewer or member sees the origin only: a chat webhook's path is its credential.
    assert.equal(got.body.url, 'https://hooks.example.com/…');
    const list = await t.request('GET', '/api/webhooks', { cookie });
    assert.ok(
      list.body.webhooks.some(
        (w: { id: string; url: string }) => w.id === res.body.id && w.url === 'https://hooks.example.com/in',
      ),
    );
    assert.ok(!list.text.includes(res.body.secret));
    const asMember = await t.request('GET', '/api/webhooks', { cookie: await owner.session('member') });
    assert.equal(asMember.status, 200);
    assert.ok(!asMember.text.includes('hooks.example.com/in'), asMember.text);
  });

  it('refuses non-HTTPS URLs, unknown event types and weak secrets', async () => {
    const bad = [
      { url: 'http://hooks.example.com/in', events: ['*'] },
      { url: 'ftp://hooks.example.com/in', events: ['*'] },
      { url: 'https://169.254.169.254/latest', events: ['*'] },
      { url: 'https://hooks.example.com/in', events: ['detection.nonsense'] },
      { url: 'https://hooks.example.com/in', events: ['*'], secret: 'whsec_short' },
    ];
    for (const body of bad) {
      const res = await t.request('POST', '/api/webhooks', { cookie, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error, 'invalid_request');
    }
  });

  it('refuses metadata keys that are empty or over 100 characters, naming the field', async () => {
    // The key limit was declared but dropped by the schema (only values were checked).
    for (const key of ['', 'k'.repeat(101)]) {
      const res = await t.request('POST', '/api/webhooks', {
        cookie,
        body: { url: 'https://hooks.example.com/in', events: ['*'], metadata: { [key]: 'v' } },
      });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.error, 'invalid_request');
      assert.match(
        res.body.message,
        /^Each key of the body field 'metadata' must be at (least 1|most 100) characters/,
      );
    }
    const ok = await t.request('POST', '/api/webhooks', {
      cookie,
      body: { url: 'https://hooks.example.com/in', events: ['*'], metadata: { ['k'.repeat(100)]: 'v' } },
    });
    assert.equal(ok.status, 201, ok.text);
    await t.request('DELETE', `/api/webhooks/${ok.body.id}`, { cookie });
  });

  it('creating, changing, rotating and deleting a webhook are audit events (SIEM only), with the URL origin and no secret', async () => {
    // A webhook is a channel out of the organization; adding or redirecting one left no trace.
    const org = await t.tenant({ plan: 'business' });
    const c = await org.session('admin');
    const me = (await t.request('GET', '/api/dashboard/auth/me', { cookie: c })).body.user.id;
    const made = await t.request('POST', '/api/webhooks', {
      key: org.admin,
      body: { url: 'https://hooks.example.com/in/T0KEN-in-path?sig=abc', events: ['detection.created'] },
    });
    assert.equal(made.status, 201, made.text);
    const id = made.body.id as string;
    const moved = await t.request('PATCH', `/api/webhooks/${id}`, {
      cookie: c,
      body: { url: 'https://elsewhere.example.net/x/S3CRET', enabled: false },
    });
    assert.equal(moved.status, 200, moved.text);
    const rotated = await t.request('POST', `/api/webhooks/${id}/rotate-secret`, { cookie: c, body: {} });
    assert.equal(rotated.status, 200, rotated.text);
    assert.equal((await t.request('DELETE', `/api/webhooks/${id}`, { cookie: c })).status, 200);
    const rows = await t.ctx.storage.db
      .selectFrom('events')
      .selectAll()
      .where('org_id', '=', org.org.id)
      .where('type', '=', 'audit.webhook')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const data = rows.map((r) => JSON.parse(r.data as string));
    assert.deepEqual(
      data.map((d) => [d.action, d.targetId, d.urlOrigin]),
      [
        ['webhook_created', id, 'https://hooks.example.com'],
        ['webhook_updated', id, 'https://elsewhere.example.net'],
        ['webhook_secret_rotated', id, 'https://elsewhere.example.net'],
        ['webhook_deleted', id, 'https://elsewhere.example.net'],
      ],
    );
    assert.equal(data[0].actor.apiKeyId !== null, true);
    assert.deepEqual(data[1].changed, ['enabled', 'url']);
    assert.equal(data[1].previousUrlOrigin, 'https://hooks.example.com');
    assert.equal(data[3].actor.userId, me);
    const text = JSON.stringify(rows);
    for (const secret of ['T0KEN', 'sig=abc', 'S3CRET', made.body.secret, rotated.body.secret])
      assert.ok(!text.includes(secret), secret);
    // Audit events never go to webhooks: nothing was queued for one.
    const queued = await t.ctx.storage.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('org_id', '=', org.org.id)
      .execute();
    assert.equal(queued.length, 0);
  });

  it('refuses loopback when the deployment does not allow private targets', async () => {
    const strict = await startTestServer({ env: { PARAPET_ALLOW_PRIVATE_TARGETS: 'false' } });
    try {
      const tenant = await strict.tenant();
      for (const url of [
        'http://127.0.0.1:9/x',
        'https://127.0.0.1/x',
        'https://localhost/x',
        'https://10.1.2.3/x',
      ]) {
        const res = await strict.request('POST', '/api/webhooks', {
          cookie: await tenant.session('owner'),
          body: { url, events: ['*'] },
        });
        assert.equal(res.status, 400, url);
      }
    } finally {
      await strict.close();
    }
  });

  it('updates, disables and deletes', async () => {
    const created = await t.request('POST', '/api/webhooks', {
      cookie,
      body: { url: 'https://a.example.com/x', events: ['*'] },
    });
    const id = created.body.id as string;
    const upd = await t.request('PATCH', `/api/webhooks/${id}`, {
      cookie,
      body: { url: 'https://b.example.com/y', enabled: false, events: ['quota.warning'] },
    });
    assert.equal(upd.status, 200, upd.text);
    assert.equal(upd.body.url, 'https://b.example.com/y');
    assert.equal(upd.body.enabled, false);
    assert.deepEqual(upd.body.events, ['quota.warning']);
    assert.equal((await t.request('DELETE', `/api/webhooks/${id}`, { cookie })).status, 200);
    assert.equal((await t.request('GET', `/api/webhooks/${id}`, { cookie })).status, 404);
  });
});

describe('webhook delivery', () => {
  // A tenant per test, so that one test's endpoints never see another's events.
  beforeEach(async () => {
    // Receivers reject signatures more than 300 s away from their real clock.
    clock.set(new Date());
    owner = await t.tenant({ name: 'Hooks Inc', plan: 'enterprise' });
    cookie = await owner.session('owner');
  });

  it('delivers the Event body signed with both schemes, verified by the standardwebhooks library', async () => {
    const secret = newSecret();
    const fake = await startWebhookFake(secret);
    try {
      const hook = await hookTo(fake, secret, ['api_key.created']);
      const ev = await publish('api_key.created', { keyId: 'key_1', kind: 'al' });
      assert.ok(ev);
      assert.equal((await workers.runDue()).webhooks, 1);
      assert.equal(fake.deliveries.length, 1);
      const d = fake.deliveries[0]!;
      assert.equal(d.serviceSignatureValid, true);
      assert.equal(d.standardSignatureValid, true);
      assert.equal(d.request.headers['x-service-event-id'], ev.id);
      assert.equal(d.request.headers['x-service-event-type'], 'api_key.created');
      assert.match(String(d.request.headers['x-service-signature']), /^sha256=[0-9a-f]{64}$/);
      assert.equal(d.request.headers['webhook-id'], ev.id);
      const body = JSON.parse(d.request.text);
      assert.deepEqual(body, {
        id: ev.id,
        type: 'api_key.created',
        created: ev.created,
        data: { keyId: 'key_1', kind: 'al' },
        organization: { id: owner.org.id, name: 'Hooks Inc' },
      });
      const list = await t.request('GET', `/api/webhooks/${hook.id}/deliveries`, { cookie });
      assert.equal(list.status, 200);
      assert.deepEqual(list.body.pagination, { total: 1, page: 1, perPage: 20 });
      const del = list.body.deliveries[0];
      assert.match(del.id, /^del_/);
      assert.equal(del.status, 'delivered');
      assert.equal(del.eventId, ev.id);
      assert.equal(del.responseCode, 200);
      assert.equal(del.attempts, 1);
      assert.equal(del.nextRetryAt, null);
      assert.ok(del.deliveredAt);
      // a second round finds nothing due: delivered once
      assert.equal((await workers.runDue()).webhooks, 0);
      assert.equal(fake.deliveries.length, 1);
    } finally {
      await fake.close();
    }
  });

  it('wakes the delivery workers only for events that queued a delivery', async () => {
    const woken: string[] = [];
    const stop = t.ctx.events.onQueued((_org, ev) => woken.push(ev.type));
    const secret = newSecret();
    const fake = await startWebhookFake(secret);
    try {
      // No subscriber yet: the event is stored, nobody is woken (a tokenizing request publishes one each).
      assert.ok(await publish('dlp.violation', { count: 1 }));
      assert.deepEqual(woken, []);
      await hookTo(fake, secret, ['api_key.created']);
      // A subscriber to other types only: still nothing queued.
      assert.ok(await publish('dlp.violation', { count: 1 }));
      assert.deepEqual(woken, []);
      assert.ok(await publish('api_key.created', { keyId: 'key_2', kind: 'al' }));
      assert.deepEqual(woken, ['api_key.created']);
      assert.equal((await workers.runDue()).webhooks, 1);
    } finally {
      stop();
      await fake.close();
    }
  });

  it('retries at 0 s, 1 s, 5 s, 30 s, 2 min, then fails with nextRetryAt null; recover sends it again', async () => {
    const secret = newSecret();
    const fake = await startWebhookFake(secret);
    try {
      const hook = await hookTo(fake, secret, ['detection.created']);
      fake.fail({ status: 500 }, { status: 502 }, { status: 503 }, { status: 500 }, { status: 500 });
      const start = clock.now().getTime();
      await publish('detection.created', { severity: 'HIGH' });
      const gaps = [1000, 5000, 30000, 120000];
      await workers.runDue();
      for (const gap of gaps) {
        clock.advance(gap - 1);
        assert.equal((await workers.runDue()).webhooks, 0, `nothing before ${gap} ms`);
        clock.advance(1);
        assert.equal((await workers.runDue()).webhooks, 1, `attempt after ${gap} ms`);
      }
      assert.equal(fake.requests.length, 5);
      clock.advance(3_600_000);
      assert.equal((await workers.runDue()).webhooks, 0);
      const list = await t.request('GET', `/api/webhooks/${hook.id}/deliveries`, { cookie });
      const del = list.body.deliveries[0];
      assert.equal(del.status, 'failed');
      assert.equal(del.attempts, 5);
      assert.equal(del.nextRetryAt, null);
      assert.equal(del.responseCode, 500);
      const detail = await t.request('GET', `/api/webhooks/${hook.id}/deliveries/${del.id}`, { cookie });
      assert.equal(detail.status, 200);
      assert.deepEqual(
        detail.body.attempts.map((a: { responseCode: number; errorClass: string }) => [
          a.responseCode,
          a.errorClass,
        ]),
        [
          [500, 'http_status'],
          [502, 'http_status'],
          [503, 'http_status'],
          [500, 'http_status'],
          [500, 'http_status'],
        ],
      );
      clock.set(new Date());
      const backwards = await t.request('POST', `/api/webhooks/${hook.id}/recover`, {
        cookie,
        body: { since: new Date(start).toISOString(), until: new Date(start - 60_000).toISOString() },
      });
      assert.equal(backwards.status, 400, 'an empty window is refused, not answered with 0 recovered');
      assert.match(backwards.body.message, /'until' .* must be later than 'since'/);
      const rec = await t.request('POST', `/api/webhooks/${hook.id}/recover`, {
        cookie,
        body: { since: new Date(start - 1000).toISOString() },
      });
      assert.equal(rec.status, 202, rec.text);
      assert.equal(rec.body.recovered, 1);
      assert.equal((await workers.runDue()).webhooks, 1);
      const again = await t.request('GET', `/api/webhooks/${hook.id}/deliveries/${del.id}`, { cookie });
      assert.equal(again.body.delivery.status, 'delivered');
      assert.equal(fake.deliveries.at(-1)!.standardSignatureValid, true);
    } finally {
      await fake.close();
    }
  });

  it('honours a longer Retry-After, records network errors by class, and redelivers on request', async () => {
    const secret = newSecret();
    const fake = await startWebhookFake(secret);
    try {
      const hook = await hookTo(fake, secret, ['api_key.created']);
      fake.fail({ status: 429, headers: { 'retry-after': '60' } });
      await publish('api_key.created');
      await workers.runDue();
      const list = await t.request('GET', `/api/webhooks/${hook.id}/deliveries`, { cookie });
      const del = list.body.deliveries[0];
      assert.equal(del.status, 'pending');
      assert.equal(new Date(del.nextRetryAt).getTime() - new Date(del.lastAttemptAt).getTime(), 60_000);
      fake.fail('reset');
      clock.advance(60_000);
      await workers.runDue();
      const detail = await t.request('GET', `/api/webhooks/${hook.id}/deliveries/${del.id}`, { cookie });
      assert.equal(detail.body.attempts[1].errorClass, 'connection_reset');
      assert.equal(detail.body.attempts[1].responseCode, null);
      clock.advance(5_000);
      await workers.runDue();
      const done = await t.request('GET', `/api/webhooks/${hook.id}/deliveries/${del.id}`, { cookie });
      assert.equal(done.body.delivery.status, 'delivered');
      assert.equal(done.body.delivery.attempts, 3);
      const re = await t.request('POST', `/api/webhooks/${hook.id}/deliveries/${del.id}/redeliver`, {
        cookie,
      });
      assert.equal(re.status, 202, re.text);
      assert.equal(re.body.delivery.status, 'pending');
      const before = fake.deliveries.length;
      await workers.runDue();
      assert.equal(fake.deliveries.length, before + 1);
      assert.equal(fake.deliveries.at(-1)!.request.headers['x-service-event-id'], del.eventId);
    } finally {
      await fake.close();
    }
  });

  it('disables the endpoint on 410 Gone and stops queueing deliveries for it', async () => {
    const secret = newSecret();
    const fake = await startWebhookFake(secret);
    try {
      const hook = await hookTo(fake, secret, ['api_key.created']);
      fake.fail({ status: 410 });
      await publish('api_key.created');
      await workers.runDue();
      const got = await t.request('GET', `/api/webhooks/${hook.id}`, { cookie });
      assert.equal(got.body.enabled, false);
      assert.match(got.body.disabledReason, /410/);
      const list = await t.request('GET', `/api/webhooks/${hook.id}/deliveries`, { cookie });
      assert.equal(list.body.deliveries[0].status, 'failed');
      await publish('api_key.created');
      await workers.runDue();
      assert.equal(fake.requests.length, 1);
      const on = await t.request('PATCH', `/api/webhooks/${hook.id}`, { cookie, body: { enabled: true } });
      assert.equal(on.body.disabledReason, null);
    } finally {
      await fake.close();
    }
  });

  it('signs with old and new secrets during a rotation grace period', async () => {
    const oldSecret = newSecret();
    const fake = await startWebhookFake(oldSecret);
    try {
      const hook = await hookTo(fake, oldSecret, ['api_key.created']);
      const rot = await t.request('POST', `/api/webhooks/${hook.id}/rotate-secret`, { cookie, body: {} });
      assert.equal(rot.status, 200, rot.text);
      const newSecretValue = rot.body.secret as string;
      assert.match(newSecretValue, /^whsec_/);
      assert.equal(new Date(rot.body.previousSecretExpiresAt).getTime() - clock.now().getTime(), 86_400_000);
      await publish('api_key.created');
      await workers.runDue();
      const d = fake.deliveries.at(-1)!;
      assert.equal(d.standardSignatureValid, true, 'old secret still verifies');
      assert.equal(String(d.request.headers['webhook-signature']).split(' ').length, 2);
      assert.doesNotThrow(() =>
        new Webhook(newSecretValue).verify(d.request.text, d.request.headers as Record<string, string>),
      );
      const now = await t.request('POST', `/api/webhooks/${hook.id}/rotate-secret`, {
        cookie,
        body: { graceSeconds: 0 },
      });
      assert.equal(now.body.previousSecretExpiresAt, null);
      await publish('api_key.created');
      await workers.runDue();
      const last = fake.deliveries.at(-1)!;
      assert.equal(last.standardSignatureValid, false, 'old secret retired');
      assert.equal(String(last.request.headers['webhook-signature']).split(' ').length, 1);
      assert.doesNotThrow(() =>
        new Webhook(now.body.secret).verify(
          last.request.text,
          last.request.headers as Record<string, string>,
        ),
      );
    } finally {
      await fake.close();
    }
  });

  it('sends a test event on request and reports the answer', async () => {
    const secret = newSecret();
    const fake = await startWebhookFake(secret);
    try {
      const hook = await hookTo(fake, secret, ['api_key.created']);
      const res = await t.request('POST', `/api/webhooks/${hook.id}/test`, {
        cookie,
        body: { eventType: 'detection.high_severity' },
      });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.success, true);
      assert.equal(res.body.responseCode, 200);
      assert.match(res.body.deliveryId, /^del_/);
      assert.equal(fake.deliveries.length, 1);
      assert.equal(fake.deliveries[0]!.serviceSignatureValid, true);
      assert.equal(JSON.parse(fake.deliveries[0]!.request.text).type, 'detection.high_severity');
      fake.fail({ status: 500 });
      const failed = await t.request('POST', `/api/webhooks/${hook.id}/test`, {
        cookie,
        body: { eventType: 'api_key.created' },
      });
      assert.equal(failed.body.success, false);
      assert.equal(failed.body.responseCode, 500);
      // a test is one attempt: nothing left to retry
      clock.advance(10_000);
      await workers.runDue();
      assert.equal(fake.requests.length, 2);
    } finally {
      await fake.close();
    }
  });

  it('a test send is no activity of the organization: reports and the overview do not count it', async () => {
    const quiet = await t.tenant({ name: 'Quiet Inc', plan: 'enterprise' });
    const quietCookie = await quiet.session('owner');
    const secret = newSecret();
    const fake = await startWebhookFake(secret);
    try {
      const hook = await hookTo(fake, secret, ['*'], quietCookie);
      const overview = () => t.request('GET', '/api/dashboard/overview', { cookie: quietCookie });
      const before = (await overview()).body;
      for (const eventType of ['detection.created', 'detection.high_severity', 'dlp.blocked']) {
        const res = await t.request('POST', `/api/webhooks/${hook.id}/test`, {
          cookie: quietCookie,
          body: { eventType },
        });
        assert.equal(res.body.success, true, res.text);
      }
      assert.equal(fake.deliveries.length, 3, 'the samples were delivered');
      const after = (await overview()).body;
      assert.deepEqual(after.series, before.series);
      assert.deepEqual(after.recent, []);
      const report = await t.request('POST', '/api/v1/report', { key: quiet.sw, body: { period: '7d' } });
      assert.equal(report.status, 201, report.text);
      const dl = await t.request('GET', `/api/v1/report/${report.body.id}/download`, { key: quiet.al });
      assert.equal(dl.body.detections.total, 0);
      assert.equal(dl.body.dlp.events, 0);
      assert.equal(dl.body.blockedRequests.total, 0);
      // The delivery history keeps the sends; one cannot be redelivered (its event is not stored).
      const list = await t.request('GET', `/api/webhooks/${hook.id}/deliveries`, { cookie: quietCookie });
      assert.equal(list.body.deliveries.length, 3);
      const again = await t.request(
        'POST',
        `/api/webhooks/${hook.id}/deliveries/${list.body.deliveries[0].id}/redeliver`,
        { cookie: quietCookie },
      );
      assert.equal(again.status, 409, again.text);
      assert.match(again.body.message, /send a new test/);
    } finally {
      await fake.close();
    }
  });

  it('lets concurrent workers take disjoint deliveries (SKIP LOCKED on PostgreSQL): each event once', async () => {
    const secret = newSecret();
    const fake = await startWebhookFake(secret);
    const second = createEventWorkers(t.ctx);
    try {
      await hookTo(fake, secret, ['api_key.created']);
      const ids: string[] = [];
      for (let i = 0; i < 120; i++) ids.push((await publish('api_key.created', { n: i }))!.id);
      const [a, b] = await Promise.all([workers.dispatcher.runDue(), second.dispatcher.runDue()]);
      assert.equal(a + b, 120);
      const got = fake.deliveries.map((d) => String(d.request.headers['x-service-event-id']));
      assert.equal(got.length, 120, 'no attempt made twice');
      assert.deepEqual([...new Set(got)].sort(), [...ids].sort());
    } finally {
      await second.close();
      await fake.close();
    }
  });

  it('drops plan-gated event types for plans below them', async () => {
    const free = await t.tenant({ plan: 'free' });
    const freeCookie = await free.session('owner');
    const secret = newSecret();
    const fake = await startWebhookFake(secret);
    try {
      await hookTo(fake, secret, ['dlp.violation', 'detection.created'], freeCookie);
      assert.equal(await publish('dlp.violation', { severity: 'HIGH' }, free), null);
      assert.ok(await publish('detection.created', { severity: 'LOW' }, free));
      await workers.runDue();
      assert.deepEqual(
        fake.deliveries.map((d) => d.request.headers['x-service-event-type']),
        ['detection.created'],
      );
    } finally {
      await fake.close();
    }
  });
});
