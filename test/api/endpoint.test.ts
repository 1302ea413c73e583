import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/platform/clock/index.js';
import { sha256Hex } from '../../src/platform/crypto/index.js';
import { siemCategory } from '../../src/modules/siem/index.js';
import { newUser, registerOverHttp, validDns, validPolicy } from '../support/endpoint-cases.js';
import { type Tenant, type TestServer, startTestServer } from '../support/harness.js';

const clock = new ManualClock('2026-06-01T09:00:00.000Z');
let t: TestServer;
let a: Tenant;
let b: Tenant;
let cookieA: string;

before(async () => {
  t = await startTestServer({ clock });
  a = await t.tenant({ name: 'A', plan: 'business' });
  b = await t.tenant({ name: 'B', plan: 'business' });
  cookieA = await a.session('admin');
});
after(async () => t.close());

const count = async (
  table:
    | 'endpoint_devices'
    | 'endpoint_alerts'
    | 'endpoint_logs'
    | 'endpoint_policies'
    | 'endpoint_enrollment_links',
  orgId: string,
) =>
  Number(
    (
      await t.ctx.storage.db
        .selectFrom(table)
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('org_id', '=', orgId)
        .executeTakeFirstOrThrow()
    ).n,
  );

const eventsOf = (orgId: string, type: string) =>
  t.ctx.storage.db
    .selectFrom('events')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('type', '=', type)
    .execute();

const register = (tenant: Tenant, body: Record<string, unknown> = {}) => registerOverHttp(t, tenant, body);

const heartbeat = (token: string, body: unknown = {}) =>
  t.request('POST', '/api/v1/endpoint/heartbeat', { key: token, body });

/** The ids of an organization's devices in one status, as the dashboard lists them. */
async function deviceIds(cookie: string, status: 'active' | 'revoked'): Promise<string[]> {
  const list = await t.request('GET', `/api/dashboard/endpoint?status=${status}`, { cookie });
  assert.equal(list.status, 200, list.text);
  return list.body.devices.items.map((x: { id: string }) => x.id);
}

/** The data of an organization's audit.endpoint_device events. */
const deviceAudit = async (orgId: string) =>
  (await eventsOf(orgId, 'audit.endpoint_device')).map((e) => JSON.parse(String(e.data)));

