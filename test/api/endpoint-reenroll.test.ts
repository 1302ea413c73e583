import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { registerOverHttp } from '../support/endpoint-cases.js';
import { type Tenant, type TestServer, startTestServer } from '../support/harness.js';

// Enrolling again over a full licence, and the organization's say on a user's unenrollment
// (docs/endpoint.md, "Seats" and "POST /api/v1/endpoint/unenroll"), over HTTP on a real server.
let t: TestServer;
let other: Tenant;

before(async () => {
  t = await startTestServer();
  other = await t.tenant({ plan: 'business' });
});
after(async () => t.close());

/** A Business tenant whose endpoint licence has `seats` seats, and an enrollment link of 20 uses. */
async function licensed(seats: number) {
  const tenant = await t.tenant({ plan: 'business' });
  await t.ctx.licensing.issue({
    orgId: tenant.org.id,
    plan: 'business',
    seats,
    products: ['endpoint'],
    expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
  });
  const cookie = await tenant.session('owner');
  const link = await t.request('POST', '/api/dashboard/endpoint/enrollment', {
    cookie,
    body: { maxUses: 20 },
  });
  assert.equal(link.status, 201, link.text);
  return { tenant, cookie, code: link.body.code as string };
}

const enroll = (code: string, previousDeviceToken?: string) =>
  t.request('POST', '/api/v1/endpoint/enroll', {
    body: { code, name: 'Laptop', ...(previousDeviceToken ? { previousDeviceToken } : {}) },
  });

const heartbeat = (token: string) =>
  t.request('POST', '/api/v1/endpoint/heartbeat', { key: token, body: {} });

async function activeIds(cookie: string): Promise<string[]> {
  const list = await t.request('GET', '/api/dashboard/endpoint?status=active&perPage=100', { cookie });
  assert.equal(list.status, 200, list.text);
  return list.body.devices.items.map((d: { id: string }) => d.id).sort();
}

async function deviceAudit(orgId: string) {
  const rows = await t.ctx.storage.db
    .selectFrom('events')
    .select('data')
    .where('org_id', '=', orgId)
    .where('type', '=', 'audit.endpoint_device')
    .execute();
  return rows.map((e) => JSON.parse(e.data));
}

describe('enrolling again when every seat is taken', () => {
  it('a re-enrollment retires the device it replaces in the same step and needs no free seat; a new device is still refused', async () => {
    const { tenant, cookie, code } = await licensed(2);
    const first = await registerOverHttp(t, tenant);
    const second = await registerOverHttp(t, tenant);

    const fresh = await enroll(code);
    assert.equal(fresh.status, 403, fresh.text);
    assert.match(fresh.body.message, /All 2 seats/);

    const again = await enroll(code, first.deviceToken);
    assert.equal(again.status, 201, again.text);
    assert.equal(again.body.replacedDeviceId, first.deviceId);
    assert.deepEqual(await activeIds(cookie), [again.body.deviceId, second.deviceId].sort());
    const old = await heartbeat(first.deviceToken);
    assert.equal(old.status, 401);
    assert.equal(old.body.reenroll, true);
    assert.deepEqual(
      (await deviceAudit(tenant.org.id)).map((e) => [e.action, e.targetId, e.replacedBy, e.actor.deviceId]),
      [['replaced', first.deviceId, again.body.deviceId, first.deviceId]],
    );

    // the retired token replaces nothing any more: that enrollment is a new device, and no seat is free
    const twice = await enroll(code, first.deviceToken);
    assert.equal(twice.status, 403, twice.text);
    assert.match(twice.body.message, /seats/);
    // another organization's device is neither retired nor freed for this one
    const foreign = await registerOverHttp(t, other);
    const crossed = await enroll(code, foreign.deviceToken);
    assert.equal(crossed.status, 403, crossed.text);
    assert.equal((await heartbeat(foreign.deviceToken)).status, 200);
    // a token that is not one is refused, naming the field
    const bad = await enroll(code, 'dt_live_short');
    assert.equal(bad.status, 400);
    assert.match(bad.body.message, /previousDeviceToken/);
    assert.deepEqual(await activeIds(cookie), [again.body.deviceId, second.deviceId].sort());
  });

  it('concurrent re-enrollments of the same devices take no more seats than the licence has', async () => {
    const { tenant, cookie, code } = await licensed(3);
    const held = [
      await registerOverHttp(t, tenant),
      await registerOverHttp(t, tenant),
      await registerOverHttp(t, tenant),
    ];
    // each device enrolls again four times at once (a double click, two windows), and two new devices try
    const attempts = await Promise.all([
      ...Array.from({ length: 12 }, (_, i) => enroll(code, held[i % 3]?.deviceToken)),
      enroll(code),
      enroll(code),
    ]);
    const created = attempts.filter((r) => r.status === 201);
    assert.equal(created.length, 3, attempts.map((r) => `${r.status} ${r.text}`).join('\n'));
    assert.ok(
      attempts.filter((r) => r.status !== 201).every((r) => r.status === 403 && /seats/.test(r.body.message)),
      attempts.map((r) => r.text).join('\n'),
    );
    assert.deepEqual(
      created.map((r) => r.body.replacedDeviceId).sort(),
      held.map((d) => d.deviceId).sort(),
      'each held device is replaced exactly once',
    );
    assert.deepEqual(await activeIds(cookie), created.map((r) => r.body.deviceId).sort());
    const audit = await deviceAudit(tenant.org.id);
    assert.equal(audit.filter((e) => e.action === 'replaced').length, 3);
  });
});

