import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { createSealer } from '../../platform/crypto/index.js';
import { mergeBody, openBody, publicPart, sealBody } from './integration-secrets.js';

describe('integration secrets', () => {
  const body = {
    type: 'WAZUH',
    name: 'w',
    endpoint: 'https://wazuh.example.com',
    credentials: { username: 'admin', password: 'hunter2-very-secret', index: 'sec' },
  };

  it('strips every secret path and names it', () => {
    const { body: pub, secretFields } = publicPart(body);
    assert.deepEqual(pub.credentials, { username: 'admin', index: 'sec' });
    assert.deepEqual(secretFields, ['credentials.password']);
    assert.ok(!JSON.stringify(pub).includes('hunter2'));
    const splunk = publicPart({
      platform: 'SPLUNK',
      name: 's',
      config: { hecUrl: 'https://x', hecToken: 't0k', headers: { a: 'b' } },
    });
    assert.deepEqual(splunk.body.config, { hecUrl: 'https://x' });
    assert.deepEqual(splunk.secretFields.sort(), ['config.headers', 'config.hecToken']);
  });

  it('seals bound to the integration id', () => {
    const sealer = createSealer(randomBytes(32));
    const sealed = sealBody(sealer, 'siem_1', body);
    assert.ok(!sealed.includes('hunter2'));
    assert.deepEqual(openBody(sealer, 'siem_1', sealed), body);
    assert.throws(() => openBody(sealer, 'siem_2', sealed));
  });

  it('merges config and credentials key by key', () => {
    const merged = mergeBody(body, { name: 'renamed', credentials: { index: 'other' } });
    assert.equal(merged.name, 'renamed');
    assert.deepEqual(merged.credentials, {
      username: 'admin',
      password: 'hunter2-very-secret',
      index: 'other',
    });
  });
});
