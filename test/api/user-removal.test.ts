import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { up as cleanUpRemovedUsers } from '../../src/platform/storage/migrations/0065-removed-users-endpoint.js';
import { newUser, validPolicy } from '../support/endpoint-cases.js';
import { type Tenant, type TestServer, startTestServer } from '../support/harness.js';
import { until } from '../support/until.js';

// What a user's removal (DELETE /api/dashboard/users/:id) leaves behind in the endpoint product
// (docs/endpoint.md, "Removing a user"), over HTTP on a real server.
let t: TestServer;
let a: Tenant;
let cookie: string;

before(async () => {
  t = await startTestServer();
  a = await t.tenant({ name: 'Removal', plan: 'business' });
  cookie = await a.session('admin');
});
after(async () => t.close());

const userPolicy = (targets: string[], name = 'For some users') => ({
  ...validPolicy(name),
  scope: { type: 'user', targets },
});

async function createPolicy(body: unknown) {
  const res = await t.request('POST', '/api/dashboard/endpoint/policies', { cookie, body });
  assert.equal(res.status, 201, res.text);
  return res.body.policy as { id: string; scope: { targets: string[] }; enabled: boolean };
}

async function policy(id: string) {
  const res = await t.request('GET', '/api/dashboard/endpoint/policies', { cookie });
  return (res.body.policies as Array<{ id: string; enabled: boolean; scope: { targets: string[] } }>).find(
    (p) => p.id === id,
  );
}

/** The data of the tenant's stored events of one type. */
async function eventData(type: string): Promise<any[]> {
  const rows = await t.ctx.storage.db
    .selectFrom('events')
    .select('data')
    .where('org_id', '=', a.org.id)
    .where('type', '=', type)
    .execute();
  return rows.map((e) => JSON.parse(e.data));
}

async function removeUser(id: string) {
  const res = await t.request('DELETE', `/api/dashboard/users/${id}`, { cookie });
  assert.equal(res.status, 200, res.text);
}

