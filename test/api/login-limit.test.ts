import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/platform/clock/index.js';
import { startTestServer, type Tenant, type TestServer } from '../support/harness.js';

// The sign-in limit counts failures per client address (docs/auth.md): twenty a minute. Colleagues behind one
// NAT address sign in as often as they need; guesses, sequential or parallel, stop at twenty.
let t: TestServer;
let tenant: Tenant;
const clock = new ManualClock('2026-03-02T09:00:05.000Z');
let counter = 0;

before(async () => {
  t = await startTestServer({ clock });
  tenant = await t.tenant({ name: 'Sign-in limit' });
});
after(async () => {
  await t.close();
});

/** Starts each case at the beginning of a fresh one-minute window. */
function nextWindow() {
  const now = clock.now().getTime();
  clock.set(new Date(Math.floor(now / 60_000) * 60_000 + 60_000 + 1_000));
}
async function newUser() {
  const email = `signer${++counter}@limit.example`;
  const password = `right-password-${counter}-abcdef`;
  await t.ctx.orgs.createUser({ org: tenant.org, email, role: 'member', password });
  return { email, password };
}
const login = (email: string, password: string) =>
  t.request('POST', '/api/dashboard/auth/login', { body: { email, password } });

describe('POST /api/dashboard/auth/login: failed sign-ins per address', () => {
  it('lets thirty colleagues behind one address sign in within a minute', async () => {
    nextWindow();
    const users = await Promise.all(Array.from({ length: 30 }, () => newUser()));
    const statuses: number[] = [];
    for (const u of users) statuses.push((await login(u.email, u.password)).status);
    assert.deepEqual(statuses, new Array(30).fill(200));
  });

  it('refuses the 21st failure of the minute, and then even the right password, until the next minute', async () => {
    nextWindow();
    const { email, password } = await newUser();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await login(email, `wrong-${i}`)).status);
    assert.deepEqual(statuses, new Array(20).fill(401));
    const refused = await login(email, password);
    assert.equal(refused.status, 429, refused.text);
    assert.equal(refused.body.error, 'rate_limit_exceeded');
    assert.ok(Number(refused.headers.get('retry-after')) >= 1, 'says when to retry');
    clock.advance(60_000);
    assert.equal((await login(email, password)).status, 200, 'the next minute signs in');
  });

  it('does not let successful sign-ins wash out failures', async () => {
    nextWindow();
    const mine = await newUser();
    const victim = await newUser();
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 5; i++) assert.equal((await login(victim.email, `guess-${round}-${i}`)).status, 401);
      if (round < 3) assert.equal((await login(mine.email, mine.password)).status, 200);
    }
    assert.equal((await login(victim.email, 'one-more-guess')).status, 429);
    assert.equal((await login(mine.email, mine.password)).status, 429, 'the address is held for the minute');
  });

  it('admits at most twenty of a parallel burst of guesses', async () => {
    nextWindow();
    const { email } = await newUser();
    const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => login(email, `burst-${i}`)));
    const counts = new Map<number, number>();
    for (const r of statuses) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
    assert.equal(counts.get(401), 20, JSON.stringify([...counts]));
    assert.equal(counts.get(429), 20, JSON.stringify([...counts]));
  });
});
