import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { HOSTILE_TARGET_URLS, PLAIN_HTTP_URLS, withPort } from '../../../test/support/hostile-urls.js';
import { ConfigError, describeSettings, loadConfig } from './index.js';

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

  it('checks PARAPET_TRUST_PROXY entries at start, as Fastify reads them', () => {
    const ok = '10.0.0.1, 10.0.0.0/8, 2001:db8::/32, 192.168.0.0/255.255.0.0, loopback, uniquelocal';
    assert.deepEqual(loadConfig({ PARAPET_TRUST_PROXY: ok }).trustProxy, ok.split(', '));
    assert.equal(loadConfig({ PARAPET_TRUST_PROXY: '2' }).trustProxy, 2);
    for (const bad of [
      'garbage!!',
      '10.0.0.1, lb.internal',
      '10.0.0.0/33',
      '::1/255.0.0.0',
      '10.0.0.1/8/1',
    ]) {
      assert.throws(
        () => loadConfig({ PARAPET_TRUST_PROXY: bad }),
        (err: Error) => err instanceof ConfigError && /PARAPET_TRUST_PROXY: '/.test(err.message),
        bad,
      );
    }
  });

  it('refuses a licence-signing secret short enough to guess, naming it and never printing it', () => {
    for (const bad of ['x', 'correct horse battery staple']) {
      assert.throws(
        () => loadConfig({ PARAPET_LICENSE_SECRET: bad }),
        (err: Error) =>
          err instanceof ConfigError &&
          /PARAPET_LICENSE_SECRET must be at least 32/.test(err.message) &&
          !err.message.includes(bad),
        bad,
      );
    }
    assert.equal(loadConfig({ PARAPET_LICENSE_SECRET: 'a'.repeat(32) }).licenseSecret, 'a'.repeat(32));
    assert.equal(loadConfig({}).licenseSecret, '');
  });

  it('collects provider base URLs', () => {
    const c = loadConfig({
      PARAPET_PROVIDER_OPENAI_BASE_URL: 'http://127.0.0.1:9999/v1/',
      PARAPET_ALLOW_PRIVATE_TARGETS: 'true',
    });
    assert.equal(c.providerBaseUrls['openai'], 'http://127.0.0.1:9999/v1');
    const d = loadConfig({ PARAPET_PROVIDER_MISTRAL_BASE_URL: 'https://LLM.Example.COM./v1' });
    assert.equal(d.providerBaseUrls['mistral'], 'https://LLM.Example.COM./v1');
    assert.throws(() => loadConfig({ PARAPET_PROVIDER_OPENAI_BASE_URL: 'ftp://x' }));
    assert.throws(
      () => loadConfig({ PARAPET_PROVIDER_OPENAI_BASE_URL: 'https://user:secret@llm.example/v1' }),
      (err: Error) =>
        /must not carry a user name or password/.test(err.message) && !/secret/.test(err.message),
    );
  });

  // The operator's upstreams pass the outbound-URL policy of every user-supplied target (#15): each URL of
  // the shared hostile table is refused at start-up, naming the variable, without echoing a credential.
  it('refuses every hostile upstream URL at start-up unless private targets are allowed', () => {
    const hostile = [...HOSTILE_TARGET_URLS, ...PLAIN_HTTP_URLS].map((u) => withPort(u, 9999));
    assert.ok(hostile.length >= 40);
    for (const url of hostile) {
      assert.throws(
        () => loadConfig({ PARAPET_PROVIDER_OPENAI_BASE_URL: url, PARAPET_ALLOW_PRIVATE_TARGETS: 'false' }),
        (err: Error) =>
          err instanceof ConfigError &&
          err.message.includes('PARAPET_PROVIDER_OPENAI_BASE_URL') &&
          !err.message.includes(':pw@'),
        url,
      );
    }
  });

  it('a plain http loopback upstream without private targets allowed: the message names the setting', () => {
    assert.throws(
      () =>
        loadConfig({
          PARAPET_PROVIDER_OPENAI_BASE_URL: 'http://127.0.0.1:9999/v1',
          PARAPET_ALLOW_PRIVATE_TARGETS: 'false',
        }),
      (err: Error) => err instanceof ConfigError && err.message.includes('PARAPET_ALLOW_PRIVATE_TARGETS=true'),
    );
  });

  it('with private targets allowed: loopback over http, never metadata, credentials or plain http out', () => {
    const open = (url: string) =>
      loadConfig({ PARAPET_PROVIDER_GROQ_BASE_URL: url, PARAPET_ALLOW_PRIVATE_TARGETS: 'true' });
    for (const url of [
      'http://127.0.0.1:8080/v1',
      'http://localhost:8080/',
      'http://[::1]:8080/',
      'https://10.0.0.7/v1',
    ])
      assert.equal(open(url).providerBaseUrls['groq'], url.replace(/\/+$/, ''), url);
    for (const url of [
      'https://169.254.169.254/v1',
      'https://0xa9fea9fe/',
      'https://metadata.google.internal/',
      'https://[fd00:ec2::254]/',
      'https://0.0.0.0:8080/',
      'http://10.0.0.7/v1',
      'http://llm.example.com/v1',
      'https://u:pw@127.0.0.1/',
      'file:///etc/passwd',
    ])
      assert.throws(() => open(url), ConfigError, url);
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
