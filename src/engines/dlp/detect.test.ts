import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTokenMap, detectEntities, rehydrate, tokenize, validateCustomPattern } from './index.js';

function found(text: string): string[] {
  return detectEntities(text).map((e) => `${e.type}:${e.value}`);
}

test('structured types with valid checksums are found with their offsets', () => {
  const text = 'IBAN CH93 0076 2011 6238 5295 7, AHV 756.9217.0769.85, card 4111 1111 1111 1111 CVV 123.';
  const entities = detectEntities(text);
  assert.deepEqual(
    entities.map((e) => e.type),
    ['IBAN', 'AVS', 'CARD', 'CVV'],
  );
  for (const e of entities) assert.equal(text.slice(e.start, e.end), e.value);
  assert.ok(entities.every((e) => e.confidence >= 0.9));
});

test('hard negatives stay untouched', () => {
  const negatives = [
    'Order 4111111111111112 shipped; version 1.2.3; price CHF 1234.50.',
    'This IBAN is wrong: CH93 0076 2011 6238 5295 8.',
    'Build 3f786850e387550fdab836ed7e6dc881de23001b passed on 12.03.2024 at 14:30.',
    'Monday in Zurich: Apple and Migros met at the Geneva office.',
    'Ticket INV-2026-12345 and SKU-ABCD-1234 are product codes.',
    'Request id 9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f failed.',
  ];
  for (const text of negatives) assert.deepEqual(found(text), [], text);
});

test('national identifiers', () => {
  assert.deepEqual(found('Codice fiscale: RSSMRA85T10A562S'), ['IT_FISCAL_CODE:RSSMRA85T10A562S']);
  assert.deepEqual(found('Steuer-ID 86095742719'), ['DE_TAX_ID:86095742719']);
  assert.deepEqual(found('Bestellung 86095742719'), []);
  assert.deepEqual(found('NIR 1 85 05 78 006 084 91'), ['NIR:1 85 05 78 006 084 91']);
  assert.deepEqual(found('SSN 536-22-1234'), ['SSN:536-22-1234']);
  assert.deepEqual(found('SSN 666-22-1234'), []);
  assert.deepEqual(found('National Insurance AB 12 34 56 C'), ['NINO:AB 12 34 56 C']);
});

test('phones in international and national formats, dates are not phones', () => {
  assert.deepEqual(found('Call +41 79 123 45 67 or 044 668 18 00'), [
    'PHONE:+41 79 123 45 67',
    'PHONE:044 668 18 00',
  ]);
  assert.deepEqual(found('Rappelez-moi au 06 12 34 56 78'), ['PHONE:06 12 34 56 78']);
  assert.deepEqual(found('Due on 01.02.2024'), []);
});

test('CVV needs a card or a context word', () => {
  assert.deepEqual(found('Room 123 is free'), []);
  assert.deepEqual(found('Kartenprüfnummer: 456'), ['CVV:456']);
});

test('secrets: prefixed keys, JWTs, private keys, passwords', () => {
  assert.deepEqual(found('key AKIAIOSFODNN7EXAMPLE here'), ['API_KEY:AKIAIOSFODNN7EXAMPLE']);
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
  assert.deepEqual(
    found(`Bearer ${jwt}`).map((s) => s.split(':')[0]),
    ['API_KEY'],
  );
  assert.deepEqual(found('Das Passwort lautet Tiger42!x'), ['PASSWORD:Tiger42!x']);
  // The keyword with a Kelvin sign for its k (the /iu patterns fold it onto k), and no ASCII K anywhere.
  assert.deepEqual(found('das \u212Aennwort lautet Tiger42!x'), ['PASSWORD:Tiger42!x']);
  assert.deepEqual(found('The password is incorrect.'), []);
  const pem =
    '-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\n-----END RSA PRIVATE KEY-----';
  assert.deepEqual(
    found(pem).map((s) => s.split(':')[0]),
    ['API_KEY'],
  );
});

test('addresses and birth dates', () => {
  assert.deepEqual(found('Ich wohne an der Bahnhofstrasse 12, 8001 Zürich.'), [
    'ADDRESS:Bahnhofstrasse 12, 8001 Zürich',
  ]);
  assert.deepEqual(found('née le 12/05/1985'), ['BIRTH_DATE:12/05/1985']);
  assert.deepEqual(found('Meeting on 12/05/2025'), []);
});

