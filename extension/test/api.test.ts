import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, call } from '../src/background/api.js';
import { reenrollAnswer } from './orgs.js';
import { perTest } from './worker-chrome.js';

// A 401 asking the device to enroll again drops the enrollment, but only the enrollment whose token was
// refused. An upload sent with the previous token while the device enrolled again (the new enrollment
// retires that token on the server) must leave the new enrollment alone: it once did not, and the device
// fell back to local defaults right after enrolling. chrome.* and fetch are stand-ins here; the real ones
// are exercised by e2e.test.ts ("a device revoked in the dashboard").

const t = perTest(() => ({
  serverUrl: 'http://parapet.test',
  deviceToken: 'dt_old',
  deviceId: 'dev_old',
  organizationId: 'org_1',
}));

describe('a 401 with reenroll', () => {
  it('keeps a new enrollment made while the refused request was in flight', async () => {
    globalThis.fetch = (async (_url: string | URL, init?: RequestInit) => {
      assert.equal(new Headers(init?.headers).get('authorization'), 'Bearer dt_old');
      // meanwhile the device enrolled again: the server retired dt_old in that enrollment
      Object.assign(t.storage, { deviceToken: 'dt_new', deviceId: 'dev_new', organizationId: 'org_2' });
      return reenrollAnswer();
    }) as typeof fetch;
    await assert.rejects(
      call('/api/v1/endpoint/alert', { body: {} }),
      (e) => e instanceof ApiError && e.status === 401,
    );
    assert.equal(t.storage['deviceToken'], 'dt_new');
    assert.equal(t.storage['deviceId'], 'dev_new');
    assert.equal(t.storage['organizationId'], 'org_2');
    assert.equal(t.storage['lastError'], undefined);
    assert.equal(t.worker.ruleUpdates, 0, 'the block rules were put back to the built-in ones');
  });

  it('drops the enrollment whose token it refused, back to the built-in rules', async () => {
    globalThis.fetch = (async () => reenrollAnswer()) as typeof fetch;
    await assert.rejects(
      call('/api/v1/endpoint/alert', { body: {} }),
      (e) => e instanceof ApiError && e.status === 401,
    );
    assert.equal(t.storage['deviceToken'], undefined);
    assert.equal(t.storage['deviceId'], undefined);
    assert.equal(t.storage['organizationId'], undefined);
    assert.equal(t.storage['lastError'], 'The device must be enrolled again.');
    assert.ok(t.worker.ruleUpdates > 0, 'the block rules stayed the organization’s');
  });
});
