import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTokenMap, detectEntities, rehydrate, tokenize } from '../index.js';

function cards(text: string): string[] {
  return detectEntities(text)
    .filter((e) => e.type === 'CARD')
    .map((e) => `${e.value}:${e.confidence}`);
}

const key = new TextEncoder().encode('trial-spellings-key');

test('a card number grouped with dots is a card, as with spaces or hyphens', () => {
  assert.deepEqual(cards('card 4111.1111.1111.1111 thanks'), ['4111.1111.1111.1111:0.99']);
  assert.deepEqual(cards('Paid with 5555.5555.5555.4444 yesterday.'), ['5555.5555.5555.4444:0.95']);
  // Amex 4-6-5 and a sentence's full stop right after the number.
  assert.deepEqual(cards('Amex: 3782.822463.10005.'), ['3782.822463.10005:0.99']);
  assert.deepEqual(cards('Nr.4111.1111.1111.1111'), ['4111.1111.1111.1111:0.95']);
  // Luhn still decides, and the brand's ranges.
  assert.deepEqual(cards('card 4111.1111.1111.1112'), []);
  assert.deepEqual(cards('card 9111.1111.1111.1115'), []);
});

test('dotted numbers that are not cards stay untouched', () => {
  for (const text of [
    'Upgrade to version 10.0.19045.3693 first.',
    'Released 2024.11.28, the meeting is on 28.11.2024 at 14.30.',
    'The server 192.168.100.201 and 10.41.111.111 answer.',
    'OID 1.3.6.1.4.1.311.21.20 names the template.',
    'pi is 3.14159265358979 and the ratio 4111.111111111111',
    'Total 1.234.567.890.123 units, 4.111.111.111.111.111 in stock.',
    // Card digits inside a longer dotted run or a dotted run glued to letters are a version or an id.
    'build 10.4111.1111.1111.1111 and v4111.1111.1111.1111 and 4111.1111.1111.1111a',
    'code 4111.1111.1111.1111.5 shipped',
    // One separator throughout: a mix is no card grouping.
    'ref 4111.1111-1111.1111 and 4111.1111 1111.1111',
    // A comma between digits makes the run part of a larger number.
    'balance 4111.1111.1111.1111,25 and 1,4111.1111.1111.1111',
  ]) {
    assert.deepEqual(cards(text), [], text);
  }
});

test('a bare card number followed by decimals is found as before the dotted form', () => {
  assert.deepEqual(cards('charged 4111111111111111.00 today'), ['4111111111111111:0.6']);
});

test('a dotted card number round-trips through tokenize and rehydrate, with its security code', () => {
  const text = 'Visa 4111.1111.1111.1111 exp 12/27 CVV 123, then Amex 3782.822463.10005.';
  const map = createTokenMap();
  const t = tokenize(text, map, key);
  assert.ok(!/4111|3782|10005/.test(t.tokenized), t.tokenized);
  assert.deepEqual(
    t.tokens.map((x) => x.type),
    ['CARD', 'CVV', 'CARD'],
  );
  assert.equal(rehydrate(t.tokenized, map).text, text);
});
