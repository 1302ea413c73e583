import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Role } from '../../src/modules/plans/index.js';
import { type Tenant, type TestServer, startTestServer } from '../support/harness.js';

// Changing a user's role (PATCH /api/dashboard/users/:id, docs/auth.md "Changing a role"): who may grant which
// role, the organization never left without an owner, nobody changing their own role, and the audit event.

let t: TestServer;

before(async () => {
  t = await startTestServer();
});
after(async () => {
  await t.close();
});

let counter = 0;
async function addUser(tenant: Tenant, role: Role) {
  const { user } = await t.ctx.orgs.createUser({
    org: tenant.org,
    email: `${role}.${++counter}@roles.example.test`,
    role,
  });
  return user;
}

const me = async (cookie: string) =>
  (await t.request('GET', '/api/dashboard/auth/me', { cookie })).body.user as { id: string; role: string };

const patch = (cookie: string, id: string, role: unknown) =>
  t.request('PATCH', `/api/dashboard/users/${id}`, { cookie, body: { role } });

async function roleEvents(orgId: string, type = 'audit.user_role') {
  const rows = await t.ctx.storage.db
    .selectFrom('events')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('type', '=', type)
    .execute();
  return rows.map((r) => JSON.parse(r.data) as Record<string, unknown>);
}