describe('device lifecycle', () => {
  it('registers with an API key: token shown once, stored as a hash, prefix dt_live_, device id dev_', async () => {
    const d = await register(a);
    assert.match(d.deviceToken, /^dt_live_[0-9A-Za-z]{43}$/);
    assert.match(d.deviceId, /^dev_/);
    assert.equal(typeof d.configVersion, 'number');
    const rows = await t.ctx.storage.db
      .selectFrom('device_tokens')
      .selectAll()
      .where('device_id', '=', d.deviceId)
      .execute();
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.hash, sha256Hex(d.deviceToken));
    assert.ok(!JSON.stringify(rows).includes(d.deviceToken));
  });

  it('heartbeat → config with ETag → 304 → a policy change moves the version and the config', async () => {
    const d = await register(a);
    const hb1 = await heartbeat(d.deviceToken, { extensionVersion: '1.4.1' });
    assert.equal(hb1.status, 200, hb1.text);
    assert.equal(hb1.body.forceMode, false);
    assert.equal(hb1.body.updateRequired, false);
    const cfg = await t.request('GET', '/api/v1/endpoint/config', { key: d.deviceToken });
    assert.equal(cfg.status, 200);
    const etag = cfg.headers.get('etag') ?? '';
    assert.match(etag, /^"[0-9a-f]{32}"$/);
    assert.equal(cfg.body.configVersion, hb1.body.configVersion);
    const again = await t.request('GET', '/api/v1/endpoint/config', {
      key: d.deviceToken,
      headers: { 'if-none-match': etag },
    });
    assert.equal(again.status, 304);
    assert.equal(again.text, '');

    const created = await t.request('POST', '/api/dashboard/endpoint/policies', {
      cookie: cookieA,
      body: validPolicy(),
    });
    assert.equal(created.status, 201, created.text);
    const hb2 = await heartbeat(d.deviceToken);
    assert.ok(hb2.body.configVersion > hb1.body.configVersion);
    const changed = await t.request('GET', '/api/v1/endpoint/config', {
      key: d.deviceToken,
      headers: { 'if-none-match': etag },
    });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.get('etag'), etag);
    assert.equal(changed.body.policy.enforcement, 'block');
    assert.deepEqual(changed.body.policy.rules.aiServices.blocked, [
      { domain: '*.chat.example', except: ['docs.chat.example'] },
    ]);
    assert.equal((await eventsOf(a.org.id, 'audit.endpoint_policy')).length >= 1, true);
  });

  it('the config names the organization (the popup shows it); a rename reaches the device with a new ETag', async () => {
    const d = await register(a);
    const cfg = await t.request('GET', '/api/v1/endpoint/config', { key: d.deviceToken });
    assert.equal(cfg.status, 200, cfg.text);
    const before = (await t.request('GET', '/api/dashboard/organization', { cookie: cookieA })).body.name;
    assert.deepEqual(cfg.body.organization, { id: a.org.id, name: before });
    const renamed = await t.request('PATCH', '/api/dashboard/organization', {
      cookie: cookieA,
      body: { name: `${before} (renamed)` },
    });
    assert.equal(renamed.status, 200, renamed.text);
    const after = await t.request('GET', '/api/v1/endpoint/config', {
      key: d.deviceToken,
      headers: { 'if-none-match': cfg.headers.get('etag') ?? '' },
    });
    assert.equal(after.status, 200);
    assert.deepEqual(after.body.organization, { id: a.org.id, name: `${before} (renamed)` });
    await t.request('PATCH', '/api/dashboard/organization', { cookie: cookieA, body: { name: before } });
  });

  it('a force-mode switch moves the config version, and the ETag a device holds no longer answers 304', async () => {
    const tenant = await t.tenant({ name: 'Force', plan: 'business' });
    const cookie = await tenant.session('admin');
    const d = await register(tenant);
    const cfg = await t.request('GET', '/api/v1/endpoint/config', { key: d.deviceToken });
    assert.equal(cfg.body.forceMode.enabled, false);
    assert.equal(cfg.body.plan, 'business', 'the plan the extension prints on proof documents');
    const etag = cfg.headers.get('etag') ?? '';
    const hb1 = await heartbeat(d.deviceToken);
    const on = await t.request('POST', '/api/dashboard/gateway/force', { cookie, body: { enabled: true } });
    assert.equal(on.status, 200, on.text);
    const hb2 = await heartbeat(d.deviceToken);
    assert.equal(hb2.body.forceMode, true);
    assert.ok(hb2.body.configVersion > hb1.body.configVersion, 'heartbeats tell the device to fetch');
    const changed = await t.request('GET', '/api/v1/endpoint/config', {
      key: d.deviceToken,
      headers: { 'if-none-match': etag },
    });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.body.forceMode.enabled, true);
    // switching on again bumps too (two racing switches must not both skip the bump); the state is the same
    await t.request('POST', '/api/dashboard/gateway/force', { cookie, body: { enabled: true } });
    assert.ok((await heartbeat(d.deviceToken)).body.configVersion > hb2.body.configVersion);
    const again = await t.request('GET', '/api/v1/endpoint/config', { key: d.deviceToken });
    assert.equal(again.body.forceMode.enabled, true);
    const same = await t.request('GET', '/api/v1/endpoint/config', {
      key: d.deviceToken,
      headers: { 'if-none-match': `W/${again.headers.get('etag')}, "other"` },
    });
    assert.equal(same.status, 304);
  });

  it('binding the device to a user changes its config inputs: the old ETag gets the new config', async () => {
    const tenant = await t.tenant({ name: 'Bind', plan: 'business' });
    const d = await register(tenant);
    const cfg = await t.request('GET', '/api/v1/endpoint/config', { key: d.deviceToken });
    const etag = cfg.headers.get('etag') ?? '';
    assert.equal(cfg.body.device.userId, null);
    const user = await newUser(t, tenant);
    const bound = await t.request('POST', '/api/v1/endpoint/bind-user', {
      key: d.deviceToken,
      body: { email: user.email },
    });
    assert.ok(bound.status < 300, bound.text);
    const next = await t.request('GET', '/api/v1/endpoint/config', {
      key: d.deviceToken,
      headers: { 'if-none-match': etag },
    });
    assert.equal(next.status, 200, next.text);
    assert.equal(next.body.device.userId, user.id);
  });

  it('a revoked device gets 401 with reenroll, and enrolls again through a link', async () => {
    const d = await register(a);
    const res = await t.request('DELETE', `/api/dashboard/endpoint/devices/${d.deviceId}`, {
      cookie: cookieA,
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.device.status, 'revoked');
    const hb = await heartbeat(d.deviceToken);
    assert.equal(hb.status, 401);
    assert.equal(hb.body.error, 'unauthorized');
    assert.equal(hb.body.reenroll, true);
    const link = await t.request('POST', '/api/dashboard/endpoint/enrollment', { cookie: cookieA, body: {} });
    const enrolled = await t.request('POST', '/api/v1/endpoint/enroll', {
      body: { code: link.body.code, name: 'Laptop again' },
    });
    assert.equal(enrolled.status, 201, enrolled.text);
    assert.equal((await heartbeat(enrolled.body.deviceToken)).status, 200);
  });

  it('rotation: the new token works, the old one is refused', async () => {
    const d = await register(a);
    const rot = await t.request('POST', '/api/v1/endpoint/token/rotate', { key: d.deviceToken });
    assert.equal(rot.status, 200);
    assert.notEqual(rot.body.deviceToken, d.deviceToken);
    assert.equal((await heartbeat(d.deviceToken)).status, 401);
    assert.equal((await heartbeat(rot.body.deviceToken)).status, 200);
  });

  it('a device that unenrolls is revoked and the administrators are told (audit unenrolled); its token stops working', async () => {
    const org = await t.tenant({ plan: 'business' });
    const cookie = await org.session('owner');
    const d = await register(org);
    const res = await t.request('POST', '/api/v1/endpoint/unenroll', {
      key: d.deviceToken,
      body: { reason: 'user' },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { deviceId: d.deviceId, status: 'revoked' });
    assert.deepEqual(await deviceIds(cookie, 'active'), [], 'the device still counts as active');
    assert.deepEqual(await deviceIds(cookie, 'revoked'), [d.deviceId]);
    const audit = await deviceAudit(org.org.id);
    assert.equal(audit.length, 1);
    assert.equal(audit[0].action, 'unenrolled');
    assert.equal(audit[0].targetId, d.deviceId);
    assert.equal(audit[0].actor.deviceId, d.deviceId);
    const hb = await heartbeat(d.deviceToken);
    assert.equal(hb.status, 401);
    assert.equal(hb.body.reenroll, true);
    // an API key is no device: it cannot unenroll one
    const byKey = await t.request('POST', '/api/v1/endpoint/unenroll', {
      key: org.al,
      body: { reason: 'user' },
    });
    assert.equal(byKey.status, 403);
    const bad = await t.request('POST', '/api/v1/endpoint/unenroll', {
      key: (await register(org)).deviceToken,
      body: { reason: 'bored' },
    });
    assert.equal(bad.status, 400);
  });

  it('a device enrolled again retires the old one (audit replaced, naming the new device): one active device, not two', async () => {
    const org = await t.tenant({ plan: 'business' });
    const cookie = await org.session('owner');
    const old = await register(org);
    const fresh = await register(org);
    const res = await t.request('POST', '/api/v1/endpoint/unenroll', {
      key: old.deviceToken,
      body: { reason: 'replaced', replacedBy: fresh.deviceId },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(await deviceIds(cookie, 'active'), [fresh.deviceId]);
    const audit = await deviceAudit(org.org.id);
    assert.deepEqual(
      audit.map((e) => [e.action, e.targetId, e.replacedBy]),
      [['replaced', old.deviceId, fresh.deviceId]],
    );
    // a successor of another organization is not named
    const other = await register(b);
    const third = await register(org);
    await t.request('POST', '/api/v1/endpoint/unenroll', {
      key: third.deviceToken,
      body: { reason: 'replaced', replacedBy: other.deviceId },
    });
    const last = await deviceAudit(org.org.id);
    assert.equal(last.find((e) => e.targetId === third.deviceId)?.replacedBy, undefined);
  });

  it('flags an extension version outside allowedExtensionVersions', async () => {
    const t2 = await t.tenant({ plan: 'business' });
    const cookie = await t2.session('owner');
    const set = await t.request('POST', '/api/dashboard/endpoint/settings', {
      cookie,
      body: { allowedExtensionVersions: ['1.5.*'] },
    });
    assert.equal(set.status, 200, set.text);
    const d = await register(t2);
    assert.equal((await heartbeat(d.deviceToken, { extensionVersion: '1.4.0' })).body.updateRequired, true);
    assert.equal((await heartbeat(d.deviceToken, { extensionVersion: '1.5.2' })).body.updateRequired, false);
  });
});

describe('settings saves', () => {
  it('a save that changes nothing moves no config version and writes no audit event; a change does, naming only what changed', async () => {
    // Every save used to bump the version (each device of the organization fetched its config again) and
    // audit the fields sent, changed or not.
    const t3 = await t.tenant({ plan: 'business' });
    const cookie = await t3.session('admin');
    const d = await register(t3);
    const v0 = (await heartbeat(d.deviceToken)).body.configVersion;
    const audits = async () => (await eventsOf(t3.org.id, 'audit.endpoint_settings')).length;
    const save = (body: unknown) => t.request('POST', '/api/dashboard/endpoint/settings', { cookie, body });
    for (const body of [{}, { defaultEnforcement: 'warn', heartbeatIntervalSeconds: 60 }]) {
      const res = await save(body);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.configVersion, v0);
    }
    assert.equal((await heartbeat(d.deviceToken)).body.configVersion, v0);
    assert.equal(await audits(), 0);
    const changed = await save({ defaultEnforcement: 'block', heartbeatIntervalSeconds: 60 });
    assert.equal(changed.body.configVersion, v0 + 1);
    assert.equal(changed.body.defaultEnforcement, 'block');
    const ev = await eventsOf(t3.org.id, 'audit.endpoint_settings');
    assert.equal(ev.length, 1);
    assert.deepEqual(JSON.parse(ev[0]!.data).changed, ['defaultEnforcement']);
  });
});

describe('enrollment links', () => {
  it('single use: the second enrollment is refused and creates nothing', async () => {
    const link = await t.request('POST', '/api/dashboard/endpoint/enrollment', {
      cookie: cookieA,
      body: { maxUses: 1 },
    });
    assert.equal(link.status, 201);
    assert.match(link.body.code, /^enr_/);
    const first = await t.request('POST', '/api/v1/endpoint/enroll', {
      body: { code: link.body.code, name: 'One' },
    });
    assert.equal(first.status, 201);
    const before = await count('endpoint_devices', a.org.id);
    const second = await t.request('POST', '/api/v1/endpoint/enroll', {
      body: { code: link.body.code, name: 'Two' },
    });
    assert.equal(second.status, 403);
    assert.match(second.body.message, /no uses left/);
    assert.equal(await count('endpoint_devices', a.org.id), before);
  });

  it('expired and revoked links are refused with a clear message; unknown codes get 401', async () => {
    const exp = await t.request('POST', '/api/dashboard/endpoint/enrollment', {
      cookie: cookieA,
      body: { expiresInHours: 1 },
    });
    const rev = await t.request('POST', '/api/dashboard/endpoint/enrollment', { cookie: cookieA, body: {} });
    const del = await t.request('DELETE', `/api/dashboard/endpoint/enrollment/${rev.body.link.id}`, {
      cookie: cookieA,
    });
    assert.equal(del.body.link.status, 'revoked');
    clock.advance(2 * 3_600_000);
    const before = await count('endpoint_devices', a.org.id);
    const e = await t.request('POST', '/api/v1/endpoint/enroll', {
      body: { code: exp.body.code, name: 'x' },
    });
    assert.equal(e.status, 403);
    assert.match(e.body.message, /expired/);
    const r = await t.request('POST', '/api/v1/endpoint/enroll', {
      body: { code: rev.body.code, name: 'x' },
    });
    assert.equal(r.status, 403);
    assert.match(r.body.message, /revoked/);
    const u = await t.request('POST', '/api/v1/endpoint/enroll', {
      body: { code: 'enr_unknown_code_000000', name: 'x' },
    });
    assert.equal(u.status, 401);
    assert.equal(await count('endpoint_devices', a.org.id), before);
  });

  it('a link bound to a group and user gives its devices that group and user', async () => {
    const user = await newUser(t, a);
    const group = await t.request('POST', '/api/dashboard/endpoint/groups', {
      cookie: cookieA,
      body: { name: 'Sales' },
    });
    assert.equal(group.status, 201, group.text);
    const link = await t.request('POST', '/api/dashboard/endpoint/enrollment', {
      cookie: cookieA,
      body: { groupId: group.body.group.id, userId: user.id, maxUses: 3 },
    });
    const d = await t.request('POST', '/api/v1/endpoint/enroll', {
      body: { code: link.body.code, name: 'S1' },
    });
    const cfg = await t.request('GET', '/api/v1/endpoint/config', { key: d.body.deviceToken });
    assert.equal(cfg.body.device.userId, user.id);
    assert.deepEqual(cfg.body.device.groupIds, [group.body.group.id]);
  });
});

describe('groups', () => {
  it('are renamed and re-membered (audited, config version bumped); deleted unless a policy names them', async () => {
    const [u1, u2] = [await newUser(t, a), await newUser(t, a)];
    const created = await t.request('POST', '/api/dashboard/endpoint/groups', {
      cookie: cookieA,
      body: { name: 'Legal', userIds: [u1.id] },
    });
    const id = created.body.group.id as string;
    const device = await register(a);
    const v0 = (await heartbeat(device.deviceToken)).body.configVersion as number;

    const renamed = await t.request('PATCH', `/api/dashboard/endpoint/groups/${id}`, {
      cookie: cookieA,
      body: { name: 'Legal & Compliance', userIds: [u2.id] },
    });
    assert.equal(renamed.status, 200, renamed.text);
    assert.deepEqual(
      { name: renamed.body.group.name, userIds: renamed.body.group.userIds },
      { name: 'Legal & Compliance', userIds: [u2.id] },
    );
    const listed = await t.request('GET', '/api/dashboard/endpoint/groups', { cookie: cookieA });
    assert.equal(listed.body.groups.find((g: { id: string }) => g.id === id).name, 'Legal & Compliance');
    const v1 = (await heartbeat(device.deviceToken)).body.configVersion as number;
    assert.ok(v1 > v0, `config version ${v0} → ${v1}`);
    const audits = (await eventsOf(a.org.id, 'audit.endpoint_settings')).map((e) => JSON.parse(e.data));
    assert.ok(audits.some((d) => d.action === 'group_updated' && d.targetId === id));

    for (const body of [{}, { userIds: ['usr_nobody'] }, { name: '' }, { name: 'x', extra: 1 }]) {
      const bad = await t.request('PATCH', `/api/dashboard/endpoint/groups/${id}`, { cookie: cookieA, body });
      assert.equal(bad.status, 400, JSON.stringify(body));
    }
    const unchanged = await t.request('GET', '/api/dashboard/endpoint/groups', { cookie: cookieA });
    assert.deepEqual(unchanged.body.groups.find((g: { id: string }) => g.id === id).userIds, [u2.id]);

    const policy = await t.request('POST', '/api/dashboard/endpoint/policies', {
      cookie: cookieA,
      body: { ...validPolicy('Legal only'), scope: { type: 'group', targets: [id] } },
    });
    assert.equal(policy.status, 201, policy.text);
    const refused = await t.request('DELETE', `/api/dashboard/endpoint/groups/${id}`, { cookie: cookieA });
    assert.equal(refused.status, 409, refused.text);
    assert.match(refused.body.message, new RegExp(policy.body.policy.id));
    await t.request('DELETE', `/api/dashboard/endpoint/policies/${policy.body.policy.id}`, {
      cookie: cookieA,
    });

    const link = await t.request('POST', '/api/dashboard/endpoint/enrollment', {
      cookie: cookieA,
      body: { groupId: id, maxUses: 2 },
    });
    const enrolled = await t.request('POST', '/api/v1/endpoint/enroll', {
      body: { code: link.body.code, name: 'L1' },
    });
    const gone = await t.request('DELETE', `/api/dashboard/endpoint/groups/${id}`, { cookie: cookieA });
    assert.equal(gone.status, 200, gone.text);
    const cfg = await t.request('GET', '/api/v1/endpoint/config', { key: enrolled.body.deviceToken });
    assert.deepEqual(cfg.body.device.groupIds, [], 'devices of a deleted group are unbound');
    const again = await t.request('DELETE', `/api/dashboard/endpoint/groups/${id}`, { cookie: cookieA });
    assert.equal(again.status, 404);
  });
});

describe('policies: validation and precedence', () => {
  it('refuses malformed policies with the error body and stores nothing', async () => {
    const t3 = await t.tenant({ plan: 'business' });
    const cookie = await t3.session('admin');
    const base = validPolicy();
    const bad = [
      { ...base, rules: { aiServices: { mode: 'blocklist', blocked: [{ domain: 'chat.*.example' }] } } },
      {
        ...base,
        rules: { dataProtection: { blockCopyPaste: { enabled: true, patterns: ['CREDIT_CARD', 'DNA'] } } },
      },
      { ...base, rules: { dataProtection: { warnBeforeSubmit: { enabled: true, threshold: -1 } } } },
      { ...base, rules: { logging: { retentionDays: 0 } } },
      { ...base, rules: { logging: { retentionDays: 100_000 } } },
      { ...base, scope: { type: 'user', targets: ['nobody@example.test'] } },
      { ...base, scope: { type: 'group', targets: [] } },
      { ...base, scope: { type: 'organization', targets: [b.org.id] } },
      { ...base, scope: { type: 'department', targets: [] } },
      { ...base, enforcement: 'shout' },
      { ...base, rules: { aiServices: { mode: 'blocklist', blocked: [] } } },
    ];
    for (const body of bad) {
      const res = await t.request('POST', '/api/dashboard/endpoint/policies', { cookie, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error, 'invalid_request');
      assert.equal(res.body.statusCode, 400);
    }
    assert.equal(await count('endpoint_policies', t3.org.id), 0);
  });

  it('a policy names self-hosted services by IP address, one-label name or [IPv6]; not a malformed address', async () => {
    const t5 = await t.tenant({ plan: 'business' });
    const cookie = await t5.session('admin');
    const blocked = ['10.0.0.5', 'ollama', '[fd00::5]', '*.llm.corp'].map((domain) => ({ domain }));
    const res = await t.request('POST', '/api/dashboard/endpoint/policies', {
      cookie,
      body: { ...validPolicy(), rules: { aiServices: { mode: 'blocklist', blocked } } },
    });
    assert.equal(res.status, 201, res.text);
    const dev = await register(t5);
    const cfg = await t.request('GET', '/api/v1/endpoint/config', { key: dev.deviceToken });
    assert.deepEqual(
      cfg.body.policy.rules.aiServices.blocked.map((b: { domain: string }) => b.domain),
      ['10.0.0.5', 'ollama', '[fd00::5]', '*.llm.corp'],
    );
    for (const domain of ['999.1.1.1', '*.10.0.0.5', '10.0.0.5:8080', 'http://ollama']) {
      const bad = await t.request('POST', '/api/dashboard/endpoint/policies', {
        cookie,
        body: { ...validPolicy(), rules: { aiServices: { mode: 'blocklist', blocked: [{ domain }] } } },
      });
      assert.equal(bad.status, 400, domain);
      assert.match(bad.body.message, /rules\.aiServices\.blocked\[0\]\.domain/);
    }
  });

  it('PATCH …/policies names the policy in the body (SPEC); an admin key lists, changes and deletes under /api/saas', async () => {
    const t7 = await t.tenant({ plan: 'business' });
    const cookie = await t7.session('admin');
    const made = await t.request('POST', '/api/saas/endpoint/policies', {
      key: t7.admin,
      body: validPolicy(),
    });
    assert.equal(made.status, 201, made.text);
    const id = made.body.policy.id;
    const viaSpec = await t.request('PATCH', '/api/dashboard/endpoint/policies', {
      cookie,
      body: { id, enforcement: 'log' },
    });
    assert.equal(viaSpec.status, 200, viaSpec.text);
    assert.equal(viaSpec.body.policy.enforcement, 'log');
    const unknown = await t.request('PATCH', '/api/dashboard/endpoint/policies', {
      cookie,
      body: { id: 'pol_nothing', enforcement: 'log' },
    });
    assert.equal(unknown.status, 404);

    const list = await t.request('GET', '/api/saas/endpoint/policies', { key: t7.admin });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(
      list.body.policies.map((p: { id: string }) => p.id),
      [id],
    );
    const byKey = await t.request('PATCH', `/api/saas/endpoint/policies/${id}`, {
      key: t7.admin,
      body: { enforcement: 'block' },
    });
    assert.equal(byKey.status, 200, byKey.text);
    assert.equal(byKey.body.policy.enforcement, 'block');
    const byKeyInBody = await t.request('PATCH', '/api/saas/endpoint/policies', {
      key: t7.admin,
      body: { id, enabled: false },
    });
    assert.equal(byKeyInBody.body.policy.enabled, false);
    // A key of the products scope manages nothing; another organization's admin key finds nothing.
    const products = await t.request('GET', '/api/saas/endpoint/policies', { key: t7.sw });
    assert.equal(products.status, 403);
    const other = await t.request('DELETE', `/api/saas/endpoint/policies/${id}`, { key: b.admin });
    assert.equal(other.status, 404);
    const gone = await t.request('DELETE', `/api/saas/endpoint/policies/${id}`, { key: t7.admin });
    assert.equal(gone.status, 200, gone.text);
    assert.equal(await count('endpoint_policies', t7.org.id), 0);
  });

  it('organization → group → user: the most specific policy decides', async () => {
    const t4 = await t.tenant({ plan: 'enterprise' });
    const cookie = await t4.session('owner');
    const u1 = await newUser(t, t4);
    const u2 = await newUser(t, t4);
    const group = await t.request('POST', '/api/dashboard/endpoint/groups', {
      cookie,
      body: { name: 'Engineering', userIds: [u1.id, u2.id] },
    });
    const post = (body: unknown) => t.request('POST', '/api/dashboard/endpoint/policies', { cookie, body });
    assert.equal((await post({ ...validPolicy('org'), enforcement: 'block' })).status, 201);
    assert.equal(
      (
        await post({
          ...validPolicy('group'),
          scope: { type: 'group', targets: [group.body.group.id] },
          enforcement: 'warn',
          rules: { dataProtection: { warnBeforeSubmit: { enabled: true, threshold: 40 } } },
        })
      ).status,
      201,
    );
    assert.equal(
      (
        await post({
          ...validPolicy('user'),
          scope: { type: 'user', targets: [u1.email] },
          enforcement: 'log',
          rules: { logging: { retentionDays: 7 } },
        })
      ).status,
      201,
    );
    const cfgOf = async (userId: string | null) => {
      const d = await t.ctx.endpoint.devices.register(
        t4.org,
        { name: 'd', ...(userId ? { userId } : {}) },
        'k',
      );
      return (await t.request('GET', '/api/v1/endpoint/config', { key: d.deviceToken })).body;
    };
    const none = await cfgOf(null);
    assert.equal(none.policy.enforcement, 'block');
    assert.deepEqual(
      none.policy.applied.map((p: { name: string }) => p.name),
      ['org'],
    );
    const grouped = await cfgOf(u2.id);
    assert.equal(grouped.policy.enforcement, 'warn');
    assert.equal(grouped.policy.rules.dataProtection.warnBeforeSubmit.threshold, 40);
    // the organization's copy-paste rule stays: sections merge field by field
    assert.equal(grouped.policy.rules.dataProtection.blockCopyPaste.enabled, true);
    const personal = await cfgOf(u1.id);
    assert.equal(personal.policy.enforcement, 'log');
    assert.equal(personal.policy.rules.logging.retentionDays, 7);
    assert.deepEqual(
      personal.policy.applied.map((p: { name: string }) => p.name),
      ['org', 'group', 'user'],
    );
  });
});

describe('bind-user', () => {
  it('binds, audits a rebinding, and bumps the config version', async () => {
    const d = await register(a);
    const u1 = await newUser(t, a);
    const u2 = await newUser(t, a);
    const v0 = (await heartbeat(d.deviceToken)).body.configVersion;
    const r1 = await t.request('POST', '/api/v1/endpoint/bind-user', {
      key: d.deviceToken,
      body: { email: u1.email },
    });
    assert.equal(r1.status, 200);
    assert.equal(r1.body.userId, u1.id);
    const r2 = await t.request('POST', '/api/v1/endpoint/bind-user', {
      key: a.sw,
      body: { deviceId: d.deviceId, userId: u2.id },
    });
    assert.equal(r2.status, 200);
    const audits = (await eventsOf(a.org.id, 'audit.endpoint_device')).map((e) => JSON.parse(e.data));
    const rebound = audits.find((x) => x.action === 'user_rebound' && x.targetId === d.deviceId);
    assert.equal(rebound.previousUserId, u1.id);
    assert.equal(rebound.userId, u2.id);
    assert.ok((await heartbeat(d.deviceToken)).body.configVersion > v0);
    const unknown = await t.request('POST', '/api/v1/endpoint/bind-user', {
      key: d.deviceToken,
      body: { email: 'ghost@example.test' },
    });
    assert.equal(unknown.status, 400);
  });
});

describe('organizations are apart', () => {
  it('a device token of A never reads or changes anything of B', async () => {
    const da = await register(a);
    const db = await register(b);
    const ub = await newUser(t, b);
    await t.request('POST', '/api/saas/endpoint/policies', {
      key: b.admin,
      body: { ...validPolicy('B only'), enforcement: 'log' },
    });
    const bind = await t.request('POST', '/api/v1/endpoint/bind-user', {
      key: da.deviceToken,
      body: { deviceId: db.deviceId, userId: ub.id },
    });
    assert.equal(bind.status, 404);
    const byKey = await t.request('POST', '/api/v1/endpoint/bind-user', {
      key: a.sw,
      body: { deviceId: db.deviceId, userId: ub.id },
    });
    assert.equal(byKey.status, 404);
    const cfg = await t.request('GET', '/api/v1/endpoint/config', { key: da.deviceToken });
    assert.ok(!JSON.stringify(cfg.body).includes('B only'));
    const revoke = await t.request('DELETE', `/api/dashboard/endpoint/devices/${db.deviceId}`, {
      cookie: cookieA,
    });
    assert.equal(revoke.status, 404);
    assert.equal((await heartbeat(db.deviceToken)).status, 200);
  });
});

describe('alerts and logs', () => {
  const alert = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    type: 'IBAN',
    dlpDomain: 'FINANCIAL',
    domain: 'chat.example',
    action: 'blocked',
    findingsCount: 1,
    redactedPreview: 'pay to [IBAN_1] today',
    ...extra,
  });

  it('stores an alert once and publishes dlp.blocked once; dlp.violation for a warning', async () => {
    const d = await register(a);
    const first = await t.request('POST', '/api/v1/endpoint/alert', {
      key: d.deviceToken,
      body: alert('x1'),
    });
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.event, 'dlp.blocked');
    const retry = await t.request('POST', '/api/v1/endpoint/alert', {
      key: d.deviceToken,
      body: alert('x1'),
    });
    assert.equal(retry.status, 200);
    assert.equal(retry.body.duplicate, true);
    assert.equal(retry.body.id, first.body.id);
    const blocked = (await eventsOf(a.org.id, 'dlp.blocked'))
      .map((e) => JSON.parse(e.data))
      .filter((e) => e.deviceId === d.deviceId);
    assert.equal(blocked.length, 1);
    assert.equal(blocked[0].type, 'IBAN');
    assert.equal(blocked[0].action, 'BLOCKED');
    assert.equal(blocked[0].redactedPreview, 'pay to [IBAN_1] today');
    const warn = await t.request('POST', '/api/v1/endpoint/alert', {
      key: d.deviceToken,
      body: alert('x2', { action: 'warned' }),
    });
    assert.equal(warn.body.event, 'dlp.violation');
  });

  it('an alert names every type found: its event lists them and the report counts each, not only the first', async () => {
    const tenant = await t.tenant({ plan: 'enterprise' });
    const d = await register(tenant);
    const sent = await t.request('POST', '/api/v1/endpoint/alert', {
      key: d.deviceToken,
      body: alert('multi-1', {
        action: 'warned',
        findingsCount: 4,
        types: ['IBAN', 'PHONE', 'EMAIL', 'NAME'],
        redactedPreview: '[NAME] [EMAIL] [IBAN] [PHONE]',
      }),
    });
    assert.equal(sent.status, 201, sent.text);
    const [event] = (await eventsOf(tenant.org.id, 'dlp.violation')).map((e) => JSON.parse(e.data));
    assert.equal(event.type, 'IBAN');
    assert.deepEqual(event.types, ['IBAN', 'PHONE', 'EMAIL', 'NAME']);
    // an older extension sends `type` alone: the event lists it
    await t.request('POST', '/api/v1/endpoint/alert', { key: d.deviceToken, body: alert('single-1') });
    // the test clock stands still: it moves on a second, so a period ending now holds the events made
    // before (a `to` after the server's clock is taken as now, docs/reports.md)
    clock.advance(1_000);
    const now = clock.now().getTime();
    const period = {
      from: new Date(now - 86_400_000).toISOString(),
      to: new Date(now).toISOString(),
    };
    const report = await t.request('POST', '/api/v1/report', { key: tenant.sw, body: period });
    assert.equal(report.status, 201, report.text);
    const r = (await t.request('GET', `/api/v1/report/${report.body.id}/download`, { key: tenant.al })).body;
    assert.deepEqual(
      Object.fromEntries(r.dlp.byType.map((c: { name: string; count: number }) => [c.name, c.count])),
      { IBAN: 2, PHONE: 1, EMAIL: 1, NAME: 1 },
    );
    // a type list is validated as `type` is: type names only, never a value
    for (const types of [['IBAN', 'DE89370400440532013000'], [], ['EMAIL', 'EMAIL'], ['e-mail']]) {
      const bad = await t.request('POST', '/api/v1/endpoint/alert', {
        key: d.deviceToken,
        body: alert(`bad-${JSON.stringify(types)}`, { types }),
      });
      assert.equal(bad.status, 400, JSON.stringify(types));
    }
  });

  it('takes alerts and logs of intranet services named by one label, an IPv4 or an [IPv6] address', async () => {
    const d = await register(a);
    for (const [i, domain] of ['chat', '10.20.0.5', '[fd00::5]'].entries()) {
      const res = await t.request('POST', '/api/v1/endpoint/alert', {
        key: d.deviceToken,
        body: alert(`site-${i}`, { domain }),
      });
      assert.equal(res.status, 201, `${domain}: ${res.text}`);
    }
    const logs = await t.request('POST', '/api/v1/endpoint/log', {
      key: d.deviceToken,
      body: {
        entries: ['chat', '10.20.0.5', '[fd00::5]'].map((domain, i) => ({
          id: `site-log-${i}`,
          kind: 'interaction',
          domain,
          occurredAt: clock.now().toISOString(),
        })),
      },
    });
    assert.equal(logs.status, 200, logs.text);
    assert.equal(logs.body.stored, 3);
    for (const domain of ['x y', 'a..b', '<b>chat</b>', '[zz::1]']) {
      const res = await t.request('POST', '/api/v1/endpoint/alert', {
        key: d.deviceToken,
        body: alert(`bad-${domain}`, { domain }),
      });
      assert.equal(res.status, 400, domain);
      assert.match(res.body.message, /domain/);
    }
  });

  it('keeps an alert carrying a raw IBAN or card number with the value blanked (test/api/endpoint-pii.test.ts)', async () => {
    const d = await register(a);
    for (const [preview, stored] of [
      ['pay to CH93 0076 2011 6238 5295 7 today', 'pay to [IBAN] today'],
      ['card 4111111111111111 ok', 'card [CARD] ok'],
    ] as const) {
      const res = await t.request('POST', '/api/v1/endpoint/alert', {
        key: d.deviceToken,
        body: alert(`raw-${preview.length}`, { redactedPreview: preview }),
      });
      assert.equal(res.status, 201, res.text);
      const row = await t.ctx.storage.db
        .selectFrom('endpoint_alerts')
        .select('redacted_preview')
        .where('id', '=', res.body.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.redacted_preview, stored);
    }
  });

  it('log batches are idempotent by client id, bounded, and purged past retentionDays', async () => {
    const t5 = await t.tenant({ plan: 'business' });
    const d = await register(t5);
    const entries = Array.from({ length: 3 }, (_, i) => ({
      id: `log-${i}`,
      kind: 'interaction',
      domain: 'chat.example',
      occurredAt: clock.now().toISOString(),
    }));
    const first = await t.request('POST', '/api/v1/endpoint/log', { key: d.deviceToken, body: { entries } });
    assert.deepEqual(first.body, { received: 3, stored: 3, duplicates: 0 });
    const retry = await t.request('POST', '/api/v1/endpoint/log', { key: d.deviceToken, body: { entries } });
    assert.deepEqual(retry.body, { received: 3, stored: 0, duplicates: 3 });
    const tooMany = Array.from({ length: 501 }, (_, i) => ({ ...entries[0], id: `m-${i}` }));
    assert.equal(
      (await t.request('POST', '/api/v1/endpoint/log', { key: d.deviceToken, body: { entries: tooMany } }))
        .status,
      400,
    );
    const raw = await t.request('POST', '/api/v1/endpoint/log', {
      key: d.deviceToken,
      body: { entries: [{ ...entries[0], id: 'raw', detail: { text: 'card 4111 1111 1111 1111' } }] },
    });
    assert.equal(raw.status, 200, raw.text);
    assert.equal(await count('endpoint_logs', t5.org.id), 4);
    const rawRow = await t.ctx.storage.db
      .selectFrom('endpoint_logs')
      .select('detail')
      .where('org_id', '=', t5.org.id)
      .where('client_id', '=', 'raw')
      .executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(rawRow.detail), { text: 'card [CARD]' });

    await t.ctx.endpoint.admin.createPolicy(
      t5.org,
      { ...validPolicy(), rules: { logging: { retentionDays: 10 } } } as never,
      { userId: null, apiKeyId: null, deviceId: null },
    );
    clock.advance(9 * 86_400_000);
    await t.ctx.endpoint.activity.purgeLogs();
    assert.equal(await count('endpoint_logs', t5.org.id), 4);
    clock.advance(2 * 86_400_000);
    await t.ctx.endpoint.activity.purgeLogs();
    assert.equal(await count('endpoint_logs', t5.org.id), 0);
  });
});

