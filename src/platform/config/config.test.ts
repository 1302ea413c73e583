import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { describeSettings, loadConfig } from './index.js';

describe('configuration', () => {
  it('has a default for everything but secrets', () => {
    const c = loadConfig({}, '/srv/app');
    assert.equal(c.port, 3000);
    assert.equal(c.proxyPort, 8787);
    assert.equal(c.dataDir, '/srv/app/data');
    assert.equal(c.databaseUrl, undefined);
    assert.equal(c.redisUrl, undefined);
    assert.equal(c.allowPrivateTargets, false);
    assert.equal(c.bodyLimit, 1024 * 1024);
    assert.equal(c.trustProxy, false);
  });

  it('parses values and reports every bad one at once', () => {
    const c = loadConfig({
      PORT: '8080',
      PARAPET_TRUST_PROXY: '10.0.0.1, 10.0.0.2',
      PARAPET_ALLOW_PRIVATE_TARGETS: 'yes',
    });
    assert.equal(c.port, 8080);
    assert.deepEqual(c.trustProxy, ['10.0.0.1', '10.0.0.2']);
    assert.equal(c.allowPrivateTargets, true);
    assert.throws(
      () => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' }),
      (err: Error) =>
        /PORT/.test(err.message) && /DATABASE_URL/.test(err.message) && /LOG_LEVEL/.test(err.message),
    );
  });

  it('collects provider base URLs', () => {
    const c = loadConfig({ PARAPET_PROVIDER_OPENAI_BASE_URL: 'http://127.0.0.1:9999/v1/' });
    assert.equal(c.providerBaseUrls['openai'], 'http://127.0.0.1:9999/v1');
    assert.throws(() => loadConfig({ PARAPET_PROVIDER_OPENAI_BASE_URL: 'ftp://x' }));
    assert.throws(
      () => loadConfig({ PARAPET_PROVIDER_OPENAI_BASE_URL: 'https://user:secret@llm.example/v1' }),
      (err: Error) =>
        /must not carry a user name or password/.test(err.message) && !/secret/.test(err.message),
    );
  });

  it('is documented in README.md and .env.example, variable for variable', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const example = readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8');
    for (const s of describeSettings()) {
      assert.ok(readme.includes(`\`${s.env}\``), `README.md documents ${s.env}`);
      assert.ok(example.includes(`${s.env}=`), `.env.example lists ${s.env}`);
    }
  });
});
