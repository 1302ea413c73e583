import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fetchConfig } from '../src/background/config.js';
import { aiSitePatterns } from '../src/background/ai-sites.js';
import { compileRules } from '../src/background/dnr.js';
import { configAnswer, orgConfig } from './orgs.js';
import { deferred, perTest } from './worker-chrome.js';

// A config belongs to the enrollment whose token fetched it. A fetch sent with one token and answered after
// the device enrolled again (another token, perhaps another organization) once wrote the previous
// organization's config and applied its block rules to the new enrollment, which kept them until its own
// config version moved. The server's answers are released by hand, so the order is the test's.

const SERVER = 'http://parapet.test';
const t = perTest(() => ({
  serverUrl: SERVER,
  deviceToken: 'dt_a',
  deviceId: 'dev_a',
  organizationId: 'org_a',
}));

describe('a config answered after the device enrolled again', () => {
  it('is dropped: the new enrollment keeps its own config and block rules', async () => {
    const configA = orgConfig('org_a', 5);
    const configB = orgConfig('org_b', 2);
    const answerA = deferred<Response>();
    const askedA = deferred();
    globalThis.fetch = (async (_url: string | URL, init?: RequestInit) => {
      const auth = new Headers(init?.headers).get('authorization');
      if (auth === 'Bearer dt_a') {
        askedA.resolve();
        return answerA.promise;
      }
      assert.equal(auth, 'Bearer dt_b');
      return configAnswer(configB);
    }) as typeof fetch;

    const fetchA = fetchConfig();
    await askedA.promise;
    // meanwhile the device enrolled in organization B and fetched B's config
    Object.assign(t.storage, { deviceToken: 'dt_b', deviceId: 'dev_b', organizationId: 'org_b' });
    await fetchConfig();
    assert.deepEqual(t.storage['config'], configB);
    assert.ok(t.worker.sites.length > 0 && t.worker.rules.length > 0);
    // then A's answer arrives
    answerA.resolve(configAnswer(configA));
    const appliedA = await fetchA;

    assert.equal(t.storage['deviceToken'], 'dt_b');
    assert.deepEqual(t.storage['config'], configB, "organization A's config replaced B's");
    assert.equal(t.storage['configVersion'], 2);
    assert.equal(t.storage['etag'], '"org_b-2"');
    assert.deepEqual(t.worker.rules, compileRules(configB, SERVER), "A's block rules are in force");
    assert.deepEqual(t.worker.sites, aiSitePatterns(configB).matches);
    assert.equal(appliedA, undefined, 'the stale config was reported as applied');
  });

  it('is applied while the token that fetched it is still the device’s', async () => {
    const configA = orgConfig('org_a', 5);
    globalThis.fetch = (async () => configAnswer(configA)) as typeof fetch;
    assert.deepEqual(await fetchConfig(), configA);
    assert.deepEqual(t.storage['config'], configA);
    assert.equal(t.storage['configVersion'], 5);
    assert.equal(t.storage['heartbeatIntervalSeconds'], 120);
    assert.ok(t.worker.rules.length > 0);
    assert.deepEqual(t.worker.rules, compileRules(configA, SERVER));
    assert.deepEqual(t.worker.sites, aiSitePatterns(configA).matches);
  });
});