describe('times devices report', () => {
  it('an alert or a log dated after the server received it is stored at the receipt time; earlier ones as sent', async () => {
    const tenant = await t.tenant({ plan: 'business' });
    const d = await register(tenant);
    const now = clock.now().toISOString();
    const ahead = new Date(clock.now().getTime() + 4 * 365 * 86_400_000).toISOString();
    const before = new Date(clock.now().getTime() - 3_600_000).toISOString();
    for (const [id, occurredAt] of [
      ['late-clock', ahead],
      ['hour-ago', before],
    ] as const) {
      const res = await t.request('POST', '/api/v1/endpoint/alert', {
        key: d.deviceToken,
        body: {
          id,
          type: 'EMAIL',
          dlpDomain: 'PERSONAL',
          domain: 'chat.example',
          action: 'warned',
          findingsCount: 1,
          redactedPreview: 'write to [EMAIL_1]',
          occurredAt,
        },
      });
      assert.equal(res.status, 201, res.text);
    }
    const logged = await t.request('POST', '/api/v1/endpoint/log', {
      key: d.deviceToken,
      body: { entries: [{ id: 'late-log', kind: 'interaction', domain: 'chat.example', occurredAt: ahead }] },
    });
    assert.ok(logged.status < 300, logged.text);
    const alerts = await t.ctx.storage.db
      .selectFrom('endpoint_alerts')
      .select(['client_id', 'occurred_at'])
      .where('org_id', '=', tenant.org.id)
      .orderBy('client_id')
      .execute();
    const at = (v: unknown) => new Date(String(v)).toISOString();
    assert.deepEqual(
      alerts.map((a) => [a.client_id, at(a.occurred_at)]),
      [
        ['hour-ago', before],
        ['late-clock', now],
      ],
    );
    const [log] = await t.ctx.storage.db
      .selectFrom('endpoint_logs')
      .select(['occurred_at'])
      .where('org_id', '=', tenant.org.id)
      .execute();
    assert.equal(at(log?.occurred_at), now);
  });
});

