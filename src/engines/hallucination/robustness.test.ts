import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { checkClaim } from './index.js';

const VERDICTS = new Set(['supported', 'contradicted', 'unsupported', 'partially_supported']);

// Text built from pieces that stress the parsers: numbers in several formats, dates, negations, punctuation.
const piece = fc.constantFrom(
  'The plant',
  'employs',
  '1,250',
  '1.250,5',
  '2 500',
  'people',
  'not',
  "n'",
  'ne pas',
  'nicht',
  'März',
  '3.',
  '12/05/2019',
  'about',
  'at least',
  'km',
  '°F',
  '%',
  ',',
  '.',
  ';',
  'and',
  'which',
  'und',
  'et',
  'Zürich',
  '🙂',
  '',
);
const text = fc
  .array(fc.oneof(piece, fc.string({ maxLength: 12 })), { maxLength: 40 })
  .map((a) => a.join(' '));

describe('checkClaim on arbitrary input', () => {
  it('never throws within LIMITS and always returns a well-formed result', () => {
    fc.assert(
      fc.property(text, fc.array(text, { maxLength: 5 }), (claim, sources) => {
        const r = checkClaim(claim, sources);
        assert.ok(VERDICTS.has(r.verdict));
        assert.ok(r.score >= 0 && r.score <= 1);
        for (const e of r.evidence) {
          assert.ok(e.source_index >= 0 && e.source_index < sources.length);
          assert.ok(e.confidence >= 0 && e.confidence <= 1);
          assert.ok(sources[e.source_index]!.includes(e.match.split(' ')[0] ?? ''));
        }
        for (const c of r.claims) assert.ok(VERDICTS.has(c.verdict) && c.score >= 0 && c.score <= 1);
      }),
      { numRuns: 200, seed: 42 },
    );
  });
});