describe('removing a user', () => {
  it('takes the user out of policy scopes; a policy left with no target is disabled and can still be changed', async () => {
    const carol = await newUser(t, a);
    const dave = await newUser(t, a);
    const onlyCarol = await createPolicy(userPolicy([carol.email.toUpperCase()], 'Only Carol'));
    const both = await createPolicy(userPolicy([carol.id, dave.email], 'Carol and Dave'));
    const other = await createPolicy(userPolicy([dave.id], 'Only Dave'));
    await removeUser(carol.id);

    // neither the e-mail nor the id of the removed user stays in a scope
    const left = await policy(onlyCarol.id);
    assert.deepEqual(left?.scope.targets, []);
    assert.equal(left?.enabled, false, 'a policy that names nobody is disabled, not left active');
    assert.deepEqual((await policy(both.id))?.scope.targets, [dave.email]);
    assert.equal((await policy(both.id))?.enabled, true);
    assert.deepEqual((await policy(other.id))?.scope.targets, [dave.id]);
    const stored = JSON.stringify(
      await t.ctx.storage.db
        .selectFrom('endpoint_policies')
        .selectAll()
        .where('org_id', '=', a.org.id)
        .execute(),
    );
    assert.ok(!stored.includes(carol.email) && !stored.includes(carol.id), stored);

    // the emptied policy is still changed like any other (renamed, kept disabled); enabled again it needs a target
    const renamed = await t.request('PATCH', `/api/dashboard/endpoint/policies/${onlyCarol.id}`, {
      cookie,
      body: { name: 'Formerly Carol', enabled: false },
    });
    assert.equal(renamed.status, 200, renamed.text);
    const enabled = await t.request('PATCH', `/api/dashboard/endpoint/policies/${onlyCarol.id}`, {
      cookie,
      body: { enabled: true },
    });
    assert.equal(enabled.status, 400, enabled.text);
    assert.match(enabled.body.message, /scope\.targets must name at least one user/);
    const retargeted = await t.request('PATCH', `/api/dashboard/endpoint/policies/${onlyCarol.id}`, {
      cookie,
      body: { enabled: true, scope: { type: 'user', targets: [dave.id] } },
    });
    assert.equal(retargeted.status, 200, retargeted.text);

    // ids and counts only in the audit event, never the removed address
    const audit = await eventData('audit.endpoint_settings');
    const removal = audit.find((d) => d.action === 'user_removed');
    assert.equal(removal?.targetId, carol.id);
    assert.deepEqual(removal?.policiesDisabled, [onlyCarol.id]);
    assert.deepEqual([...removal.policiesChanged].sort(), [onlyCarol.id, both.id].sort());
    assert.ok(!JSON.stringify(audit).includes(carol.email));
  });

  it('a PATCH checks only the targets it adds: a stored target that is gone does not block disabling', async () => {
    const dave = await newUser(t, a);
    const p = await createPolicy(userPolicy([dave.email], 'Stale target'));
    // A scope written before removals cleaned scopes up: it still names an address nobody has any more.
    const gone = `gone.${randomBytes(4).toString('hex')}@a.example`;
    await t.ctx.storage.db
      .updateTable('endpoint_policies')
      .set({ scope_targets: JSON.stringify([gone, dave.email]) })
      .where('id', '=', p.id)
      .execute();
    const off = await t.request('PATCH', `/api/dashboard/endpoint/policies/${p.id}`, {
      cookie,
      body: { enabled: false },
    });
    assert.equal(off.status, 200, off.text);
    assert.equal(off.body.policy.enabled, false);
    // the same stored scope sent back whole is accepted; a new unknown target is refused, naming it
    const same = await t.request('PATCH', `/api/dashboard/endpoint/policies/${p.id}`, {
      cookie,
      body: { scope: { type: 'user', targets: [dave.email, gone.toUpperCase()] } },
    });
    assert.equal(same.status, 200, same.text);
    const typo = `typo.${randomBytes(4).toString('hex')}@a.example`;
    const added = await t.request('PATCH', `/api/dashboard/endpoint/policies/${p.id}`, {
      cookie,
      body: { scope: { type: 'user', targets: [dave.email, typo] } },
    });
    assert.equal(added.status, 400, added.text);
    assert.equal(added.body.message, `scope.targets: no user ${typo} in this organization.`);
  });

  it('unbinds the devices, leaves the groups and revokes the links of the user, in the removal', async () => {
    const carol = await newUser(t, a);
    const dave = await newUser(t, a);
    const reg = await t.request('POST', '/api/v1/endpoint/register', {
      key: a.al,
      body: { name: 'Carol laptop', os: 'macOS 15', browser: 'Chrome 141', extensionVersion: '1.4.0' },
    });
    assert.equal(reg.status, 201, reg.text);
    const device = reg.body as { deviceId: string; deviceToken: string };
    const bound = await t.request('POST', '/api/v1/endpoint/bind-user', {
      key: device.deviceToken,
      body: { email: carol.email },
    });
    assert.equal(bound.status, 200, bound.text);
    const group = await t.request('POST', '/api/dashboard/endpoint/groups', {
      cookie,
      body: { name: `Team ${randomBytes(3).toString('hex')}`, userIds: [carol.id, dave.id] },
    });
    assert.equal(group.status, 201, group.text);
    const link = await t.request('POST', '/api/dashboard/endpoint/enrollment', {
      cookie,
      body: { userId: carol.id, maxUses: 3 },
    });
    assert.equal(link.status, 201, link.text);
    const daveLink = await t.request('POST', '/api/dashboard/endpoint/enrollment', {
      cookie,
      body: { userId: dave.id },
    });
    const version = (
      await t.request('POST', '/api/v1/endpoint/heartbeat', { key: device.deviceToken, body: {} })
    ).body.configVersion as number;

    await removeUser(carol.id);

    const listed = await t.request('GET', '/api/dashboard/endpoint', { cookie });
    const row = listed.body.devices.items.find((d: { id: string }) => d.id === device.deviceId);
    assert.equal(row?.userId, null, 'the device stays enrolled, bound to nobody');
    const cfg = await t.request('GET', '/api/v1/endpoint/config', { key: device.deviceToken });
    assert.equal(cfg.status, 200, cfg.text);
    assert.equal(cfg.body.device.userId, null);
    const hb = await t.request('POST', '/api/v1/endpoint/heartbeat', { key: device.deviceToken, body: {} });
    assert.ok(hb.body.configVersion > version, 'the device is told to fetch its config again');

    const alert = await t.request('POST', '/api/v1/endpoint/alert', {
      key: device.deviceToken,
      body: {
        id: 'after-removal',
        type: 'EMAIL',
        domain: 'chat.example',
        action: 'warned',
        findingsCount: 1,
        redactedPreview: 'write to [EMAIL_1]',
      },
    });
    assert.equal(alert.status, 201, alert.text);
    const data = (await eventData('dlp.violation')).find((d) => d.deviceId === device.deviceId);
    assert.ok(data, 'the alert published dlp.violation');
    assert.equal(data.userId, null);

    const groups = await t.request('GET', '/api/dashboard/endpoint/groups', { cookie });
    const g = groups.body.groups.find((x: { id: string }) => x.id === group.body.group.id);
    assert.deepEqual(g?.userIds, [dave.id]);

    const links = await t.request('GET', '/api/dashboard/endpoint/enrollment', { cookie });
    const status = (id: string) => links.body.links.find((l: { id: string }) => l.id === id)?.status;
    assert.equal(status(link.body.link.id), 'revoked');
    assert.equal(status(daveLink.body.link.id), 'active', "another user's link is untouched");
    const enrolled = await t.request('POST', '/api/v1/endpoint/enroll', {
      body: { code: link.body.code, name: 'After Carol left' },
    });
    assert.equal(enrolled.status, 403, enrolled.text);
  });

  it('migration 0065 clears what users removed before this left behind, and devices are told to fetch', async () => {
    const tenant = await t.tenant({ name: 'Before', plan: 'business' });
    const owner = await tenant.session('admin');
    const [erin, frank] = [await newUser(t, tenant), await newUser(t, tenant)];
    const reg = await t.request('POST', '/api/v1/endpoint/register', {
      key: tenant.al,
      body: { name: 'Erin laptop', userId: erin.id },
    });
    assert.equal(reg.status, 201, reg.text);
    const group = await t.request('POST', '/api/dashboard/endpoint/groups', {
      cookie: owner,
      body: { name: 'Erin and Frank', userIds: [erin.id, frank.id] },
    });
    const link = await t.request('POST', '/api/dashboard/endpoint/enrollment', {
      cookie: owner,
      body: { userId: erin.id },
    });
    const created = await t.request('POST', '/api/dashboard/endpoint/policies', {
      cookie: owner,
      body: userPolicy([erin.email, frank.id], 'Erin and Frank'),
    });
    const onlyErin = await t.request('POST', '/api/dashboard/endpoint/policies', {
      cookie: owner,
      body: userPolicy([erin.id], 'Only Erin'),
    });
    const version = (
      await t.request('POST', '/api/v1/endpoint/heartbeat', { key: reg.body.deviceToken, body: {} })
    ).body.configVersion as number;
    // Erin removed the way removals did before: the row anonymised, nothing else touched.
    await t.ctx.storage.db
      .updateTable('users')
      .set({ removed_at: new Date().toISOString(), email: `removed+${erin.id}` })
      .where('id', '=', erin.id)
      .execute();

    await cleanUpRemovedUsers(t.ctx.storage.db as never);
    // A migration runs at start-up, before any process caches the state it read: forget this one's.
    t.ctx.endpoint.state.forget(tenant.org.id);

    const hb = await t.request('POST', '/api/v1/endpoint/heartbeat', { key: reg.body.deviceToken, body: {} });
    assert.ok(hb.body.configVersion > version, 'the organization has a new config version');
    const cfg = await t.request('GET', '/api/v1/endpoint/config', { key: reg.body.deviceToken });
    assert.equal(cfg.body.device.userId, null);
    const groups = await t.request('GET', '/api/dashboard/endpoint/groups', { cookie: owner });
    assert.deepEqual(groups.body.groups.find((g: { id: string }) => g.id === group.body.group.id)?.userIds, [
      frank.id,
    ]);
    const links = await t.request('GET', '/api/dashboard/endpoint/enrollment', { cookie: owner });
    assert.equal(links.body.links.find((l: { id: string }) => l.id === link.body.link.id)?.status, 'revoked');
    const listed = await t.request('GET', '/api/dashboard/endpoint/policies', { cookie: owner });
    const byId = (id: string) => listed.body.policies.find((p: { id: string }) => p.id === id);
    assert.deepEqual(byId(created.body.policy.id).scope.targets, [frank.id]);
    assert.equal(byId(created.body.policy.id).enabled, true);
    assert.deepEqual(byId(onlyErin.body.policy.id).scope.targets, []);
    assert.equal(byId(onlyErin.body.policy.id).enabled, false);
  });
});