describe('a log batch with bad entries', () => {
  const entry = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    kind: 'interaction',
    domain: 'chat.example',
    occurredAt: clock.now().toISOString(),
    ...extra,
  });
  const logIds = async (orgId: string) =>
    (
      await t.ctx.storage.db
        .selectFrom('endpoint_logs')
        .select('client_id')
        .where('org_id', '=', orgId)
        .orderBy('client_id')
        .execute()
    ).map((r) => r.client_id);

  it('stores the valid entries and answers 207 naming each refused one by index, id and reason', async () => {
    const tb = await t.tenant({ plan: 'business' });
    const d = await register(tb);
    const entries = [
      entry('ok-1'),
      entry('bad-kind', { kind: 'teleported' }),
      entry('bad-host', { domain: 'not a host' }),
      42,
      { kind: 'interaction', occurredAt: clock.now().toISOString() },
      entry('ok-2', { detail: { chars: 12 } }),
      entry('ok-1'),
    ];
    const res = await t.request('POST', '/api/v1/endpoint/log', { key: d.deviceToken, body: { entries } });
    assert.equal(res.status, 207, res.text);
    const hostMessage = String(res.body.rejected?.[1]?.message);
    assert.match(hostMessage, /^The body field 'entries\[2\]\.domain' /);
    assert.deepEqual(res.body, {
      received: 7,
      stored: 2,
      duplicates: 1,
      rejected: [
        {
          index: 1,
          id: 'bad-kind',
          error: 'invalid_request',
          message:
            "The body field 'entries[1].kind' must be one of: interaction, blocked, warned, redacted, paste_blocked, override.",
        },
        {
          index: 2,
          id: 'bad-host',
          error: 'invalid_request',
          message: hostMessage,
        },
        {
          index: 3,
          error: 'invalid_request',
          message: "The body field 'entries[3]' must be of type object.",
        },
        { index: 4, error: 'invalid_request', message: "The body field 'entries[4].id' is required." },
      ],
    });
    assert.deepEqual(await logIds(tb.org.id), ['ok-1', 'ok-2']);
    // The same batch again: the valid entries are duplicates now, the refused ones refused again.
    const again = await t.request('POST', '/api/v1/endpoint/log', { key: d.deviceToken, body: { entries } });
    assert.equal(again.status, 207);
    assert.equal(again.body.stored, 0);
    assert.equal(again.body.duplicates, 3);
    assert.equal(again.body.rejected.length, 4);
  });

  it('answers 400 with every reason when no entry can be stored, and stores nothing', async () => {
    const tb = await t.tenant({ plan: 'business' });
    const d = await register(tb);
    const res = await t.request('POST', '/api/v1/endpoint/log', {
      key: d.deviceToken,
      body: { entries: [entry('a', { kind: 'nope' }), entry('b', { extra: 1 })] },
    });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error, 'invalid_request');
    assert.equal(res.body.statusCode, 400);
    assert.match(res.body.message, /None of the 2 entries can be stored/);
    assert.deepEqual(
      res.body.rejected.map((r: { index: number; id: string; message: string }) => [
        r.index,
        r.id,
        r.message,
      ]),
      [
        [
          0,
          'a',
          "The body field 'entries[0].kind' must be one of: interaction, blocked, warned, redacted, paste_blocked, override.",
        ],
        [1, 'b', "The body field 'entries[1].extra' is not allowed."],
      ],
    );
    assert.deepEqual(await logIds(tb.org.id), []);
    // A malformed envelope is refused whole, without `rejected`.
    for (const body of [{ entries: [] }, { entries: 'x' }, { entries: [entry('c')], more: 1 }, {}]) {
      const bad = await t.request('POST', '/api/v1/endpoint/log', { key: d.deviceToken, body });
      assert.equal(bad.status, 400, JSON.stringify(body));
      assert.equal(bad.body.rejected, undefined);
    }
    assert.deepEqual(await logIds(tb.org.id), []);
  });
});

