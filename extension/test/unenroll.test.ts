import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aiSitePatterns } from '../src/background/ai-sites.js';
import { compileRules } from '../src/background/dnr.js';
import { unenroll } from '../src/background/unenroll.js';
import { orgConfig, reenrollAnswer } from './orgs.js';
import { deferred, perTest } from './worker-chrome.js';

// Unenrolling drops the enrollment whose token the server was told about, never one made meanwhile. The
// answer (revoked, already unknown, gone) concerns the token sent; when the device enrolled again while it
// was out (a second options page, the managed configuration), the new enrollment stays and the person is
// told so. It used to be dropped after a 200 or a 404, and a 401 was reported as a success.

const SERVER = 'http://parapet.test';
const configB = orgConfig('org_b', 2);
const enrolledA = () => ({
  serverUrl: SERVER,
  deviceToken: 'dt_a',
  deviceId: 'dev_a',
  organizationId: 'org_a',
  config: orgConfig('org_a', 5),
  configVersion: 5,
});
const t = perTest(enrolledA);
const enrollmentB = {
  deviceToken: 'dt_b',
  deviceId: 'dev_b',
  organizationId: 'org_b',
  config: configB,
  configVersion: 2,
};
const ENROLLED_AGAIN = /^Still enrolled: the device enrolled again while it was leaving/;

/** The device holds enrollment B with B's block rules and AI-site scripts in force. */
function enrollB(): void {
  Object.assign(t.storage, structuredClone(enrollmentB));
  t.worker.rules = compileRules(configB, SERVER);
  t.worker.sites = aiSitePatterns(configB).matches;
}

function assertStillB(): void {
  for (const [k, v] of Object.entries(enrollmentB))
    assert.deepEqual(t.storage[k], v, `${k} of B was dropped`);
  assert.deepEqual(t.worker.rules, compileRules(configB, SERVER), 'B’s block rules were dropped');
  assert.deepEqual(t.worker.sites, aiSitePatterns(configB).matches);
}

const answers: Array<[string, () => Response]> = [
  ['revoked (200)', () => Response.json({ deviceId: 'dev_a', status: 'revoked' })],
  ['already unknown (401 with reenroll)', reenrollAnswer],
  [
    'gone (404)',
    () =>
      Response.json({ error: 'not_found', message: 'Device not found', statusCode: 404 }, { status: 404 }),
  ],
];

describe('unenrolling while the device enrolls again', () => {
  for (const [name, answer] of answers) {
    it(`keeps the new enrollment when the previous token is answered ${name}`, async () => {
      const reply = deferred<Response>();
      const asked = deferred();
      globalThis.fetch = (async (url: string | URL, init?: RequestInit) => {
        assert.equal(String(url), `${SERVER}/api/v1/endpoint/unenroll`);
        assert.equal(new Headers(init?.headers).get('authorization'), 'Bearer dt_a');
        asked.resolve();
        return reply.promise;
      }) as typeof fetch;
      const leaving = unenroll();
      await asked.promise;
      enrollB();
      reply.resolve(answer());
      const outcome = await leaving.then(
        () => undefined,
        (err: Error) => err.message,
      );
      assertStillB();
      assert.match(String(outcome), ENROLLED_AGAIN, 'reported as unenrolled');
    });

    it(`drops the enrollment when its own token is answered ${name}`, async () => {
      t.worker.rules = compileRules(orgConfig('org_a', 5), SERVER);
      globalThis.fetch = (async () => answer()) as typeof fetch;
      await unenroll();
      assert.equal(t.storage['deviceToken'], undefined);
      assert.equal(t.storage['config'], undefined);
      assert.deepEqual(t.worker.rules, []);
    });
  }

  it('keeps an enrollment that lands after it found the device not enrolled', async () => {
    for (const k of Object.keys(t.storage)) delete t.storage[k];
    t.storage['serverUrl'] = SERVER;
    const local = (globalThis as unknown as { chrome: typeof chrome }).chrome.storage.local;
    const get = local.get.bind(local);
    // the first read (unenroll's) sees no enrollment; the device enrolls right after it
    local.get = (async () => {
      const seen = await get(null);
      local.get = get;
      enrollB();
      return seen;
    }) as typeof local.get;
    globalThis.fetch = (async () => assert.fail('nothing to tell the server')) as typeof fetch;
    const outcome = await unenroll().then(
      () => undefined,
      (err: Error) => err.message,
    );
    assertStillB();
    assert.match(String(outcome), ENROLLED_AGAIN, 'reported as unenrolled');
  });
});