describe('changing a role', () => {
  it('an admin changes a member into an admin: answered, listed, audited, and in force on their open session', async () => {
    const tenant = await t.tenant();
    const admin = await tenant.session('admin');
    const memberCookie = await tenant.newSession('member');
    const member = await me(memberCookie);
    // as a member, creating a key is refused
    const before = await t.request('POST', '/api/dashboard/keys', {
      cookie: memberCookie,
      body: { name: 'x', kind: 'al' },
    });
    assert.equal(before.status, 403);

    const res = await patch(admin, member.id, 'admin');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.user.id, member.id);
    assert.equal(res.body.user.role, 'admin');
    const list = await t.request('GET', '/api/dashboard/users', { cookie: admin });
    assert.equal(list.body.users.find((u: { id: string }) => u.id === member.id).role, 'admin');

    // the same session, not a new one: the role is read on every request
    const after = await t.request('POST', '/api/dashboard/keys', {
      cookie: memberCookie,
      body: { name: 'x', kind: 'al' },
    });
    assert.equal(after.status, 201, after.text);

    const events = await roleEvents(tenant.org.id);
    assert.equal(events.length, 1);
    const adminId = (await me(admin)).id;
    assert.deepEqual(events[0], {
      action: 'role_changed',
      targetType: 'user',
      targetId: member.id,
      previousRole: 'member',
      role: 'admin',
      actor: { userId: adminId },
      severity: 'MEDIUM',
    });
    assert.ok(!JSON.stringify(events[0]).includes('@'), 'no e-mail address in the event');
  });

  it('setting the role a user already has answers 200 and writes no event', async () => {
    const tenant = await t.tenant();
    const viewer = await addUser(tenant, 'viewer');
    const res = await patch(await tenant.session('owner'), viewer.id, 'viewer');
    assert.equal(res.status, 200);
    assert.equal(res.body.user.role, 'viewer');
    assert.equal((await roleEvents(tenant.org.id)).length, 0);
  });

  it('only an owner makes or unmakes an owner', async () => {
    const tenant = await t.tenant();
    const admin = await tenant.session('admin');
    const member = await addUser(tenant, 'member');
    const otherOwner = await addUser(tenant, 'owner');

    const grant = await patch(admin, member.id, 'owner');
    assert.equal(grant.status, 403);
    assert.equal(grant.body.error, 'forbidden');
    assert.match(grant.body.message, /Only an owner can make or unmake an owner/);
    const demote = await patch(admin, otherOwner.id, 'member');
    assert.equal(demote.status, 403);
    assert.match(demote.body.message, /Only an owner/);
    assert.equal((await roleEvents(tenant.org.id)).length, 0, 'a refusal writes no event');

    const owner = await tenant.session('owner');
    assert.equal((await patch(owner, member.id, 'owner')).body.user.role, 'owner');
    assert.equal((await patch(owner, otherOwner.id, 'admin')).body.user.role, 'admin');
    const roles = (await t.request('GET', '/api/dashboard/users', { cookie: owner })).body.users as {
      id: string;
      role: string;
    }[];
    assert.equal(roles.find((u) => u.id === member.id)?.role, 'owner');
    assert.equal(roles.find((u) => u.id === otherOwner.id)?.role, 'admin');
    assert.equal((await roleEvents(tenant.org.id)).length, 2);
  });

  it('only an owner removes an owner', async () => {
    const tenant = await t.tenant();
    const owner = await addUser(tenant, 'owner');
    const refused = await t.request('DELETE', `/api/dashboard/users/${owner.id}`, {
      cookie: await tenant.session('admin'),
    });
    assert.equal(refused.status, 403);
    assert.match(refused.body.message, /Only an owner can remove an owner/);
    assert.ok((await t.ctx.orgs.listUsers(tenant.org.id)).some((u) => u.id === owner.id));
    const done = await t.request('DELETE', `/api/dashboard/users/${owner.id}`, {
      cookie: await tenant.session('owner'),
    });
    assert.equal(done.status, 200, done.text);
  });

  it('nobody changes their own role, owner or admin', async () => {
    const tenant = await t.tenant();
    for (const role of ['owner', 'admin'] as const) {
      const cookie = await tenant.session(role);
      const self = await me(cookie);
      const res = await patch(cookie, self.id, 'viewer');
      assert.equal(res.status, 403, role);
      assert.match(res.body.message, /cannot change your own role/);
      assert.equal((await me(cookie)).role, role);
    }
  });

  it('members and viewers may not change roles', async () => {
    const tenant = await t.tenant();
    const target = await addUser(tenant, 'viewer');
    for (const role of ['member', 'viewer'] as const) {
      const res = await patch(await tenant.session(role), target.id, 'member');
      assert.equal(res.status, 403, role);
    }
  });

  it('the last owner keeps the role, whoever asks the service', async () => {
    // Over HTTP the rules above already make this unreachable (only another owner may demote an owner); the
    // service checks it anyway, for callers that are not a session and for two owners demoting each other.
    const tenant = await t.tenant();
    const owner = await addUser(tenant, 'owner');
    await assert.rejects(
      t.ctx.orgs.changeRole(tenant.org, { id: 'usr_someone_else', role: 'owner' }, owner.id, 'admin'),
      (err: Error & { code?: string }) => /last owner/.test(err.message),
    );
    const users = await t.ctx.orgs.listUsers(tenant.org.id);
    assert.equal(users.find((u) => u.id === owner.id)?.role, 'owner');
  });

  it('two owners demoting each other at once leave one owner', async () => {
    const tenant = await t.tenant();
    const a = await tenant.newSession('owner');
    const b = await tenant.newSession('owner');
    const [ida, idb] = [(await me(a)).id, (await me(b)).id];
    const [ra, rb] = await Promise.all([patch(a, idb, 'admin'), patch(b, ida, 'admin')]);
    const statuses = [ra.status, rb.status].sort();
    // the first wins; the second is either refused as the last owner, or by its caller no longer being one
    assert.equal(statuses[0], 200, `${ra.text} ${rb.text}`);
    assert.ok(statuses[1] === 403 || statuses[1] === 409, `${ra.text} ${rb.text}`);
    const owners = (await t.ctx.orgs.listUsers(tenant.org.id)).filter((u) => u.role === 'owner');
    assert.equal(owners.length, 1);
  });

  it('refuses a role that does not exist with the error body, and changes nothing', async () => {
    const tenant = await t.tenant();
    const member = await addUser(tenant, 'member');
    const res = await patch(await tenant.session('owner'), member.id, 'emperor');
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'invalid_request');
    assert.match(res.body.message, /role/);
    const extra = await t.request('PATCH', `/api/dashboard/users/${member.id}`, {
      cookie: await tenant.session('owner'),
      body: { role: 'admin', email: 'x@y.z' },
    });
    assert.equal(extra.status, 400);
    const users = await t.ctx.orgs.listUsers(tenant.org.id);
    assert.equal(users.find((u) => u.id === member.id)?.role, 'member');
  });

  it("another organization's user is 404 and keeps their role; so is a removed user", async () => {
    const mine = await t.tenant();
    const theirs = await t.tenant();
    const their = await addUser(theirs, 'member');
    const res = await patch(await mine.session('owner'), their.id, 'admin');
    assert.equal(res.status, 404);
    assert.equal(res.body.error, 'not_found');
    assert.equal((await t.ctx.orgs.listUsers(theirs.org.id)).find((u) => u.id === their.id)?.role, 'member');
    assert.equal((await roleEvents(mine.org.id)).length + (await roleEvents(theirs.org.id)).length, 0);

    const gone = await addUser(mine, 'member');
    await t.ctx.orgs.removeUser(mine.org, gone.id);
    assert.equal((await patch(await mine.session('owner'), gone.id, 'admin')).status, 404);
  });
  it('an admin cannot change or remove a user whose promotion to owner commits meanwhile', async () => {
    // Another transaction promotes the user and holds its row until it commits; the admin's change read the
    // old role, so its write must find the role changed and answer 409 instead of unmaking an owner.
    const tenant = await t.tenant();
    const admin = await addUser(tenant, 'admin');
    for (const act of ['role', 'remove'] as const) {
      const target = await addUser(tenant, 'viewer');
      let pending: Promise<unknown> = Promise.resolve();
      await t.ctx.storage.db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ role: 'owner' }).where('id', '=', target.id).execute();
        pending =
          act === 'role'
            ? t.ctx.orgs.changeRole(tenant.org, { id: admin.id, role: 'admin' }, target.id, 'member')
            : t.ctx.orgs.removeUser(tenant.org, target.id, { id: admin.id, role: 'admin' });
        pending.catch(() => {}); // settled below, after the promotion commits
        await new Promise((r) => setTimeout(r, 300));
      });
      const outcome = await pending.then(
        () => 'done',
        (err: Error & { code?: string }) => err.code ?? err.message,
      );
      // SQLite runs write transactions one at a time: the change then starts after the promotion and is
      // refused as an admin's change of an owner; on PostgreSQL it read the old role and its write finds the
      // role changed
      assert.ok(['conflict', 'forbidden'].includes(outcome), `${act}: ${outcome}`);
      const users = await t.ctx.orgs.listUsers(tenant.org.id);
      assert.equal(users.find((u) => u.id === target.id)?.role, 'owner', act);
    }
  });
});