describe('statistics', () => {
  it('answers exactly the spec fields from heartbeats', async () => {
    const t6 = await t.tenant({ plan: 'business' });
    const u = await newUser(t, t6);
    const d1 = await register(t6, { userId: u.id });
    const d2 = await register(t6);
    await heartbeat(d1.deviceToken, {
      stats: {
        interactions: { 'chat.example': 5, 'Write.Example': 2 },
        blocked: { unapproved_service: 2, dlp_violation: 1 },
      },
    });
    await heartbeat(d2.deviceToken, {
      stats: { interactions: { 'chat.example': 1 }, blocked: { policy_violation: 4 } },
    });
    await heartbeat(d1.deviceToken, { stats: { interactions: { 'chat.example': 1 } } });
    const res = await t.request('GET', '/api/saas/endpoint/stats?period=24h', { key: t6.admin });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      period: '24h',
      endpoints: { total: 2, active: 2, offline: 0 },
      interactions: { total: 9, byService: { 'chat.example': 7, 'write.example': 2 } },
      blocked: { total: 7, byReason: { unapproved_service: 2, dlp_violation: 1, policy_violation: 4 } },
      topUsers: [{ userId: u.id, interactions: 8, blocked: 3 }],
    });
    clock.advance(20 * 60_000);
    await heartbeat(d2.deviceToken);
    const later = await t.request('GET', '/api/saas/endpoint/stats', { key: t6.admin });
    assert.deepEqual(later.body.endpoints, { total: 2, active: 1, offline: 1 });
    const offline = await t.request('GET', '/api/dashboard/endpoint?status=offline', {
      cookie: await t6.session('viewer'),
    });
    assert.deepEqual(
      offline.body.devices.items.map((x: { id: string }) => x.id),
      [d1.deviceId],
    );
    clock.advance(2 * 86_400_000);
    const gone = await t.request('GET', '/api/saas/endpoint/stats?period=24h', { key: t6.admin });
    assert.equal(gone.body.interactions.total, 0);
    const week = await t.request('GET', '/api/saas/endpoint/stats?period=7d', { key: t6.admin });
    assert.equal(week.body.interactions.total, 9);
  });

  it('refuses interaction keys that are not host names, so one device cannot stall every organization’s statistics', async () => {
    // A key outside the host-name pattern used to escape validation, value included: an object value then
    // made every batched write fail and be put back, so no device of any organization was recorded again.
    const hostile = await t.tenant({ plan: 'business' });
    const victim = await t.tenant({ plan: 'business' });
    const dh = await register(hostile);
    const dv = await register(victim);
    for (const interactions of [
      { 'x y': { a: 1 } },
      { 'Ann Smith ann@example.com': -7 },
      { 'chat.example/c/123?email=ann@example.com': 1 },
      { [`${'a'.repeat(250)}.example`]: 1 },
    ]) {
      const res = await heartbeat(dh.deviceToken, { stats: { interactions } });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.error, 'invalid_request');
      assert.match(res.body.message, /^Each key of the body field 'stats\.interactions' must /);
      assert.ok(!res.text.includes('ann@example.com'), 'the key is not echoed');
    }
    const ok = await heartbeat(dv.deviceToken, { stats: { interactions: { 'chat.example': 4 } } });
    assert.equal(ok.status, 200, ok.text);
    const stats = await t.request('GET', '/api/saas/endpoint/stats?period=24h', { key: victim.admin });
    assert.deepEqual(stats.body.interactions, { total: 4, byService: { 'chat.example': 4 } });
    const row = await t.ctx.storage.db
      .selectFrom('endpoint_devices')
      .select('extension_version')
      .where('id', '=', dh.deviceId)
      .executeTakeFirstOrThrow();
    assert.equal(row.extension_version, '1.4.0');
  });
});

