import assert from 'node:assert/strict';
import { test } from 'node:test';
import { trimQuotes } from './detection/suffix.js';
import { customTypeName } from './dlp/custom-patterns.js';
import { trimPunctuation } from './dlp/detectors/secrets.js';
import { canonicalToken } from './dlp/rehydrate.js';
import { withoutEndMark } from './hallucination/corpus.js';
import { dropSpaceBeforeComma, stripEnd } from './hallucination/split.js';

// Patterns that were quadratic on long runs (src/engines/regex-backtracking.test.ts finds that shape) were
// replaced by loops or by patterns that cannot trade characters between two runs. Each replacement must
// answer exactly as the pattern it replaced: compared here on random texts over the characters that decide.

function randomTexts(alphabet: readonly string[], rounds: number, seed: number): string[] {
  let s = seed;
  const next = (): number => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s;
  };
  const out: string[] = [];
  for (let r = 0; r < rounds; r++) {
    let text = '';
    const length = next() % 16;
    for (let i = 0; i < length; i++) text += alphabet[next() % alphabet.length];
    out.push(text);
  }
  return out;
}

const SPACES = [' ', '\t', '\n', '\u00a0', '\u2003', '\u3000', '\ufeff', '\u200b'];

test('each loop answers as the pattern it replaced', () => {
  for (const t of randomTexts(['\\', '\\', '_', 'a', 'B', 'é'], 5_000, 1))
    assert.equal(canonicalToken(t), t.replace(/\\+_/g, '_').toUpperCase(), JSON.stringify(t));
  for (const t of randomTexts(['.', ',', ';', ':', ')', ']', '}', 'a', '(', ' '], 5_000, 2))
    assert.equal(trimPunctuation(t), t.replace(/[.,;:)\]}]+$/, ''), JSON.stringify(t));
  for (const t of randomTexts([...SPACES, '.', '!', '?', ';', ':', ',', 'a', '…'], 5_000, 3))
    assert.equal(stripEnd(t), t.replace(/[\s.!?;:,]+$/u, '').trim(), JSON.stringify(t));
  for (const t of randomTexts([...SPACES, ',', 'a', ';'], 5_000, 4))
    assert.equal(dropSpaceBeforeComma(t), t.replace(/\s+,/g, ','), JSON.stringify(t));
  for (const t of randomTexts([...SPACES, '.', '!', '?', 'a', ','], 5_000, 5))
    assert.equal(withoutEndMark(t), t.replace(/[.!?]+\s*$/u, ''), JSON.stringify(t));
  for (const t of randomTexts(['_', '-', ' ', 'a', 'Z', '0', 'é', '!'], 5_000, 6)) {
    const before = t
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '');
    assert.equal(customTypeName(t), before, JSON.stringify(t));
  }
});

test('each rewritten pattern matches the same texts as the one it replaced', () => {
  const pairs: Array<[RegExp, RegExp, readonly string[]]> = [
    // names.ts, the gap before a name
    [/^\s*[:,]?\s*$/, /^\s*(?:[:,]\s*)?$/, [...SPACES, ':', ',', 'a']],
    // suffix.ts, odd tokens
    [/\p{Ll}{2,}\p{Lu}/u, /\p{Ll}{2}\p{Lu}/u, ['a', 'é', 'B', 'É', '1', '!']],
    [/[!?]{2,}\p{L}|\p{L}[!?]{2,}\p{L}/u, /[!?]{2}\p{L}/u, ['!', '?', 'a', 'Ω', '1', '.']],
  ];
  for (const [before, after, alphabet] of pairs)
    for (const t of randomTexts(alphabet, 5_000, 7))
      assert.equal(after.test(t), before.test(t), `${before} ${JSON.stringify(t)}`);
  // split.ts: the conjunction pattern starts only at a comma or at the start of a space run; same matches.
  const before = /,?\s+(?:and|et|und)\s+/giu;
  const after = /(?:,|(?<![\s,]))\s+(?:and|et|und)\s+/giu;
  for (const t of randomTexts([' ', '\t', ',', 'and', 'et', 'und', 'x', '\n'], 5_000, 10))
    assert.deepEqual(
      [...t.matchAll(after)].map((m) => [m.index, m[0]]),
      [...t.matchAll(before)].map((m) => [m.index, m[0]]),
      JSON.stringify(t),
    );
  // sanitize.ts trims after collapsing runs of spaces and tabs to one space: the same result as before.
  for (const t of randomTexts([' ', '\t', 'a', '\n'], 5_000, 8)) {
    const collapsed = t.replace(/[ \t]{2,}/g, ' ');
    assert.equal(collapsed.replace(/^[ \t]|[ \t]$/g, ''), collapsed.replace(/^[ \t]+|[ \t]+$/g, ''));
  }
});

test('odd tokens: quotes and trailing marks trimmed as before', () => {
  for (const t of randomTexts(['"', "'", '(', ')', '.', ',', '!', '?', ';', ':', 'a'], 5_000, 9))
    assert.equal(trimQuotes(t), t.replace(/^["'(]+|[.,!?;:"')]+$/g, ''), JSON.stringify(t));
});