describe('the admin-scope keys of a user who stops being an admin', () => {
  const createKey = async (cookie: string, scope: 'admin' | 'products') => {
    const res = await t.request('POST', '/api/dashboard/keys', {
      cookie,
      body: { name: `${scope} key`, kind: 'sw', scope },
    });
    assert.equal(res.status, 201, res.text);
    return res.body as { key: { id: string }; secret: string };
  };
  const webhooksWith = (key: string) => t.request('GET', '/api/webhooks', { key });

  it('are revoked with the demotion to member: the key no longer stands for an admin', async () => {
    const tenant = await t.tenant();
    const owner = await tenant.session('owner');
    const adminCookie = await tenant.newSession('admin');
    const admin = await me(adminCookie);
    const adminKey = await createKey(adminCookie, 'admin');
    const productKey = await createKey(adminCookie, 'products');
    const ownerKey = await createKey(owner, 'admin');
    assert.equal((await webhooksWith(adminKey.secret)).status, 200);

    assert.equal((await patch(owner, admin.id, 'member')).status, 200);
    const after = await webhooksWith(adminKey.secret);
    assert.equal(after.status, 401, after.text);
    // another manager's admin key, and the product keys the user made, are not theirs to lose
    assert.equal((await webhooksWith(ownerKey.secret)).status, 200);
    const dlp = await t.request('POST', '/api/v1/dlp/analyze', { key: productKey.secret, body: { text: 'hi' } });
    assert.equal(dlp.status, 200, dlp.text);

    const listed = await t.request('GET', '/api/dashboard/keys', { cookie: owner });
    const row = listed.body.keys.find((k: { id: string }) => k.id === adminKey.key.id);
    assert.equal(row.status, 'revoked');
    const revoked = await roleEvents(tenant.org.id, 'api_key.revoked');
    assert.ok(
      revoked.some((e) => e['keyId'] === adminKey.key.id && e['reason'] === 'creator_no_longer_admin'),
      'the revocation is an api_key.revoked event',
    );
  });

  it('are revoked when the user is removed; a change between owner and admin keeps them', async () => {
    const tenant = await t.tenant();
    const owner = await tenant.session('owner');
    const secondOwnerCookie = await tenant.newSession('owner');
    const secondOwner = await me(secondOwnerCookie);
    const key = await createKey(secondOwnerCookie, 'admin');
    assert.equal((await patch(owner, secondOwner.id, 'admin')).status, 200);
    assert.equal((await webhooksWith(key.secret)).status, 200, 'an admin keeps an admin key');
    const removed = await t.request('DELETE', `/api/dashboard/users/${secondOwner.id}`, { cookie: owner });
    assert.equal(removed.status, 200, removed.text);
    const after = await webhooksWith(key.secret);
    assert.equal(after.status, 401, after.text);
  });
});