describe('plans and seats', () => {
  it('the endpoint product needs Business or higher (403 plan_required)', async () => {
    const pro = await t.tenant({ plan: 'pro' });
    const res = await t.request('POST', '/api/v1/endpoint/register', { key: pro.al, body: { name: 'x' } });
    assert.equal(res.status, 403);
    assert.equal(res.body.error, 'plan_required');
    const dash = await t.request('GET', '/api/dashboard/endpoint', { cookie: await pro.session('owner') });
    assert.equal(dash.body.error, 'plan_required');
  });

  it('seats of the endpoint licence are enforced at register and enroll', async () => {
    const t7 = await t.tenant({ plan: 'business' });
    await t.ctx.licensing.issue({
      orgId: t7.org.id,
      plan: 'business',
      seats: 1,
      products: ['endpoint'],
      expiresAt: new Date(clock.now().getTime() + 86_400_000).toISOString(),
    });
    await register(t7);
    const second = await t.request('POST', '/api/v1/endpoint/register', {
      key: t7.al,
      body: { name: 'two' },
    });
    assert.equal(second.status, 403);
    assert.match(second.body.message, /seats/);
    const cookie = await t7.session('owner');
    const link = await t.request('POST', '/api/dashboard/endpoint/enrollment', { cookie, body: {} });
    const enr = await t.request('POST', '/api/v1/endpoint/enroll', {
      body: { code: link.body.code, name: 'three' },
    });
    assert.equal(enr.status, 403);
    assert.equal(await count('endpoint_devices', t7.org.id), 1);
    // nothing half-done: the link's use was not spent
    const links = await t.request('GET', '/api/dashboard/endpoint/enrollment', { cookie });
    assert.equal(links.body.links[0].uses, 0);
  });
});

