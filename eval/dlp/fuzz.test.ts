import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detectEntities } from '../../src/engines/dlp/index.js';
import { mulberry32, pick } from './corpus/random.js';
import { fuzzText, GLUE } from './fuzz-texts.js';
import { roundTrip } from './roundtrip.js';

// The suite's share of `npm run fuzz:dlp` (100,000 cases): a few thousand random texts full of personal
// data glued to letters, digits, markdown and each other.
const CASES = 3000;

test('every token comes back: tokenize then rehydrate (whole, streamed, JSON) gives each random text back', () => {
  const rng = mulberry32(20261125);
  const texts = Array.from({ length: CASES }, () => fuzzText(rng));
  const failures: string[] = [];
  const r = roundTrip(texts, 5, (text) => failures.push(text));
  assert.deepEqual(failures.slice(0, 5), []);
  assert.equal(r.whole, CASES);
  assert.ok(r.tokens > CASES, 'the texts hold personal data');
});

test('no detection starts or ends inside a word or against one', () => {
  const rng = mulberry32(99);
  const word = /[\p{L}\p{N}\p{M}]/u;
  for (let i = 0; i < CASES; i++) {
    const text = fuzzText(rng);
    for (const e of detectEntities(text)) {
      assert.ok(!word.test(text[e.start - 1] ?? ''), `${JSON.stringify(text)} starts inside: ${e.value}`);
      assert.ok(!word.test(text[e.end] ?? ''), `${JSON.stringify(text)} ends inside: ${e.value}`);
    }
  }
});

// The spellings a trial found passing the engine (dotted card groups, encoded, full-width and small at signs,
// full-width and encoded dots), glued to the same characters as the random texts and to each other.
const TRIAL_SPELLINGS = [
  '4111.1111.1111.1111',
  '3782.822463.10005',
  'ann%40example.com',
  'ann\uFF20example.com',
  'ann\uFE6Bexample.com',
  'ann\uFF20example\uFF0Ecom',
  'ann%40example%2Ecom',
  'u%3Fto%3Dann%40example.com',
];

// 1,000 texts of three spellings glued by the fuzz's glue characters: each must come back whole, streamed
// and streamed in a JSON string (a failure of any of the three is listed). Returns the texts.
function gluedRoundTrip(spellings: readonly string[], seed: number): string[] {
  const rng = mulberry32(seed);
  const texts = Array.from({ length: 1000 }, () => {
    let s = pick(rng, GLUE);
    for (let k = 0; k < 3; k++) s += pick(rng, spellings) + pick(rng, GLUE);
    return s;
  });
  const failures: string[] = [];
  const r = roundTrip(texts, 7, (text) => failures.push(text));
  assert.deepEqual(failures.slice(0, 5), []);
  assert.equal(r.whole, texts.length);
  assert.ok(r.tokens >= texts.length, 'every text holds at least one finding');
  return texts;
}

test('the trial spellings come back byte for byte, glued to anything', () => {
  gluedRoundTrip(TRIAL_SPELLINGS, 20261128);
});

// The spellings of the second trial round: numbers in full-width, Arabic-Indic, Persian, Devanagari and
// mathematical digits, IBANs grouped with dots, hyphens and no-break or thin spaces, addresses written with
// (at), [dot], AT/DOT, arobase and chiocciola; glued like the others. Each account appears in one spelling
// only: two spellings of one IBAN are one datum with one token, restored in the spelling seen first.
const SECOND_SPELLINGS = [
  '４１１１　１１１１　１１１１　１１１１',
  'ＣＨ９３ ００７６ ２０１１ ６２３８ ５２９５ ７',
  '+٤١ ٤٤ ٦٦٨ ١٨ ٠٠',
  '۰۴۴ ۶۶۸ ۱۸ ۰۰',
  '५३६-२२-१२३४',
  '𝟒𝟏𝟏𝟏 𝟏𝟏𝟏𝟏 𝟏𝟏𝟏𝟏 𝟏𝟏𝟏𝟏',
  'AT61.1904.3002.3457.3201',
  'DE89-3704-0044-0532-0130-00',
  'FR76\u00a03000\u00a06000\u00a00112\u00a03456\u00a07890\u00a0189',
  'GB82\u2009WEST\u20091234\u20095698\u20097654\u200932',
  'ann (at) example.com',
  'ann [at] example [dot] com',
  'john.doe AT example DOT com',
  'jean arobase exemple point fr',
  'mario (chiocciola) esempio (punto) it',
];

test('the second round of spellings comes back byte for byte, glued to anything, never cut inside a word', () => {
  const texts = gluedRoundTrip(SECOND_SPELLINGS, 20261129);
  const word = /[\p{L}\p{N}\p{M}]/u;
  for (const text of texts) {
    for (const e of detectEntities(text)) {
      assert.ok(!word.test(text[e.start - 1] ?? ''), `${JSON.stringify(text)} starts inside: ${e.value}`);
      assert.ok(!word.test(text[e.end] ?? ''), `${JSON.stringify(text)} ends inside: ${e.value}`);
    }
  }
});
