import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  compileCustomPattern,
  detectCustom,
  MAX_PROGRAM_SIZE,
  validateCustomPattern,
} from './custom-patterns.js';
import type { CustomPattern } from './types.js';

const pattern = (regex: string, flags?: string): CustomPattern => ({
  name: 'probe',
  domain: 'CORPORATE',
  regex,
  ...(flags ? { flags } : {}),
});

/**
 * Characters the matcher reads while fn runs: every charCodeAt, and for every indexOf (literal prefilters)
 * the characters it may scan. That is the engine's input work; the work per character read is bounded by
 * the size of the compiled program, which MAX_PROGRAM_SIZE caps.
 */
function inputWork(fn: () => void): number {
  const charCodeAt = String.prototype.charCodeAt;
  const indexOf = String.prototype.indexOf;
  let work = 0;
  String.prototype.charCodeAt = function (this: string, i: number) {
    work++;
    return charCodeAt.call(this, i);
  };
  String.prototype.indexOf = function (this: string, s: string, from?: number) {
    work += Math.max(1, this.length - (from ?? 0));
    return indexOf.call(this, s, from);
  };
  try {
    fn();
  } finally {
    String.prototype.charCodeAt = charCodeAt;
    String.prototype.indexOf = indexOf;
  }
  return work;
}

// Patterns that take exponential or high-polynomial time in a backtracking engine, with inputs that
// trigger it; `\D`, `$` and classes at the end defeat the literal prefilter, so the automaton really runs.
const HOSTILE: ReadonlyArray<[string, (n: number) => string]> = [
  ['\\d+\\d+\\d+\\d+\\D', (n) => '1'.repeat(n)],
  ['(a+)+[^a]', (n) => 'a'.repeat(n)],
  ['(a|aa)*[^a]', (n) => 'a'.repeat(n)],
  ['(x+x+)+y$', (n) => 'x'.repeat(n)],
  ['^(\\w+\\s?)+$', (n) => `${'ab '.repeat(n / 3)}!`],
  ['(\\d+[.,]?)+[A-Z]', (n) => '1.'.repeat(n / 2)],
  ['([a-z0-9]+[._-]?)+@[a-z]+\\.[a-z]{2,}', (n) => 'a.'.repeat(n / 2)],
  ['(.*a){12}', (n) => 'a'.repeat(n)],
  ['[\\s\\S]*?X[\\s\\S]*?Y[\\s\\S]*?Z', (n) => 'XY'.repeat(n / 2)],
];

describe('custom patterns run in linear time (RE2 semantics)', () => {
  it('\\d+\\d+\\d+\\d+x against 400 digits: no match, and a match once the x is there', () => {
    const p = pattern('\\d+\\d+\\d+\\d+x');
    assert.deepEqual(validateCustomPattern(p), { ok: true });
    assert.deepEqual(detectCustom('1'.repeat(400), [p]), []);
    const found = detectCustom(`${'1'.repeat(400)}x`, [p]);
    assert.deepEqual(
      found.map((c) => [c.start, c.end]),
      [[0, 401]],
    );
  });

  for (const [regex, input] of HOSTILE) {
    it(`${regex}: work grows linearly from 10 KB to 100 KB`, () => {
      const p = pattern(regex);
      assert.deepEqual(validateCustomPattern(p), { ok: true }, regex);
      compileCustomPattern(regex); // compile outside the measurement
      const small = inputWork(() => detectCustom(input(10_000), [p]));
      const large = inputWork(() => detectCustom(input(100_000), [p]));
      assert.ok(small >= 10_000, `${regex}: the matcher read ${small} characters of 10,000`);
      assert.ok(large / small < 15, `${regex}: work ratio ${large / small} (${small} → ${large})`);
    });
  }

  it('reports UTF-16 offsets, like the built-in detectors', () => {
    const [hit] = detectCustom('😀 Zürich-42', [pattern('z\\p{L}+-\\d+', 'i')]);
    assert.deepEqual([hit?.start, hit?.end, hit?.value], [3, 12, 'Zürich-42']);
  });

  it('accepts JavaScript escapes and named groups', () => {
    assert.deepEqual(validateCustomPattern(pattern('\\u0041(?<n>\\d{3})')), { ok: true });
    assert.equal(detectCustom('xA123', [pattern('\\u0041(?<n>\\d{3})')])[0]?.value, 'A123');
  });

  it('refuses constructs that need backtracking, naming them', () => {
    const cases: Array<[string, RegExp]> = [
      ['(?=abc)abc', /lookahead/],
      ['a(?!b)', /lookahead/],
      ['(?<=a)b', /lookbehind/],
      ['(?<!a)b', /lookbehind/],
      ['(a)\\1', /backreference/],
      ['(?<x>a)\\k<x>', /backreference/],
      ['(?>a+)b', /atomic/],
      ['a++b', /possessive/],
      ['a{1001}', /repeat count/],
      ['([a-z]', /missing closing/],
    ];
    for (const [regex, reason] of cases) {
      const v = validateCustomPattern(pattern(regex));
      assert.equal(v.ok, false, regex);
      if (!v.ok) assert.match(v.reason, reason, regex);
    }
  });

  it('refuses programs too large to run at a useful speed, and empty matches', () => {
    const big = validateCustomPattern(pattern('[\\s\\S]{1000}x[\\s\\S]{1000}'));
    assert.equal(big.ok, false);
    if (!big.ok) assert.match(big.reason, new RegExp(`at most ${MAX_PROGRAM_SIZE}`));
    assert.equal(validateCustomPattern(pattern('a*')).ok, false);
  });
});