describe('seats under concurrency', () => {
  it('concurrent registrations and enrollments never take more seats than the licence has', async () => {
    const t8 = await t.tenant({ plan: 'business' });
    await t.ctx.licensing.issue({
      orgId: t8.org.id,
      plan: 'business',
      seats: 3,
      products: ['endpoint'],
      expiresAt: new Date(clock.now().getTime() + 86_400_000).toISOString(),
    });
    const link = await t.request('POST', '/api/dashboard/endpoint/enrollment', {
      cookie: await t8.session('owner'),
      body: { maxUses: 20 },
    });
    const attempts = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        i % 2 === 0
          ? t.request('POST', '/api/v1/endpoint/register', { key: t8.al, body: { name: `r${i}` } })
          : t.request('POST', '/api/v1/endpoint/enroll', { body: { code: link.body.code, name: `e${i}` } }),
      ),
    );
    const statuses = attempts.map((r) => r.status).sort();
    assert.equal(statuses.filter((s) => s === 201).length, 3, statuses.join(','));
    assert.ok(
      attempts.filter((r) => r.status !== 201).every((r) => r.status === 403 && /seats/.test(r.body.message)),
      attempts.map((r) => r.text).join('\n'),
    );
    assert.equal(await count('endpoint_devices', t8.org.id), 3);
  });
});

describe('DNS configuration', () => {
  it('stores the spec body and exports rpz, hosts, adguard and plain lists', async () => {
    const set = await t.request('POST', '/api/saas/endpoint/dns-config', { key: a.admin, body: validDns() });
    assert.equal(set.status, 200, set.text);
    const get = await t.request('GET', '/api/saas/endpoint/dns-config', { key: a.admin });
    assert.deepEqual(get.body.blockedDomains, ['chat.example', '*.assistant.example']);
    const rpz = await t.request('GET', '/api/saas/endpoint/dns-config/export?format=rpz', { key: a.admin });
    assert.match(rpz.text, /^chat\.example CNAME \.$/m);
    assert.match(rpz.text, /^\*\.chat\.example CNAME \.$/m);
    assert.match(rpz.text, /^\*\.assistant\.example CNAME \.$/m);
    assert.match(rpz.text, /^docs\.chat\.example CNAME rpz-passthru\.$/m);
    const hosts = await t.request('GET', '/api/saas/endpoint/dns-config/export?format=hosts', {
      key: a.admin,
    });
    assert.match(hosts.text, /^127\.0\.0\.1 chat\.example$/m);
    const ag = await t.request('GET', '/api/saas/endpoint/dns-config/export?format=adguard', {
      key: a.admin,
    });
    assert.match(ag.text, /^\|\|assistant\.example\^$/m);
    assert.match(ag.text, /^@@\|\|docs\.chat\.example\^$/m);
    // before a first save: the default in effect (filtering off), not a 404
    const none = await t.request('GET', '/api/saas/endpoint/dns-config', { key: b.admin });
    assert.equal(none.status, 200, none.text);
    assert.equal(none.body.enabled, false);
    assert.deepEqual([none.body.blockedDomains, none.body.updatedAt], [[], null]);
    const bad = await t.request('POST', '/api/saas/endpoint/dns-config', {
      key: a.admin,
      body: { ...validDns(), integration: { type: 'dns_forwarder', forwarders: [] } },
    });
    assert.equal(bad.status, 400);
  });
});

describe('DNS forwarders', () => {
  it('refuses entries no resolver answers at, naming the entry; takes LAN, loopback and IPv6 resolvers', async () => {
    const t6 = await t.tenant({ plan: 'business' });
    const set = (forwarders: string[]) =>
      t.request('POST', '/api/saas/endpoint/dns-config', {
        key: t6.admin,
        body: { ...validDns(), integration: { type: 'dns_forwarder', forwarders } },
      });
    for (const [entry, why] of [
      ['999.1.1.1:99999', /IPv4 address or an IPv6 address/],
      ['10.0.0.53:99999', /port from 1 to 65535/],
      ['0.0.0.0:0', /port from 1 to 65535/],
      ['0.0.0.0', /unspecified/],
      ['::', /unspecified/],
      ['[::]:53', /unspecified/],
      ['169.254.169.254:53', /metadata/],
      ['169.254.1.1', /link-local/],
      ['[fe80::1]:53', /link-local/],
    ] as const) {
      const res = await set(['10.0.0.53', entry]);
      assert.equal(res.status, 400, `${entry}: ${res.text}`);
      assert.equal(res.body.error, 'invalid_request');
      assert.ok(res.body.message.includes(`integration.forwarders[1] ('${entry}')`), res.body.message);
      assert.match(res.body.message, why);
    }
    // Nothing refused was stored: the configuration read back is still the default, never saved.
    const unsaved = await t.request('GET', '/api/saas/endpoint/dns-config', { key: t6.admin });
    assert.equal(unsaved.status, 200, unsaved.text);
    assert.equal(unsaved.body.updatedAt, null);
    const ok = await set(['10.0.0.53', '10.0.0.54:53', '127.0.0.1:5353', '[2001:db8::53]:53', 'fd00::53']);
    assert.equal(ok.status, 200, ok.text);
  });
});

describe('administration changes are audit events', () => {
  it('every policy, settings and DNS change is audited (SIEM AUDIT) and moves the config version; links and devices are audited', async () => {
    const t6 = await t.tenant({ plan: 'business' });
    const cookie = await t6.session('admin');
    const device = await register(t6);
    let version = (await heartbeat(device.deviceToken)).body.configVersion as number;
    const step = async (
      res: Promise<{ status: number; text: string; body: any }>,
      type: string,
      action: string,
      bumps: boolean,
    ) => {
      const before = (await eventsOf(t6.org.id, type)).length;
      const r = await res;
      assert.ok(r.status >= 200 && r.status < 300, `${type} ${action}: ${r.text}`);
      const audits = (await eventsOf(t6.org.id, type)).map((e) => JSON.parse(e.data));
      assert.equal(audits.length, before + 1, `${type} ${action}: one audit event`);
      assert.ok(
        audits.some((x) => x.action === action),
        `${type}: ${JSON.stringify(audits)}`,
      );
      assert.equal(siemCategory(type), 'AUDIT');
      const now = (await heartbeat(device.deviceToken)).body.configVersion as number;
      if (bumps) assert.ok(now > version, `${type} ${action} moves the config version`);
      else assert.equal(now, version, `${type} ${action} leaves the config version`);
      version = now;
      return r;
    };
    const created = await step(
      t.request('POST', '/api/dashboard/endpoint/policies', { cookie, body: validPolicy('first') }),
      'audit.endpoint_policy',
      'created',
      true,
    );
    const id = created.body.policy.id as string;
    await step(
      t.request('PATCH', `/api/dashboard/endpoint/policies/${id}`, { cookie, body: { enforcement: 'warn' } }),
      'audit.endpoint_policy',
      'updated',
      true,
    );
    await step(
      t.request('POST', '/api/saas/endpoint/policies', { key: t6.admin, body: validPolicy('by script') }),
      'audit.endpoint_policy',
      'created',
      true,
    );
    await step(
      t.request('DELETE', `/api/dashboard/endpoint/policies/${id}`, { cookie }),
      'audit.endpoint_policy',
      'deleted',
      true,
    );
    await step(
      t.request('POST', '/api/dashboard/endpoint/settings', {
        cookie,
        body: { defaultEnforcement: 'block' },
      }),
      'audit.endpoint_settings',
      'updated',
      true,
    );
    await step(
      t.request('POST', '/api/saas/endpoint/dns-config', { cookie, body: validDns() }),
      'audit.endpoint_dns',
      'updated',
      true,
    );
    const link = await step(
      t.request('POST', '/api/dashboard/endpoint/enrollment', { cookie, body: {} }),
      'audit.endpoint_enrollment',
      'created',
      false,
    );
    await step(
      t.request('DELETE', `/api/dashboard/endpoint/enrollment/${link.body.link.id}`, { cookie }),
      'audit.endpoint_enrollment',
      'revoked',
      false,
    );
    const other = await register(t6);
    await step(
      t.request('DELETE', `/api/dashboard/endpoint/devices/${other.deviceId}`, { cookie }),
      'audit.endpoint_device',
      'revoked',
      false,
    );
  });
});

