import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Correction, checkClaim } from './index.js';

const SOURCES = ['The Zento X5 phone has a 4,500 mAh battery and was launched in Seoul.'];
const CORRECTIONS: Correction[] = [
  {
    id: 'c1',
    originalClaim: 'The Zento X5 costs 899 dollars.',
    correctedClaim: 'The Zento X5 costs 799 dollars.',
    source: 'Price list 2024',
  },
];

describe('corrections', () => {
  it('contradicts a claim that repeats a corrected claim, with the correction as evidence', () => {
    const before = checkClaim('The Zento X5 costs 899 dollars.', SOURCES);
    assert.notEqual(before.verdict, 'contradicted');
    const r = checkClaim('The Zento X5 costs 899 dollars.', SOURCES, { corrections: CORRECTIONS });
    assert.equal(r.verdict, 'contradicted');
    const e = r.corrections.find((x) => x.correctionId === 'c1');
    assert.ok(e);
    assert.equal(e.correctedClaim, 'The Zento X5 costs 799 dollars.');
    assert.equal(e.verdict, 'contradicted');
    // Evidence is source evidence only: no index outside the sources (a client reads sources[source_index]).
    assert.ok(r.evidence.every((x) => x.source_index >= 0 && x.source_index < SOURCES.length));
    assert.ok(!r.evidence.some((x) => x.claim === e.claim));
  });

  it('also catches a paraphrase of the corrected claim', () => {
    const r = checkClaim('The price of the Zento X5 is 899 dollars.', SOURCES, { corrections: CORRECTIONS });
    assert.equal(r.verdict, 'contradicted');
    assert.equal(r.corrections.length, 1);
    assert.ok(r.evidence.every((x) => x.source_index >= 0));
  });

  it('leaves the corrected statement and unrelated claims alone', () => {
    for (const claim of ['The Zento X5 costs 799 dollars.', 'The Zento X5 was launched in Seoul.']) {
      const a = checkClaim(claim, SOURCES);
      const b = checkClaim(claim, SOURCES, { corrections: CORRECTIONS });
      assert.equal(b.verdict, a.verdict, claim);
      assert.deepEqual(b.corrections, [], claim);
      assert.deepEqual(b.evidence, a.evidence, claim);
    }
  });

  it('omits correctionId when the correction has no id', () => {
    const [c] = CORRECTIONS;
    const r = checkClaim('The Zento X5 costs 899 dollars.', SOURCES, {
      corrections: [
        { originalClaim: c!.originalClaim, correctedClaim: c!.correctedClaim, source: c!.source },
      ],
    });
    const [e] = r.corrections;
    assert.ok(e);
    assert.equal('correctionId' in e, false);
  });
});
