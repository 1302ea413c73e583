import assert from 'node:assert/strict';
import { test } from 'node:test';
import { luhnValid } from './checksums.js';
import { cardBrand } from './detectors/card-brands.js';
import { createTokenMap, detectEntities, rehydrate, tokenize } from './index.js';

function found(text: string, options = {}): string[] {
  return detectEntities(text, options).map((e) => `${e.type}:${e.value}`);
}

const key = new TextEncoder().encode('issue-17-key');

test('a password made of a word, a symbol and digits is never cut inside the word, and comes back', () => {
  for (const text of [
    'Use password Winter-2024 for the VPN.',
    'Passwort Sommer2023! bitte nicht teilen',
    'the password is Marie@1987 for the account',
    '/mot de passe is»Blue9912$1Xm ok',
  ]) {
    const entities = detectEntities(text);
    assert.equal(entities.length, 1, text);
    const e = entities[0]!;
    assert.ok(!/[\p{L}\p{N}]/u.test(text[e.start - 1] ?? ''), `starts inside a word: ${text}`);
    const map = createTokenMap();
    const t = tokenize(text, map, key);
    assert.ok(!/Win|Somm|Mari|Blue/.test(t.tokenized), t.tokenized);
    assert.equal(rehydrate(t.tokenized, map).text, text);
  }
  assert.deepEqual(found('Use password Winter-2024 for the VPN.'), ['PASSWORD:Winter-2024']);
  assert.deepEqual(found('Your password has been reset 3 times'), []);
});

test('findings that touch become one, so the second token never follows a letter of the first', () => {
  const text = 'a@b.ch+41 44 668 18 00';
  const map = createTokenMap();
  const t = tokenize(text, map, key);
  assert.equal(t.tokens.length, 1);
  assert.equal(rehydrate(t.tokenized, map).text, text);
});

test('phones: national numbers in the region of the text language or the organization, and NANP forms', () => {
  assert.deepEqual(found('Call me at 212-555-1234 or (415) 555 2671.'), [
    'PHONE:212-555-1234',
    'PHONE:(415) 555 2671',
  ]);
  assert.deepEqual(found('Reach me on 415.555.2671 ext. 12'), ['PHONE:415.555.2671 ext. 12']);
  assert.deepEqual(found('Rufen Sie 044 668 18 00 an.'), ['PHONE:044 668 18 00']);
  assert.deepEqual(found('Appelez le 01 42 68 53 00.'), ['PHONE:01 42 68 53 00']);
  assert.deepEqual(found('phone 001-650-253-0000'), ['PHONE:001-650-253-0000']);
  assert.deepEqual(found('Tel. 0041 44 668 18 00'), ['PHONE:0041 44 668 18 00']);
  // A bare run is an id without a phone word; "Bestellung" holds "tel" but is no phone word.
  assert.deepEqual(found('Bestellung 3679465751 wurde versandt.'), []);
  assert.deepEqual(found('call 6502530000'), ['PHONE:6502530000']);
  assert.deepEqual(found('M. Jaccard a appelé du +33 6 19 24 40 56.'), [
    'NAME:Jaccard',
    'PHONE:+33 6 19 24 40 56',
  ]);
  // 030 1234567 reads as Berlin in German text, and with the organization's region set to Germany.
  assert.deepEqual(found('Meine Nummer: 030 1234567'), ['PHONE:030 1234567']);
  assert.deepEqual(found('number 030 1234567', { phoneRegion: 'DE' }), ['PHONE:030 1234567']);
  assert.deepEqual(found('Le 12.03.2024 à 14:30, commande 2024-11-25.'), []);
});

test('cards: every brand and length from 12 to 19 digits, with Luhn', () => {
  const withLuhn = (prefix: string, length: number): string => {
    const body = prefix.padEnd(length - 1, '3');
    for (let d = 0; d <= 9; d++) if (luhnValid(body + d)) return body + d;
    throw new Error('unreachable');
  };
  const cases: Array<[string, number, string]> = [
    ['4', 13, 'visa'],
    ['4', 19, 'visa'],
    ['2221', 16, 'mastercard'],
    ['37', 15, 'amex'],
    ['6011', 19, 'discover'],
    ['36', 14, 'diners'],
    ['3530', 17, 'jcb'],
    ['62', 19, 'unionpay'],
    ['6759', 12, 'maestro'],
    ['2200', 16, 'mir'],
    ['9792', 16, 'troy'],
  ];
  for (const [prefix, length, brand] of cases) {
    const digits = withLuhn(prefix, length);
    assert.equal(cardBrand(digits), brand, digits);
    const grouped = digits.replace(/(\d{4})(?=\d)/g, '$1 ');
    assert.deepEqual(found(`card number ${grouped}`), [`CARD:${grouped}`], grouped);
  }
  // Ungrouped and without a card word, a brand's usual length still counts; not after "order".
  assert.deepEqual(found('pay with 4539578763621486 today'), ['CARD:4539578763621486']);
  assert.deepEqual(found('Order 4539578763621486'), []);
  assert.deepEqual(found('Order 4111111111111112'), []);
});

test('passports, driving licences and SSNs in more written forms', () => {
  assert.deepEqual(found('my passport no. is 123 456 789 issued in 2019'), ['PASSPORT:123 456 789']);
  assert.deepEqual(found('passport (US) number: 561234987'), ['PASSPORT:561234987']);
  assert.deepEqual(found('Numéro de passeport : 12ab34567.'), ['PASSPORT:12ab34567']);
  assert.deepEqual(found('Reisepassnummer C01X00T47'), ['PASSPORT:C01X00T47']);
  assert.deepEqual(found('numero di passaporto YA1234567'), ['PASSPORT:YA1234567']);
  assert.deepEqual(found('DL# S530-4121-7734'), ['DRIVING_LICENCE:S530-4121-7734']);
  assert.deepEqual(found('numéro de permis de conduire 123456789012'), ['DRIVING_LICENCE:123456789012']);
  assert.deepEqual(found('Führerschein Nr. B072RRE2I55'), ['DRIVING_LICENCE:B072RRE2I55']);
  assert.deepEqual(found('SSN: 536.22.1234'), ['SSN:536.22.1234']);
  assert.deepEqual(found('social security number 536 22 1234'), ['SSN:536 22 1234']);
  assert.deepEqual(found('My SSN is 536221234.'), ['SSN:536221234']);
  assert.deepEqual(found('The passport office opens at 9'), []);
});