describe('references to another organization', () => {
  it('a group, user or policy target of B named by A is refused with 400 and creates nothing', async () => {
    const gb = (
      await t.request('POST', '/api/dashboard/endpoint/groups', {
        cookie: await b.session('admin'),
        body: { name: `B group ${Date.now()}` },
      })
    ).body.group.id as string;
    const ub = await newUser(t, b);
    const t7 = await t.tenant({ plan: 'business' });
    const cookie = await t7.session('admin');
    const refused = async (res: Promise<{ status: number; body: any; text: string }>, what: string) => {
      const r = await res;
      assert.equal(r.status, 400, `${what}: ${r.text}`);
      assert.equal(r.body.error, 'invalid_request');
    };
    const registerAs = (body: Record<string, unknown>) =>
      t.request('POST', '/api/v1/endpoint/register', { key: t7.al, body: { name: 'Laptop', ...body } });
    await refused(registerAs({ groupId: gb }), 'register with a group of B');
    await refused(registerAs({ userId: ub.id }), 'register with a user id of B');
    await refused(registerAs({ email: ub.email }), 'register with a user e-mail of B');
    assert.equal(await count('endpoint_devices', t7.org.id), 0);

    const link = (body: Record<string, unknown>) =>
      t.request('POST', '/api/dashboard/endpoint/enrollment', { cookie, body });
    await refused(link({ groupId: gb }), 'link bound to a group of B');
    await refused(link({ userId: ub.id }), 'link bound to a user of B');
    assert.equal(await count('endpoint_enrollment_links', t7.org.id), 0);

    await refused(
      t.request('POST', '/api/dashboard/endpoint/groups', {
        cookie,
        body: { name: 'Mixed', userIds: [ub.id] },
      }),
      'group with a member of B',
    );
    const groups = await t.request('GET', '/api/dashboard/endpoint/groups', { cookie });
    assert.deepEqual(groups.body.groups, []);

    const policy = (scope: unknown) =>
      t.request('POST', '/api/dashboard/endpoint/policies', { cookie, body: { ...validPolicy(), scope } });
    await refused(policy({ type: 'group', targets: [gb] }), 'policy for a group of B');
    await refused(policy({ type: 'user', targets: [ub.id] }), 'policy for a user id of B');
    await refused(policy({ type: 'user', targets: [ub.email] }), 'policy for a user e-mail of B');
    assert.equal(await count('endpoint_policies', t7.org.id), 0);

    const own = await register(t7);
    await refused(
      t.request('POST', '/api/v1/endpoint/bind-user', { key: own.deviceToken, body: { userId: ub.id } }),
      'binding a user of B',
    );
    const cfg = await t.request('GET', '/api/v1/endpoint/config', { key: own.deviceToken });
    assert.equal(cfg.body.device.userId, null);
  });
});

describe('device listing', () => {
  it('filters devices by last seen', async () => {
    const t8 = await t.tenant({ plan: 'business' });
    const cookie = await t8.session('viewer');
    const early = await register(t8, { name: 'early' });
    await heartbeat(early.deviceToken);
    const cut = new Date(clock.now().getTime() + 3_600_000).toISOString();
    clock.advance(2 * 3_600_000);
    const late = await register(t8, { name: 'late' });
    await heartbeat(late.deviceToken);
    const names = async (query: string) =>
      (await t.request('GET', `/api/dashboard/endpoint?${query}`, { cookie })).body.devices.items.map(
        (d: { name: string }) => d.name,
      );
    assert.deepEqual(await names(`lastSeenBefore=${encodeURIComponent(cut)}`), ['early']);
    assert.deepEqual(await names(`lastSeenAfter=${encodeURIComponent(cut)}`), ['late']);
    const bad = await t.request('GET', '/api/dashboard/endpoint?lastSeenAfter=yesterday', { cookie });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, 'invalid_request');
    // A reversed range is refused as reports refuse one, not answered with an empty page.
    const reversed = await t.request(
      'GET',
      '/api/dashboard/endpoint?lastSeenAfter=2026-12-01T00:00:00Z&lastSeenBefore=2026-11-01T00:00:00Z',
      { cookie },
    );
    assert.equal(reversed.status, 400, reversed.text);
    assert.match(reversed.body.message, /lastSeenBefore must be later than lastSeenAfter/);
  });
});

describe('the DNS block page', () => {
  it('shows blockPage.message and contactEmail as HTML-escaped text, 403; 404 when disabled', async () => {
    const t9 = await t.tenant({ plan: 'business' });
    const page = (org: string) => fetch(`${t.url}/api/v1/endpoint/block-page?org=${encodeURIComponent(org)}`);
    assert.equal((await page(t9.org.id)).status, 404, 'no DNS configuration yet');
    const set = await t.request('POST', '/api/saas/endpoint/dns-config', {
      key: t9.admin,
      body: {
        ...validDns(),
        blockPage: {
          enabled: true,
          message: 'AI <b>tools</b> are filtered',
          contactEmail: 'it@example.test',
        },
      },
    });
    assert.equal(set.status, 200, set.text);
    const res = await page(t9.org.id);
    assert.equal(res.status, 403);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    const html = await res.text();
    assert.match(html, /AI &lt;b&gt;tools&lt;\/b&gt; are filtered/);
    assert.match(html, /href="mailto:it@example\.test"/);
    assert.doesNotMatch(html, /<b>tools/);
    await t.request('POST', '/api/saas/endpoint/dns-config', {
      key: t9.admin,
      body: { ...validDns(), blockPage: { enabled: false, message: 'x', contactEmail: 'it@example.test' } },
    });
    assert.equal((await page(t9.org.id)).status, 404);
  });
});

describe('the device rate limit', () => {
  it('is per device token (PARAPET_DEVICE_RATE_PER_MINUTE), apart from the organization window; enroll and licence checks per address', async () => {
    const own = await startTestServer({
      clock: new ManualClock('2026-06-01T09:00:10.000Z'),
      env: { PARAPET_DEVICE_RATE_PER_MINUTE: '3' },
    });
    try {
      const org = await own.tenant({ plan: 'business' });
      const [d1, d2] = [
        await own.ctx.endpoint.devices.register(org.org, { name: 'one' }, 'k'),
        await own.ctx.endpoint.devices.register(org.org, { name: 'two' }, 'k'),
      ];
      const hb = (token: string) =>
        own.request('POST', '/api/v1/endpoint/heartbeat', { key: token, body: {} });
      for (let i = 0; i < 3; i++) {
        const ok = await hb(d1.deviceToken);
        assert.equal(ok.status, 200, ok.text);
        assert.equal(ok.headers.get('x-ratelimit-limit'), '3');
      }
      const over = await hb(d1.deviceToken);
      assert.equal(over.status, 429);
      assert.equal(over.body.error, 'rate_limit_exceeded');
      assert.ok(Number(over.headers.get('retry-after')) >= 1);
      assert.equal((await hb(d2.deviceToken)).status, 200, 'another device has its own window');
      const byKey = await own.request('POST', '/api/v1/endpoint/register', {
        key: org.al,
        body: { name: 'three' },
      });
      assert.equal(byKey.status, 201, 'API-key calls use the organization window');
      assert.notEqual(byKey.headers.get('x-ratelimit-limit'), '3');

      // the public operations whose body is the credential: 30 enrollments and 60 validations a minute per address
      const enroll = () =>
        own.request('POST', '/api/v1/endpoint/enroll', {
          body: { code: 'enr_0000000000unknown', name: 'x' },
        });
      for (let i = 0; i < 30; i++) assert.equal((await enroll()).status, 401);
      const enrollOver = await enroll();
      assert.equal(enrollOver.status, 429, enrollOver.text);
      assert.equal(enrollOver.body.error, 'rate_limit_exceeded');
      const validate = () =>
        own.request('POST', '/api/v1/license/validate', { body: { licenseKey: 'plk_not.valid' } });
      for (let i = 0; i < 60; i++) assert.equal((await validate()).status, 200);
      assert.equal((await validate()).status, 429);
    } finally {
      await own.close();
    }
  });
});