describe('allowUserUnenroll', () => {
  it('off, the person at a device cannot unenroll it (403 saying so) and nothing changes; an administrator can switch it back', async () => {
    const tenant = await t.tenant({ plan: 'business' });
    const cookie = await tenant.session('admin');
    const settings = (body?: unknown) =>
      body === undefined
        ? t.request('GET', '/api/dashboard/endpoint/settings', { cookie })
        : t.request('POST', '/api/dashboard/endpoint/settings', { cookie, body });
    assert.equal((await settings()).body.allowUserUnenroll, true, 'allowed by default, as before');
    const d = await registerOverHttp(t, tenant);
    const off = await settings({ allowUserUnenroll: false });
    assert.equal(off.status, 200, off.text);
    assert.equal(off.body.allowUserUnenroll, false);
    const config = await t.request('GET', '/api/v1/endpoint/config', { key: d.deviceToken });
    assert.equal(config.body.settings.allowUserUnenroll, false, 'the device is told');

    const unenroll = (body: unknown) =>
      t.request('POST', '/api/v1/endpoint/unenroll', { key: d.deviceToken, body });
    const refused = await unenroll({ reason: 'user' });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.error, 'forbidden');
    assert.match(refused.body.message, /does not let users unenroll their devices; ask an administrator/);
    // "replaced" by no live device of this organization is leaving it too
    const foreign = await registerOverHttp(t, other);
    for (const body of [{ reason: 'replaced' }, { reason: 'replaced', replacedBy: foreign.deviceId }]) {
      const r = await unenroll(body);
      assert.equal(r.status, 403, `${JSON.stringify(body)}: ${r.text}`);
    }
    assert.equal((await heartbeat(d.deviceToken)).status, 200, 'the device is still enrolled');
    assert.deepEqual(await deviceAudit(tenant.org.id), []);

    // a replacement by a device of the organization is no leaving
    const successor = await registerOverHttp(t, tenant);
    const replaced = await unenroll({ reason: 'replaced', replacedBy: successor.deviceId });
    assert.equal(replaced.status, 200, replaced.text);

    assert.equal((await settings({ allowUserUnenroll: true })).body.allowUserUnenroll, true);
    const left = await t.request('POST', '/api/v1/endpoint/unenroll', {
      key: successor.deviceToken,
      body: { reason: 'user' },
    });
    assert.equal(left.status, 200, left.text);
    const bad = await settings({ allowUserUnenroll: 'no' });
    assert.equal(bad.status, 400);
    assert.match(bad.body.message, /allowUserUnenroll/);
  });
});
