import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { consensus, tally, TRUST, type Vote } from './trust.js';

const votes = (t: number, f: number, u = 0, a = 0): Vote[] => [
  ...Array<Vote>(t).fill('true'),
  ...Array<Vote>(f).fill('false'),
  ...Array<Vote>(u).fill('unknown'),
  ...Array<Vote>(a).fill('abstain'),
];

describe('trust hierarchy for 2 to 30 models', () => {
  it('matches the specification for four models', () => {
    assert.deepEqual(consensus(tally(votes(4, 0))), { verdict: 'supported', confidence: 80 });
    assert.deepEqual(consensus(tally(votes(0, 4))), { verdict: 'contradicted', confidence: 80 });
    assert.deepEqual(consensus(tally(votes(3, 1))), { verdict: 'supported', confidence: 60 });
    assert.deepEqual(consensus(tally(votes(1, 3))), { verdict: 'contradicted', confidence: 60 });
    assert.deepEqual(consensus(tally(votes(2, 2))), { verdict: 'not_found', confidence: 40 });
    assert.deepEqual(consensus(tally(votes(2, 1, 1))), { verdict: 'supported', confidence: 40 });
  });

  it('generalises: all agree 80, all but one 60 (from three answers), anything else 40', () => {
    for (let n = 2; n <= 30; n++) {
      assert.equal(consensus(tally(votes(n, 0))).confidence, TRUST.allAgree, `${n}/${n}`);
      const oneOff = consensus(tally(votes(n - 1, 1)));
      assert.equal(oneOff.confidence, n >= 3 ? TRUST.allButOne : TRUST.divergence, `${n - 1}/${n}`);
      if (n >= 4)
        assert.equal(consensus(tally(votes(n - 2, 2))).confidence, TRUST.divergence, `${n - 2}/${n}`);
      assert.equal(consensus(tally(votes(n - 1, 0, 1))).verdict, 'supported');
    }
  });

  it('counts a model that timed out as abstaining, neither for nor against', () => {
    assert.deepEqual(tally(votes(4, 0, 0, 1)), { asked: 5, answered: 4, agree: 4, disagree: 0, unsure: 0 });
    assert.equal(consensus(tally(votes(4, 0, 0, 1))).confidence, 80);
    assert.deepEqual(consensus(tally(votes(0, 0, 0, 5))), { verdict: 'not_found', confidence: 0 });
    assert.equal(consensus(tally(votes(1, 0, 0, 3))).confidence, 40, 'one answer is no consensus');
  });
});