describe('binding a user while that user is removed', () => {
  it('no device ends bound to a removed user: each binding made at the same moment is refused, or undone by the removal', async () => {
    // Before, a binding read the user in its transaction without holding the row: on PostgreSQL a removal
    // committed between that read and the binding's commit unbound nothing, and the device stayed bound to
    // the removed user. Rounds of real concurrency (the pool runs the four transactions side by side).
    const org = await t.tenant({ name: 'Removal race', plan: 'business' });
    const actor = { userId: null, apiKeyId: null, deviceId: null };
    const devices = t.ctx.endpoint.devices;
    const loadOrg = (id: string) => t.ctx.auth.loadOrg(id);
    const refusals =
      /^(No user \S+ in this organization\.|This enrollment link was revoked; .*|The user this enrollment link binds devices to is no longer in the organization; .*)$/;
    for (let round = 0; round < 30; round++) {
      const user = await newUser(t, org);
      const shared = await devices.register(org.org, { name: 'Shared laptop' }, 'key_test');
      const { code } = await devices.createLink(org.org, { userId: user.id, maxUses: 5 }, actor);
      const [bound, registered, enrolled, removal] = await Promise.allSettled([
        devices.bindUser(org.org, shared.deviceId, { userId: user.id }, actor),
        devices.register(org.org, { name: 'New laptop', email: user.email }, 'key_test'),
        devices.enroll({ code, name: 'Linked laptop' }, loadOrg),
        t.ctx.orgs.removeUser(org.org, user.id),
      ]);
      assert.equal(removal.status, 'fulfilled', String((removal as PromiseRejectedResult).reason));
      for (const r of [bound, registered, enrolled]) {
        if (r.status === 'rejected') assert.match(String(r.reason?.message), refusals, String(r.reason));
      }
    }
    const left = await t.ctx.storage.db
      .selectFrom('endpoint_devices as d')
      .innerJoin('users as u', 'u.id', 'd.user_id')
      .select(['d.id', 'd.name', 'u.id as userId'])
      .where('d.org_id', '=', org.org.id)
      .where('u.removed_at', 'is not', null)
      .execute();
    assert.deepEqual(left, [], 'devices bound to a removed user');
  });
});

