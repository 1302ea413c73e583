import assert from 'node:assert/strict';
import { test } from 'node:test';
import { roundTrip } from '../../../../eval/dlp/roundtrip.js';
import { createTokenMap, detectEntities, rehydrate, tokenize } from '../index.js';

function emails(text: string): string[] {
  return detectEntities(text)
    .filter((e) => e.type === 'EMAIL')
    .map((e) => e.value);
}

const key = new TextEncoder().encode('trial-spellings-key');

const SPELLINGS = [
  'ann%40example.com',
  'ann\uFF20example.com',
  'ann\uFE6Bexample.com',
  'ann\uFF20example\uFF0Ecom',
  'ann@example\uFF0Eco\uFF0Euk',
  'ann%40example%2Ecom',
  'ann.lee%2Bnews%40mail.example.org',
];

test('an e-mail address with an encoded, full-width or small at sign is found as written', () => {
  for (const spelling of SPELLINGS) {
    assert.deepEqual(emails(`Please write to ${spelling} today.`), [spelling], spelling);
  }
  assert.deepEqual(emails('Form: name=Ann&email=ann%40example.com&ok=1'), ['ann%40example.com']);
  assert.deepEqual(emails('https://example.org/unsubscribe?to=ann%40example.com'), ['ann%40example.com']);
});

test('in an encoded link the address does not swallow the link before it', () => {
  // "…%3Fto%3D" is "?to=": the address starts after it. The finding is widened to the word it touches
  // ("3Dann…"), so no letter is left glued to its token, and the link before it stays in clear.
  const text = 'next=https%3A%2F%2Fexample.org%2Fu%3Fto%3Dann%40example.com';
  assert.deepEqual(emails(text), ['3Dann%40example.com']);
});

test('percent signs and lone at-sign variants are no address', () => {
  for (const text of [
    'Sales grew 50%40 points above plan.',
    'A rate of 20%40.5 is odd, %40example.com has no user, ann%40 has no domain.',
    'Tag \uFF20ann on the board, meet \uFE6B10:30.',
    'ann\uFF20localhost and ann%40example',
  ]) {
    assert.deepEqual(emails(text), [], text);
  }
});

test('each new spelling round-trips through tokenize and rehydrate byte for byte', () => {
  for (const spelling of [...SPELLINGS, 'u%3Fto%3Dann%40example.com']) {
    const text = `Contact: ${spelling}, thanks.`;
    const map = createTokenMap();
    const t = tokenize(text, map, key);
    assert.equal(t.tokens.length, 1, text);
    assert.equal(t.tokens[0]!.type, 'EMAIL');
    assert.ok(!t.tokenized.includes('ann'), t.tokenized);
    assert.equal(rehydrate(t.tokenized, map).text, text);
  }
});

const OBFUSCATED = [
  'ann (at) example.com',
  'ann(at)example.com',
  'info[at]firma.de',
  'ann [at] example [dot] com',
  'ann {at} example {dot} co {dot} uk',
  'ann <at> example <dot> org',
  'ann (AT) example (DOT) com',
  'ann.lee (at) mail.example.org',
  'john (dot) doe (at) example (dot) com',
  'ann (at) example dot com',
  'john.doe AT example DOT com',
  'ann_lee AT mail DOT example DOT org',
  'jean.dupont (arobase) exemple.fr',
  'jean arobase exemple point fr',
  'jean.dupont [at] exemple (point) fr',
  'hans.muster (at) firma (punkt) ch',
  'mario.rossi (chiocciola) esempio.it',
  'mario chiocciola esempio punto it',
  'ann@example(dot)com',
  'ann@example [dot] co [dot] uk',
];

test('an address written to escape harvesters is found whole, as written', () => {
  for (const spelling of OBFUSCATED) {
    assert.deepEqual(emails(`Please write to ${spelling} today.`), [spelling], spelling);
    assert.deepEqual(emails(`${spelling}.`), [spelling], spelling);
  }
});

test('"at" and "dot" in ordinary prose are no address', () => {
  for (const text of [
    'Let us meet at noon at the station.',
    'Visit us at example.com or look at this dot com bubble.',
    'We are at github.com and at work.',
    'He was at example dot com in 1999, the dot com era.',
    'VISIT US AT EXAMPLE DOT COM NOW',
    'The price (at) retail is 20.50 and (at) 10.30 we start.',
    'Rendez-vous au point de vue, le point fr est clair.',
    'La chiocciola mangia la foglia.',
    'ann (at) localhost, ann (at) example, (at) example.com',
    'Cu melts AT 1085 DOT 0 degrees.',
  ]) {
    assert.deepEqual(emails(text), [], text);
  }
});

test('each obfuscated spelling round-trips through tokenize and rehydrate, streamed too', () => {
  for (const spelling of OBFUSCATED) {
    const text = `Contact: ${spelling}, thanks.`;
    const map = createTokenMap();
    const t = tokenize(text, map, key);
    assert.deepEqual(
      t.tokens.map((x) => x.type),
      ['EMAIL'],
      text,
    );
    // The whole span, brackets and spelled dots included, is behind the token.
    assert.equal(t.tokenized.replace(/TKN_EMAIL_[0-9a-z]+/, '@'), 'Contact: @, thanks.');
    assert.equal(rehydrate(t.tokenized, map).text, text);
  }
  // Streamed in random chunks and inside a JSON string (tool-call arguments) too.
  const texts = OBFUSCATED.map((s) => `Contact: ${s}, thanks.`);
  const n = texts.length;
  assert.deepEqual(roundTrip(texts), { texts: n, whole: n, streamed: n, streamedJson: n, tokens: n });
});
