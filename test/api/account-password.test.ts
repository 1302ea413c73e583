import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toSiemEvent } from '../../src/modules/siem/siem-event.js';
import { hashPassword } from '../../src/platform/crypto/index.js';
import { startTestServer, type Tenant, type TestServer } from '../support/harness.js';

// A signed-in user changes their own password (docs/auth.md): the current one checked, the rule of user
// creation for the new one, the user's other sessions ended, an audit event, a limit like the login's.
let t: TestServer;
let tenant: Tenant;
const PATH = '/api/dashboard/auth/me/password';
let counter = 0;

before(async () => {
  t = await startTestServer();
  tenant = await t.tenant({ name: 'Password changers' });
});
after(async () => {
  await t.close();
});

async function newUser(password = 'first-password-1234') {
  const email = `changer${++counter}@password.example`;
  const { user } = await t.ctx.orgs.createUser({ org: tenant.org, email, role: 'member', password });
  return { user, email, password };
}
async function login(email: string, password: string) {
  const res = await t.request('POST', '/api/dashboard/auth/login', { body: { email, password } });
  return { status: res.status, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '' };
}
const change = (cookie: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.request('POST', PATH, { cookie, body, headers });

describe('POST /api/dashboard/auth/me/password', () => {
  it('changes the password, ends the other sessions, keeps this one, and writes an audit event', async () => {
    const { user, email, password } = await newUser();
    const here = (await login(email, password)).cookie;
    const elsewhere = (await login(email, password)).cookie;
    const res = await change(here, { currentPassword: password, newPassword: 'second-password-5678' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { success: true, otherSessionsEnded: 1 });

    assert.equal((await t.request('GET', '/api/dashboard/auth/me', { cookie: here })).status, 200);
    assert.equal((await t.request('GET', '/api/dashboard/auth/me', { cookie: elsewhere })).status, 401);
    assert.equal((await login(email, password)).status, 401, 'the old password no longer signs in');
    assert.equal((await login(email, 'second-password-5678')).status, 200);

    const events = await t.ctx.storage.db
      .selectFrom('events')
      .selectAll()
      .where('org_id', '=', tenant.org.id)
      .where('type', '=', 'audit.password_changed')
      .execute();
    assert.equal(events.length, 1);
    const data = JSON.parse(events[0]!.data);
    assert.equal(data.userId, user.id);
    assert.equal(data.otherSessionsEnded, 1);
    assert.ok(!events[0]!.data.includes('password-'), 'no password in the event');
    assert.ok(!events[0]!.data.includes(email), 'no e-mail address in the event');
    const siem = toSiemEvent({ ...events[0]!, data });
    assert.equal(siem.category, 'AUTHENTICATION');
    assert.equal(siem.severity, 'MEDIUM');
  });

  it('refuses a wrong current password (403, not 401: the session goes on), changes nothing, and writes an audit event', async () => {
    const { user, email, password } = await newUser();
    const { cookie } = await login(email, password);
    const res = await change(
      cookie,
      { currentPassword: 'not-the-password', newPassword: 'another-one-12345' },
      { 'user-agent': 'guesser/1.0' },
    );
    assert.equal(res.status, 403, res.text);
    assert.equal(res.body.error, 'forbidden');
    assert.match(res.body.message, /currentPassword/);
    assert.equal((await t.request('GET', '/api/dashboard/auth/me', { cookie })).status, 200);
    assert.equal((await login(email, password)).status, 200);

    const events = await t.ctx.storage.db
      .selectFrom('events')
      .selectAll()
      .where('org_id', '=', tenant.org.id)
      .where('type', '=', 'audit.password_change_failed')
      .execute();
    const mine = events.filter((e) => JSON.parse(e.data).userId === user.id);
    assert.equal(mine.length, 1, 'one event for the one wrong attempt');
    const data = JSON.parse(mine[0]!.data);
    assert.equal(data.action, 'password_change_failed');
    assert.equal(data.reason, 'wrong_current_password');
    assert.equal(data.targetId, user.id);
    assert.equal(data.userAgent, 'guesser/1.0');
    assert.equal(typeof data.sourceIp, 'string');
    for (const secret of ['not-the-password', 'another-one-12345', password, email])
      assert.ok(!mine[0]!.data.includes(secret), 'no password typed and no e-mail address in the event');
    const siem = toSiemEvent({ ...mine[0]!, data });
    assert.equal(siem.category, 'AUTHENTICATION');
    assert.equal(siem.severity, 'MEDIUM');
    const changed = await t.ctx.storage.db
      .selectFrom('events')
      .select('data')
      .where('type', '=', 'audit.password_changed')
      .execute();
    assert.ok(!changed.some((e) => JSON.parse(e.data).userId === user.id), 'no change was recorded');
  });

  it('holds the new password to the rule of user creation and refuses the same one', async () => {
    const { email, password } = await newUser();
    const { cookie } = await login(email, password);
    const short = await change(cookie, { currentPassword: password, newPassword: 'short-pw' });
    assert.equal(short.status, 400, short.text);
    assert.match(short.body.message, /newPassword/);
    const same = await change(cookie, { currentPassword: password, newPassword: password });
    assert.equal(same.status, 400, same.text);
    assert.match(same.body.message, /newPassword/);
    const extra = await change(cookie, { currentPassword: password, newPassword: 'long-enough-pw-1', x: 1 });
    assert.equal(extra.status, 400, extra.text);
    assert.equal((await login(email, password)).status, 200);
  });

  it('needs a session (a key is refused), refuses a cross-site request, and is limited like the login', async () => {
    const { email, password } = await newUser();
    const { cookie } = await login(email, password);
    const body = { currentPassword: password, newPassword: 'third-password-9012' };
    assert.equal((await t.request('POST', PATH, { key: tenant.admin, body })).status, 401);
    assert.equal((await t.request('POST', PATH, { body })).status, 401);
    const cross = await change(cookie, body, { origin: 'https://evil.example' });
    assert.equal(cross.status, 403, cross.text);

    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      statuses.push(
        (await change(cookie, { currentPassword: `guess-${i}`, newPassword: 'guessing-12345' })).status,
      );
    }
    assert.deepEqual(statuses.slice(0, 20), new Array(20).fill(403));
    assert.equal(statuses[20], 429, 'the 21st attempt of the minute is refused before any check');
    assert.equal(
      (await change(cookie, body)).status,
      429,
      'also with the right password, until the minute ends',
    );
  });

  it('counts only wrong current passwords: a new password the service refuses does not use up the minute', async () => {
    const { email, password } = await newUser();
    const { cookie } = await login(email, password);
    const statuses: number[] = [];
    // the current password again: a 400 of the service (the schema's 400s never reach the counter)
    for (let i = 0; i < 25; i++)
      statuses.push((await change(cookie, { currentPassword: password, newPassword: password })).status);
    assert.deepEqual(
      statuses,
      new Array(25).fill(400),
      'each refusal of the new password is a 400, never a 429',
    );
    const ok = await change(cookie, { currentPassword: password, newPassword: 'fourth-password-3456' });
    assert.equal(ok.status, 200, ok.text);
  });

  it('never overwrites a reset that lands while the current password is being checked', async () => {
    // An administrator resets a password to lock out a stolen session while its holder is changing it: the
    // change read the old hash, checks the current password against it (slow, by design), then writes. The
    // reset, written in between, must stand: the change is refused (409), or 403 when the reset landed before
    // the read. Either way the password the change chose does not sign in, and the reset's does.
    const { user, email, password } = await newUser();
    const cookie = (await login(email, password)).cookie;
    const resetHash = await hashPassword('reset-password-0000');
    const pending = change(cookie, { currentPassword: password, newPassword: 'thief-password-9999' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await t.ctx.storage.db
      .updateTable('users')
      .set({ password_hash: resetHash, must_change_password: 1 })
      .where('id', '=', user.id)
      .execute();
    const res = await pending;
    assert.ok([403, 409].includes(res.status), `${res.status} ${res.text}`);
    assert.equal((await login(email, 'thief-password-9999')).status, 401);
    assert.equal((await login(email, 'reset-password-0000')).status, 200);
  });
});
