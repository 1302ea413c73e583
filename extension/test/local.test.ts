import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aiSitePatterns } from '../src/background/ai-sites.js';
import { fetchConfig } from '../src/background/config.js';
import { compileRules } from '../src/background/dnr.js';
import { resetToLocal } from '../src/background/local.js';
import { configAnswer, orgConfig } from './orgs.js';
import { perTest } from './worker-chrome.js';

// Back to the built-in local state (resetToLocal): the built-in block rules belong to the reset state only.
// They used to be applied after the storage update, so an enrollment completing between the two (the
// reset's write, then the new enrollment and its config, then the reset's rules) was left with the built-in
// rules under its own config, until that config's version moved; the same held for a config's rules
// applied after a reset that came between the config's write and its rules. The other party runs at the
// first call made to the block rules or the site scripts after the write, whatever the order of the code.

const SERVER = 'http://parapet.test';
const configA = orgConfig('org_a', 5);
const configB = orgConfig('org_b', 2);
const t = perTest(() => ({
  serverUrl: SERVER,
  deviceToken: 'dt_a',
  deviceId: 'dev_a',
  organizationId: 'org_a',
  config: configA,
  configVersion: 5,
}));

describe('a reset to the local state and an enrollment completing meanwhile', () => {
  it('the enrollment keeps its own block rules and AI-site scripts', async () => {
    t.worker.rules = compileRules(configA, SERVER);
    t.worker.sites = aiSitePatterns(configA).matches;
    globalThis.fetch = (async (_url: string | URL, init?: RequestInit) => {
      assert.equal(new Headers(init?.headers).get('authorization'), 'Bearer dt_b');
      return configAnswer(configB);
    }) as typeof fetch;
    let enrolled = false;
    /** The device enrolls in organization B and applies B's config. */
    const enrollB = async () => {
      enrolled = true;
      Object.assign(t.storage, { deviceToken: 'dt_b', deviceId: 'dev_b', organizationId: 'org_b' });
      assert.deepEqual(await fetchConfig(), configB);
    };
    t.worker.beforePolicyCall = async () => {
      // once the reset's write is in storage, before the reset goes on
      if (!enrolled && t.storage['deviceToken'] === undefined) await enrollB();
    };

    assert.equal(
      await resetToLocal({ lastError: 'The device must be enrolled again.' }, { ifToken: 'dt_a' }),
      true,
    );
    // A reset that touches the rules only before its write leaves no moment in between: B enrolls after it.
    if (!enrolled) await enrollB();

    assert.equal(t.storage['deviceToken'], 'dt_b');
    assert.deepEqual(t.storage['config'], configB);
    assert.deepEqual(t.worker.rules, compileRules(configB, SERVER), 'the built-in rules replaced B’s');
    assert.deepEqual(t.worker.sites, aiSitePatterns(configB).matches);
  });

  it('a config written just before the reset does not put its rules back over the reset', async () => {
    Object.assign(t.storage, { config: undefined, configVersion: undefined });
    globalThis.fetch = (async () => configAnswer(configA)) as typeof fetch;
    let reset = false;
    const resetA = async () => {
      reset = true;
      assert.equal(await resetToLocal({ lastError: 'gone' }, { ifToken: 'dt_a' }), true);
    };
    t.worker.beforePolicyCall = async () => {
      // once the config's write is in storage, before the fetch goes on to the rules
      if (!reset && t.storage['configVersion'] === 5) await resetA();
    };
    await fetchConfig();
    if (!reset) await resetA();

    assert.equal(t.storage['deviceToken'], undefined);
    assert.equal(t.storage['config'], undefined);
    assert.deepEqual(t.worker.rules, [], 'organization A’s rules are in force on a reset device');
    assert.deepEqual(t.worker.sites, []);
  });

  it('with no enrollment meanwhile, the built-in rules and sites are back', async () => {
    t.worker.rules = compileRules(configA, SERVER);
    t.worker.sites = aiSitePatterns(configA).matches;
    assert.ok(t.worker.rules.length > 0 && t.worker.sites.length > 0);
    assert.equal(await resetToLocal({ lastError: 'gone' }, { ifToken: 'dt_a' }), true);
    assert.deepEqual(t.worker.rules, []);
    assert.deepEqual(t.worker.sites, []);
    assert.equal(t.storage['deviceToken'], undefined);
    assert.equal(t.storage['config'], undefined);
    assert.equal(t.storage['lastError'], 'gone');
  });
});