describe('changing policies and groups while a user is removed', () => {
  // Before, a removal read the organization's policies without holding them and a policy or group write
  // read the users it names without holding them: on PostgreSQL a policy PATCH committed between the
  // removal's read and its write was written over from the older copy (its change lost), and a policy or
  // group that named the user while the removal ran kept naming the removed user.
  //
  // On PostgreSQL each case is one fixed interleaving, not left to chance: a transaction of the test holds
  // the organization's state row (every change bumps the config version there, as its last write), the
  // first operation is started and runs up to a lock, then the second, and only when both wait is the
  // state row released. Before the fix every case ends wrong on every run, but two: a PATCH of a policy the
  // removal rewrites, started after the removal, already waited for the removal's write of that row (kept
  // as guards of that order). SQLite, whose write transactions run one at a time, runs the two side by side.
  const actor = { userId: null, apiKeyId: null, deviceId: null };
  type Case = {
    name: string;
    /** The change made while the user (carol) is removed; its outcome and what it leaves are checked. */
    change: (s: Setup) => Promise<unknown>;
    /** What the change asks for besides carol: there after it succeeded, whatever the order. */
    kept: (s: Setup) => { policy?: string[]; group?: string[] };
  };
  type Setup = Awaited<ReturnType<typeof setup>>;

  async function setup() {
    const org = await t.tenant({ name: 'Removal and changes', plan: 'business' });
    const [carol, dave, erin] = [await newUser(t, org), await newUser(t, org), await newUser(t, org)];
    const admin = t.ctx.endpoint.admin;
    const make = (targets: string[], name: string) =>
      admin.createPolicy(org.org, userPolicy(targets, name) as never, actor);
    const withCarol = await make([carol.id, dave.email], 'Carol and Dave');
    const withoutCarol = await make([dave.id], 'Only Dave');
    // Carol in a group of her own: the removal always has something to change, so it always bumps the
    // config version (its last write) and waits there while the test holds the state row.
    await admin.createGroup(org.org, { name: 'Carol alone', userIds: [carol.id] }, actor);
    const team = await admin.createGroup(org.org, { name: 'Team', userIds: [dave.id] }, actor);
    return { org, carol, dave, erin, withCarol, withoutCarol, team };
  }

  /** A PATCH of one of the setup's policies that sets its user scope. */
  const patchScope = (which: 'withCarol' | 'withoutCarol', targets: (s: Setup) => string[]) => (s: Setup) =>
    t.ctx.endpoint.admin.updatePolicy(
      s.org.org,
      s[which].id,
      { scope: { type: 'user', targets: targets(s) } } as never,
      actor,
    );

  const cases: Case[] = [
    {
      name: 'a PATCH that replaces the removed user by another',
      change: patchScope('withCarol', (s) => [s.dave.email, s.erin.id]),
      kept: (s) => ({ policy: [s.dave.email, s.erin.id] }),
    },
    {
      name: 'a PATCH that adds a user to a scope naming the removed one',
      change: patchScope('withCarol', (s) => [s.carol.id, s.dave.email, s.erin.id]),
      kept: (s) => ({ policy: [s.dave.email, s.erin.id] }),
    },
    {
      name: 'a PATCH that adds the removed user',
      change: patchScope('withoutCarol', (s) => [s.dave.id, s.carol.email]),
      kept: (s) => ({ policy: [s.dave.id] }),
    },
    {
      name: 'a new policy naming the removed user',
      change: (s) =>
        t.ctx.endpoint.admin.createPolicy(
          s.org.org,
          userPolicy([s.carol.id, s.erin.id], 'New for Carol and Erin') as never,
          actor,
        ),
      kept: (s) => ({ policy: [s.erin.id] }),
    },
    {
      name: 'the removed user added to a group',
      change: (s) =>
        t.ctx.endpoint.admin.updateGroup(s.org.org, s.team.id, { userIds: [s.dave.id, s.carol.id] }, actor),
      kept: (s) => ({ group: [s.dave.id] }),
    },
    {
      name: 'a new group with the removed user',
      change: (s) =>
        t.ctx.endpoint.admin.createGroup(
          s.org.org,
          { name: 'New team', userIds: [s.carol.id, s.erin.id] },
          actor,
        ),
      kept: (s) => ({ group: [s.erin.id] }),
    },
  ];

  const refused = /^(scope\.targets|userIds): no user \S+ in this organization\.$/;
  const postgres = () => t.ctx.storage.dialect === 'postgres';

  /** How many sessions wait, directly or through another waiting one, for the session `pid`. */
  async function waitingOn(pid: number): Promise<number> {
    const { rows } = await sql<{ n: number }>`
      with recursive blocked(pid) as (
        select pid from pg_stat_activity where ${pid}::int = any(pg_blocking_pids(pid))
        union
        select a.pid from pg_stat_activity a join blocked b on b.pid = any(pg_blocking_pids(a.pid))
      )
      select count(*)::int as n from blocked`.execute(t.ctx.storage.db);
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * Runs `first`, then `second` while `first` is still in its transaction (PostgreSQL: both held at a lock
   * until the organization's state row, held here, is released), and settles both.
   */
  async function interleave(orgId: string, first: () => Promise<unknown>, second: () => Promise<unknown>) {
    if (!postgres()) return Promise.allSettled([first(), second()]);
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let held!: (pid: number) => void;
    const pid = new Promise<number>((r) => {
      held = r;
    });
    const holder = t.ctx.storage.db.transaction().execute(async (trx) => {
      await trx
        .selectFrom('endpoint_org_state')
        .select('org_id')
        .where('org_id', '=', orgId)
        .forUpdate()
        .execute();
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
      held(Number(rows[0]?.pid));
      await gate;
    });
    const p = await pid;
    try {
      const settled = [false, false];
      const run = (f: () => Promise<unknown>, i: number) =>
        f().finally(() => {
          settled[i] = true;
        });
      const a = run(first, 0);
      a.catch(() => {});
      await until('the first operation waits', async () => settled[0] || (await waitingOn(p)) >= 1);
      const b = run(second, 1);
      b.catch(() => {});
      const started = settled[0] ? 0 : 1;
      await until(
        'the second operation waits too',
        async () => settled[1] || (await waitingOn(p)) >= started + 1,
      );
      release();
      await holder;
      return Promise.allSettled([a, b]);
    } finally {
      release();
      await holder.catch(() => {});
    }
  }

  for (const c of cases) {
    for (const order of ['change first', 'removal first'] as const) {
      it(`${c.name} (${order}): the user is named nowhere after, and what the change did besides is kept`, async () => {
        const s = await setup();
        const remove = () => t.ctx.orgs.removeUser(s.org.org, s.carol.id);
        const change = () => c.change(s);
        const [x, y] = await interleave(
          s.org.org.id,
          order === 'change first' ? change : remove,
          order === 'change first' ? remove : change,
        );
        const [changed, removal] = order === 'change first' ? [x, y] : [y, x];
        assert.equal(removal?.status, 'fulfilled', String((removal as PromiseRejectedResult).reason));
        if (changed?.status === 'rejected') assert.match(String(changed.reason?.message), refused);

        const policies = await t.ctx.endpoint.admin.listPolicies(s.org.org.id);
        const groups = await t.ctx.endpoint.admin.listGroups(s.org.org.id);
        const all = JSON.stringify({ policies, groups });
        assert.ok(!all.includes(s.carol.id) && !all.includes(s.carol.email), `still named: ${all}`);
        if (changed?.status !== 'fulfilled') return;
        const want = c.kept(s);
        const result = changed.value as { id: string };
        if (want.policy)
          assert.deepEqual(policies.find((p) => p.id === result.id)?.scope.targets, want.policy, all);
        if (want.group)
          assert.deepEqual(
            groups.find((g) => g.id === result.id)?.userIds.sort(),
            [...want.group].sort(),
            all,
          );
      });
    }
  }

  // The same race with a group instead of a user: a policy whose scope comes to name a group while the
  // group is deleted kept naming a group that no longer exists (the deletion read the policies before the
  // policy's commit, the policy checked the group before the deletion's).
  const groupPolicy = (targets: string[], name: string) => ({
    ...validPolicy(name),
    scope: { type: 'group', targets },
  });
  const groupChanges: Array<{
    name: string;
    change: (orgRef: Setup['org']['org'], groupId: string, other: string) => Promise<unknown>;
  }> = [
    {
      name: 'a new policy naming the group',
      change: (o, g) =>
        t.ctx.endpoint.admin.createPolicy(o, groupPolicy([g], 'For the group') as never, actor),
    },
    {
      name: 'a PATCH that makes a policy name the group',
      change: async (o, g, other) => {
        const existing = await t.ctx.endpoint.admin.listPolicies(o.id);
        const id = existing.find((p) => p.name === 'For the other group')!.id;
        return t.ctx.endpoint.admin.updatePolicy(
          o,
          id,
          { scope: { type: 'group', targets: [other, g] } } as never,
          actor,
        );
      },
    },
  ];
  for (const c of groupChanges) {
    for (const order of ['change first', 'deletion first'] as const) {
      it(`${c.name} while the group is deleted (${order}): no policy names a deleted group`, async () => {
        const org = await t.tenant({ name: 'Group deletion and changes', plan: 'business' });
        const admin = t.ctx.endpoint.admin;
        const gone = await admin.createGroup(org.org, { name: 'Going', userIds: [] }, actor);
        const other = await admin.createGroup(org.org, { name: 'Staying', userIds: [] }, actor);
        await admin.createPolicy(org.org, groupPolicy([other.id], 'For the other group') as never, actor);
        const change = () => c.change(org.org, gone.id, other.id);
        const remove = () => admin.deleteGroup(org.org, gone.id, actor);
        const [x, y] = await interleave(
          org.org.id,
          order === 'change first' ? change : remove,
          order === 'change first' ? remove : change,
        );
        const [changed, deleted] = order === 'change first' ? [x, y] : [y, x];
        const groups = (await admin.listGroups(org.org.id)).map((g) => g.id);
        const policies = await admin.listPolicies(org.org.id);
        const dangling = policies.filter(
          (p) => p.scope.type === 'group' && p.scope.targets.some((g) => !groups.includes(g)),
        );
        assert.deepEqual(
          dangling,
          [],
          `a policy names a deleted group: ${JSON.stringify({ groups, policies })}`,
        );
        // one of the two gave way, with its reason
        if (deleted?.status === 'rejected')
          assert.match(String(deleted.reason?.message), /named by the scope/);
        if (changed?.status === 'rejected')
          assert.match(String(changed.reason?.message), /no group \S+ in this organization/);
        assert.ok(deleted?.status === 'fulfilled' || changed?.status === 'fulfilled', 'neither went through');
      });
    }
  }
});
