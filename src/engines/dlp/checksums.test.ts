import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  codiceFiscaleValid,
  ean13Valid,
  ibanMod97Valid,
  luhnValid,
  ninoValid,
  nirValid,
  ssnValid,
  steuerIdValid,
} from './checksums.js';
import { hmacSha256, hmacSha256OfText, sha256, utf8 } from './sha256.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

test('sha256 and hmac match node:crypto on random inputs', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 100 }), (data, key) => {
      assert.equal(hex(sha256(data)), createHash('sha256').update(data).digest('hex'));
      assert.equal(hex(hmacSha256(key, data)), createHmac('sha256', key).update(data).digest('hex'));
    }),
    { numRuns: 200 },
  );
  assert.equal(hex(sha256(utf8('abc'))), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});

test('the allocation-free HMAC of a string matches node:crypto, long and short strings interleaved', () => {
  fc.assert(
    fc.property(
      fc.string({ maxLength: 400, unit: 'binary' }),
      fc.uint8Array({ maxLength: 100 }),
      (text, key) => {
        assert.equal(
          hex(hmacSha256OfText(key, text)),
          createHmac('sha256', key).update(text, 'utf8').digest('hex'),
        );
      },
    ),
    { numRuns: 300 },
  );
});

test('Luhn accepts the test Visa number and rejects a changed digit', () => {
  assert.equal(luhnValid('4111111111111111'), true);
  assert.equal(luhnValid('4111111111111112'), false);
});

test('IBAN mod-97', () => {
  assert.equal(ibanMod97Valid('CH9300762011623852957'), true);
  assert.equal(ibanMod97Valid('GB82WEST12345698765432'), true);
  assert.equal(ibanMod97Valid('GB82WEST12345698765433'), false);
});

test('AVS EAN-13 check digit', () => {
  assert.equal(ean13Valid('7569217076985'), true);
  assert.equal(ean13Valid('7569217076986'), false);
});

test('NIR key, Corsican departments and invalid months', () => {
  assert.equal(nirValid('185057800608491'), true);
  assert.equal(nirValid('185057800608492'), false);
  assert.equal(nirValid('185132A00608400'), false);
  // 2A counts as 19 when computing the key.
  const body = '1850519006084';
  const key = 97 - Number(BigInt(body) % 97n);
  assert.equal(nirValid(`18505 2A006084${String(key).padStart(2, '0')}`.replace(/ /g, '')), true);
});

test('NINO prefixes and the specimen number', () => {
  assert.equal(ninoValid('AB123456C'), true);
  assert.equal(ninoValid('QQ123456C'), false);
  assert.equal(ninoValid('GB123456A'), false);
  assert.equal(ninoValid('DA123456A'), false);
});

test('SSN invalid ranges', () => {
  assert.equal(ssnValid('536', '22', '1234'), true);
  assert.equal(ssnValid('666', '22', '1234'), false);
  assert.equal(ssnValid('900', '22', '1234'), false);
  assert.equal(ssnValid('536', '00', '1234'), false);
  assert.equal(ssnValid('078', '05', '1120'), false);
});

test('codice fiscale check letter and German Steuer-ID check digit', () => {
  assert.equal(codiceFiscaleValid('RSSMRA85T10A562S'), true);
  assert.equal(codiceFiscaleValid('RSSMRA85T10A562T'), false);
  assert.equal(steuerIdValid('86095742719'), true);
  assert.equal(steuerIdValid('86095742718'), false);
});