test('names in four languages, with cues, and words that are not names', () => {
  assert.deepEqual(found('Hi, my name is Sandra Keller.'), ['NAME:Sandra Keller']);
  assert.deepEqual(found('Sehr geehrte Frau Lüthi, danke.'), ['NAME:Lüthi']);
  assert.deepEqual(found("Bonjour, je m'appelle Jean-Pierre Dupont."), ['NAME:Jean-Pierre Dupont']);
  assert.deepEqual(found('Mi chiamo Giulia Bianchi.'), ['NAME:Giulia Bianchi']);
  assert.deepEqual(found('Anna Weber met Peter Müller. Later Weber left.'), [
    'NAME:Anna Weber',
    'NAME:Peter Müller',
    'NAME:Weber',
  ]);
  assert.deepEqual(found('On Monday, Apple opened a store in Zurich.'), []);
  assert.deepEqual(found('Our Customer Success team moved.'), []);
  assert.deepEqual(found('Kunde Reto Gisler hat angerufen.'), ['NAME:Reto Gisler']);
  assert.deepEqual(found('Im Formular steht DUPONT Marie.'), ['NAME:DUPONT Marie']);
  assert.deepEqual(found('Best regards,\nTamsin Okafor'), ['NAME:Tamsin Okafor']);
});

test('options: types, ignoreTypes, allowValues, minConfidence', () => {
  const text = 'Anna Weber, anna.weber@example.com, +41 79 123 45 67';
  assert.deepEqual(
    detectEntities(text, { types: ['EMAIL'] }).map((e) => e.type),
    ['EMAIL'],
  );
  assert.ok(!detectEntities(text, { ignoreTypes: ['PHONE'] }).some((e) => e.type === 'PHONE'));
  // Policy spellings are aliases of the engine's types.
  assert.deepEqual(
    detectEntities('card 4111 1111 1111 1111', { types: ['CREDIT_CARD'] }).map((e) => e.type),
    ['CARD'],
  );
  assert.ok(
    !detectEntities(text, { allowValues: ['anna.weber@example.com'] }).some((e) => e.type === 'EMAIL'),
  );
  assert.deepEqual(detectEntities(text, { minConfidence: 0.999 }), []);
});

test('entities are sorted and never overlap', () => {
  const text =
    'Contact Marco Rossi at marco.rossi@example.it, IBAN IT60 X054 2811 1010 0000 0123 456, Via Roma 12, 00184 Roma.';
  const entities = detectEntities(text);
  for (let i = 1; i < entities.length; i++) assert.ok(entities[i - 1]!.end <= entities[i]!.start);
});

test('custom patterns: detection and syntax checks', () => {
  const p = { name: 'employee id', domain: 'CORPORATE', regex: 'EMP-\\d{6}' };
  assert.deepEqual(validateCustomPattern(p), { ok: true });
  const entities = detectEntities('badge EMP-123456 issued', { customPatterns: [p] });
  assert.deepEqual(
    entities.map((e) => [e.type, e.value, e.domain]),
    [['EMPLOYEE_ID', 'EMP-123456', 'CORPORATE']],
  );
  // Shapes that backtrack catastrophically in JavaScript are safe under RE2 semantics, so they are accepted.
  assert.equal(validateCustomPattern({ name: 'x', domain: 'CORPORATE', regex: '(a+)+$' }).ok, true);
  assert.equal(validateCustomPattern({ name: 'x', domain: 'CORPORATE', regex: '(a|aa)*b' }).ok, true);
  assert.equal(validateCustomPattern({ name: 'x', domain: 'CORPORATE', regex: '(?=a)a' }).ok, false);
  assert.equal(validateCustomPattern({ name: 'x', domain: 'CORPORATE', regex: '([a-z' }).ok, false);
  assert.equal(validateCustomPattern({ name: 'x', domain: 'CORPORATE', regex: 'a*' }).ok, false);
  assert.equal(validateCustomPattern({ name: 'x', domain: 'CORPORATE', regex: 'a', flags: 'g' }).ok, false);
});

test('a phone followed by a card or an AHV number: both are found whole and come back exact', () => {
  const key = new TextEncoder().encode('phone-then-number');
  const cases: Array<[string, string[]]> = [
    ['Nummer +41 44 668 18 00 4111 1111 1111 1111', ['PHONE:+41 44 668 18 00', 'CARD:4111 1111 1111 1111']],
    ['Tel. 06 12 34 56 78 4111 1111 1111 1111', ['PHONE:06 12 34 56 78', 'CARD:4111 1111 1111 1111']],
    ['Tel. +41 44 668 18 00 756.1234.5678.97', ['PHONE:+41 44 668 18 00', 'AVS:756.1234.5678.97']],
  ];
  for (const [text, expected] of cases) {
    assert.deepEqual(
      detectEntities(text).map((e) => `${e.type}:${e.value}`),
      expected,
      text,
    );
    const map = createTokenMap();
    const t = tokenize(text, map, key);
    assert.ok(!/\d/.test(t.tokenized.replace(/TKN_[A-Z_]+_[0-9a-z]+/g, '')), t.tokenized);
    assert.equal(rehydrate(t.tokenized, map).text, text);
  }
});
