import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createSealer,
  generateMasterKey,
  hashPassword,
  newId,
  parseMasterKey,
  randomBase62,
  verifyPassword,
} from './index.js';

describe('crypto', () => {
  it('seals and opens, and refuses a tampered value or the wrong associated data', () => {
    const sealer = createSealer(parseMasterKey(generateMasterKey()));
    const sealed = sealer.seal('IBAN CH93 0076 2011 6238 5295 7', 'org_1');
    assert.doesNotMatch(sealed, /CH93/);
    assert.equal(sealer.open(sealed, 'org_1'), 'IBAN CH93 0076 2011 6238 5295 7');
    assert.throws(() => sealer.open(sealed, 'org_2'));
    const parts = sealed.split('.');
    parts[2] = parts[2]!.slice(0, -2) + (parts[2]!.endsWith('A') ? 'BB' : 'AA');
    assert.throws(() => sealer.open(parts.join('.'), 'org_1'));
    assert.notEqual(sealer.seal('x'), sealer.seal('x'), 'a fresh IV each time');
  });

  it('refuses master keys of the wrong size', () => {
    assert.throws(() => parseMasterKey('abcd'));
    assert.equal(parseMasterKey(Buffer.alloc(32, 7).toString('base64')).length, 32);
  });

  it('hashes passwords with a salt and verifies them', async () => {
    const h = await hashPassword('correct horse battery');
    assert.match(h, /^scrypt\$/);
    assert.notEqual(h, await hashPassword('correct horse battery'));
    assert.equal(await verifyPassword('correct horse battery', h), true);
    assert.equal(await verifyPassword('wrong', h), false);
    assert.equal(await verifyPassword('x', 'garbage'), false);
  });

  it('makes base62 ids of the asked length', () => {
    assert.match(randomBase62(43), /^[0-9A-Za-z]{43}$/);
    assert.match(newId('org'), /^org_[0-9A-Za-z]{22}$/);
    const seen = new Set(Array.from({ length: 1000 }, () => newId('x')));
    assert.equal(seen.size, 1000);
  });

  it('starts ids with their creation time, so later ids sort after earlier ones', async () => {
    const first = newId('evt');
    await new Promise((r) => setTimeout(r, 5));
    const second = newId('evt');
    assert.ok(first < second, `${first} should sort before ${second}`);
    // The 14 characters after the time are random: the same millisecond still gives distinct ids.
    const sameMs = Array.from({ length: 200 }, () => newId('evt').slice(12));
    assert.equal(new Set(sameMs).size, 200);
  });
});
