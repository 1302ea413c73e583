import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BOOTSTRAP_OWNER_EMAIL, bootstrapIfEmpty } from '../../src/main/bootstrap.js';
import { type TestServer, startTestServer } from '../support/harness.js';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(async () => t.close());

describe('first-start bootstrap', () => {
  it('completes a bootstrap that died half-way, with fresh secrets, and then never again', async () => {
    // A first start that died after creating the organization and its owner, before printing anything.
    const org = await t.ctx.orgs.createOrg({
      name: 'Default organization',
      plan: 'enterprise',
      settings: { bootstrapPending: true },
    });
    await t.ctx.orgs.createUser({
      org,
      email: BOOTSTRAP_OWNER_EMAIL,
      role: 'owner',
      password: 'never-shown-password',
    });
    const lost = await t.ctx.keys.create({ orgId: org.id, kind: 'al', name: 'never shown' });

    const result = await bootstrapIfEmpty(t.ctx);
    assert.ok(result);
    assert.equal(result.organization.id, org.id);
    assert.notEqual(result.owner.password, 'never-shown-password');
    const login = await t.request('POST', '/api/dashboard/auth/login', {
      body: { email: BOOTSTRAP_OWNER_EMAIL, password: result.owner.password },
    });
    assert.equal(login.status, 200);
    assert.equal(login.body.user.mustChangePassword, true, 'a printed password is changed at first sign-in');
    assert.equal((await t.request('GET', '/api/v1/stats', { key: result.keys.al })).status, 200);
    assert.equal(
      (await t.request('GET', '/api/v1/stats', { key: lost.secret })).status,
      401,
      'unshown keys are revoked',
    );

    assert.equal(await bootstrapIfEmpty(t.ctx), null);
    assert.equal((await t.ctx.orgs.listOrgs()).length, 1);
  });
});

describe('first-start bootstrap by processes started together', () => {
  let fresh: TestServer;
  let replica: TestServer;
  before(async () => {
    fresh = await startTestServer();
    replica = await startTestServer({ shareWith: fresh });
  });
  after(async () => {
    await replica.close();
    await fresh.close();
  });

  it('creates one organization, and the secrets printed by any start keep working', async () => {
    // Two `parapet serve` processes started at once on an empty database (a deployment's replicas): two
    // contexts, each with its own connections, as two processes have.
    const results = await Promise.all([
      bootstrapIfEmpty(fresh.ctx),
      bootstrapIfEmpty(replica.ctx),
      bootstrapIfEmpty(fresh.ctx),
    ]);
    assert.equal((await fresh.ctx.orgs.listOrgs()).length, 1, 'one first organization');
    const shown = results.filter((r) => r !== null);
    assert.equal(shown.length, 1, 'the secrets are printed by one start only');
    for (const r of shown) {
      assert.equal((await fresh.request('GET', '/api/v1/stats', { key: r.keys.al })).status, 200);
      const login = await fresh.request('POST', '/api/dashboard/auth/login', {
        body: { email: BOOTSTRAP_OWNER_EMAIL, password: r.owner.password },
      });
      assert.equal(login.status, 200);
    }
  });
});
