import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ApiError, call } from '../src/background/api.js';
import { localArea } from './chrome-storage.js';

// A 401 asking the device to enroll again drops the enrollment, but only the enrollment whose token was
// refused. An upload sent with the previous token while the device enrolled again (the new enrollment
// retires that token on the server) must leave the new enrollment alone: it once did not, and the device
// fell back to local defaults right after enrolling. chrome.* and fetch are stand-ins here; the real ones
// are exercised by e2e.test.ts ("a device revoked in the dashboard").

let storage: Record<string, unknown>;
let ruleUpdates: number;
const realFetch = globalThis.fetch;

// Enum members read at run time (RuleActionType.BLOCK …) answer their own names.
const names = new Proxy({}, { get: (_t, p) => String(p) });

beforeEach(() => {
  storage = {
    serverUrl: 'http://parapet.test',
    deviceToken: 'dt_old',
    deviceId: 'dev_old',
    organizationId: 'org_1',
  };
  ruleUpdates = 0;
  (globalThis as { chrome?: unknown }).chrome = {
    storage: { local: localArea(storage) },
    declarativeNetRequest: {
      RuleActionType: names,
      ResourceType: names,
      async getDynamicRules() {
        return [];
      },
      async updateDynamicRules() {
        ruleUpdates++;
      },
      async getSessionRules() {
        return [];
      },
      async updateSessionRules() {
        ruleUpdates++;
      },
    },
    scripting: {
      async getRegisteredContentScripts() {
        return [];
      },
      async unregisterContentScripts() {},
      async registerContentScripts() {},
    },
  };
});
afterEach(() => {
  globalThis.fetch = realFetch;
  delete (globalThis as { chrome?: unknown }).chrome;
});

/** The server's answer to a token it no longer knows. */
function reenroll(): Response {
  return Response.json(
    {
      error: 'unauthorized',
      message: 'The device token is unknown or revoked; enroll the device again.',
      statusCode: 401,
      reenroll: true,
    },
    { status: 401 },
  );
}

describe('a 401 with reenroll', () => {
  it('keeps a new enrollment made while the refused request was in flight', async () => {
    globalThis.fetch = (async (_url: string | URL, init?: RequestInit) => {
      assert.equal(new Headers(init?.headers).get('authorization'), 'Bearer dt_old');
      // meanwhile the device enrolled again: the server retired dt_old in that enrollment
      Object.assign(storage, { deviceToken: 'dt_new', deviceId: 'dev_new', organizationId: 'org_2' });
      return reenroll();
    }) as typeof fetch;
    await assert.rejects(
      call('/api/v1/endpoint/alert', { body: {} }),
      (e) => e instanceof ApiError && e.status === 401,
    );
    assert.equal(storage['deviceToken'], 'dt_new');
    assert.equal(storage['deviceId'], 'dev_new');
    assert.equal(storage['organizationId'], 'org_2');
    assert.equal(storage['lastError'], undefined);
    assert.equal(ruleUpdates, 0, 'the block rules were put back to the built-in ones');
  });

  it('drops the enrollment whose token it refused, back to the built-in rules', async () => {
    globalThis.fetch = (async () => reenroll()) as typeof fetch;
    await assert.rejects(
      call('/api/v1/endpoint/alert', { body: {} }),
      (e) => e instanceof ApiError && e.status === 401,
    );
    assert.equal(storage['deviceToken'], undefined);
    assert.equal(storage['deviceId'], undefined);
    assert.equal(storage['organizationId'], undefined);
    assert.equal(storage['lastError'], 'The device must be enrolled again.');
    assert.ok(ruleUpdates > 0, 'the block rules stayed the organization’s');
  });
});
