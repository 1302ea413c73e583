import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type Tenant, type TestServer } from '../support/harness.js';

// A password someone else set or saw (an admin's new user, a reset, the first start's owner) is changed at
// first sign-in (docs/auth.md, "A password to change first"): until then the session reaches only the
// password change, "me" and sign-out; every other dashboard API answers 403 password_change_required.
let t: TestServer;
let tenant: Tenant;
let counter = 0;

before(async () => {
  t = await startTestServer();
  tenant = await t.tenant({ name: 'First sign-in', plan: 'enterprise' });
});
after(async () => {
  await t.close();
});

async function login(email: string, password: string) {
  const res = await t.request('POST', '/api/dashboard/auth/login', { body: { email, password } });
  assert.equal(res.status, 200, res.text);
  return { body: res.body, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '' };
}

/** A user added by an admin on the dashboard (POST /api/dashboard/users), with the password it answered. */
async function addedByAdmin(role: 'admin' | 'member' = 'admin', password?: string) {
  const email = `first${++counter}@first-sign-in.example`;
  const res = await t.request('POST', '/api/dashboard/users', {
    cookie: await tenant.session('owner'),
    body: { email, role, ...(password ? { password } : {}) },
  });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.body.user.mustChangePassword, true);
  return { id: res.body.user.id as string, email, password: password ?? (res.body.password as string) };
}

const refusedUntilChanged = async (cookie: string) => {
  // a session route, an admin route, a read-out by session, a product route by session, a proof admin route
  const calls: Array<[string, string]> = [
    ['GET', '/api/dashboard/users'],
    ['GET', '/api/dashboard/organization'],
    ['GET', '/api/dashboard/keys'],
    ['POST', '/api/dashboard/keys'],
    ['GET', '/api/v1/stats'],
    ['GET', '/api/v1/gateway/conversations'],
    ['GET', '/api/v1/eps/proof/list'],
    ['GET', '/api/webhooks'],
  ];
  for (const [method, path] of calls) {
    const res = await t.request(method, path, {
      cookie,
      ...(method === 'POST' ? { body: { kind: 'al', name: 'sneaky' } } : {}),
    });
    assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
    assert.equal(res.body.error, 'password_change_required', `${method} ${path}`);
    assert.match(res.body.message, /Change your password first/);
    assert.equal(typeof res.body.requestId, 'string');
  }
};

describe('a user whose password was given to them', () => {
  it('is created by an admin with the flag; their session reaches only me, the change and sign-out; the change frees it', async () => {
    const user = await addedByAdmin('admin');
    const { body, cookie } = await login(user.email, user.password);
    assert.equal(body.user.mustChangePassword, true, 'the login answer says so');
    const me = await t.request('GET', '/api/dashboard/auth/me', { cookie });
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.user.mustChangePassword, true);

    await refusedUntilChanged(cookie);
    const sneaky = await t.ctx.storage.db
      .selectFrom('api_keys')
      .select('id')
      .where('org_id', '=', tenant.org.id)
      .where('name', '=', 'sneaky')
      .execute();
    assert.deepEqual(sneaky, [], 'the refused creation made nothing');

    const changed = await t.request('POST', '/api/dashboard/auth/me/password', {
      cookie,
      body: { currentPassword: user.password, newPassword: 'my-own-password-2026' },
    });
    assert.equal(changed.status, 200, changed.text);
    const after = await t.request('GET', '/api/dashboard/auth/me', { cookie });
    assert.equal(after.body.user.mustChangePassword, false);
    assert.equal(
      (await t.request('GET', '/api/dashboard/users', { cookie })).status,
      200,
      'the same session goes on',
    );
    assert.equal((await t.request('GET', '/api/dashboard/keys', { cookie })).status, 200);
    const listed = await t.request('GET', '/api/dashboard/users', { cookie });
    assert.equal(listed.body.users.find((u: { id: string }) => u.id === user.id).mustChangePassword, false);
    const again = await login(user.email, 'my-own-password-2026');
    assert.equal(again.body.user.mustChangePassword, false);
  });

  it('a password the admin chose is flagged too; sign-out works while the change is due', async () => {
    const user = await addedByAdmin('member', 'admin-chose-this-1');
    const { cookie } = await login(user.email, user.password);
    await refusedUntilChanged(cookie);
    const out = await t.request('POST', '/api/dashboard/auth/logout', { cookie });
    assert.equal(out.status, 200, out.text);
    assert.equal((await t.request('GET', '/api/dashboard/auth/me', { cookie })).status, 401);
  });

  it('a wrong current password keeps the flag; a reset by the operator sets it again', async () => {
    const user = await addedByAdmin('member');
    const { cookie } = await login(user.email, user.password);
    const wrong = await t.request('POST', '/api/dashboard/auth/me/password', {
      cookie,
      body: { currentPassword: 'not-the-one-given', newPassword: 'my-own-password-2026' },
    });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.body.error, 'forbidden');
    await refusedUntilChanged(cookie);

    const ok = await t.request('POST', '/api/dashboard/auth/me/password', {
      cookie,
      body: { currentPassword: user.password, newPassword: 'my-own-password-2026' },
    });
    assert.equal(ok.status, 200, ok.text);
    // `parapet user password` (and a first start completed again) resets through this
    const reset = await t.ctx.orgs.resetPassword(tenant.org.id, user.id);
    assert.equal(
      (await t.request('GET', '/api/dashboard/auth/me', { cookie })).status,
      401,
      'sessions ended',
    );
    const next = await login(user.email, reset);
    assert.equal(next.body.user.mustChangePassword, true);
    await refusedUntilChanged(next.cookie);
  });

  it('users who chose their own password are not held (the test tenants, created without the flag)', async () => {
    const cookie = await tenant.session('member');
    assert.equal((await t.request('GET', '/api/dashboard/users', { cookie })).status, 200);
    const me = await t.request('GET', '/api/dashboard/auth/me', { cookie });
    assert.equal(me.body.user.mustChangePassword, false);
  });
});
