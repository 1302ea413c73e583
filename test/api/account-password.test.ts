import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toSiemEvent } from '../../src/modules/siem/siem-event.js';
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

  it('refuses a wrong current password (403, not 401: the session goes on), and changes nothing', async () => {
    const { email, password } = await newUser();
    const { cookie } = await login(email, password);
    const res = await change(cookie, {
      currentPassword: 'not-the-password',
      newPassword: 'another-one-12345',
    });
    assert.equal(res.status, 403, res.text);
    assert.equal(res.body.error, 'forbidden');
    assert.match(res.body.message, /currentPassword/);
    assert.equal((await t.request('GET', '/api/dashboard/auth/me', { cookie })).status, 200);
    assert.equal((await login(email, password)).status, 200);
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
});
