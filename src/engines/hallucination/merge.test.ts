import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkClaim, SIGNAL_NAMES } from './index.js';
import { MERGE_GLUE } from './merge.js';

// The two facts of the claims below are stated three sentences apart.
const SOURCE = [
  'Harlow Robotics was founded in Leeds in 2011. Its first product was a shelf-scanning robot. ' +
    'The founders had met at the University of York. Rival firms soon copied the design. ' +
    'Today the company employs 1,250 people.',
];
const at = (name: (typeof SIGNAL_NAMES)[number]) => SIGNAL_NAMES.indexOf(name);

describe('sentence merging (one claim, two source sentences)', () => {
  it('aligns a claim sentence that packs two source sentences with both', () => {
    const r = checkClaim('Harlow Robotics, founded in Leeds, employs 1,250 people.', SOURCE, {
      signals: true,
    });
    assert.equal(r.claims.length, 1, 'the appositive is not split off: one sub-claim');
    const s = r.claims[0]!.signals!;
    assert.ok(s[at('merge_gain')]! > 0, `merge gain ${s[at('merge_gain')]}`);
  });

  it('supports it and cites both sentences', () => {
    const r = checkClaim('Harlow Robotics, founded in Leeds, employs 1,250 people.', SOURCE);
    assert.equal(r.verdict, 'supported');
    const match = r.evidence[0]!.match;
    assert.ok(match.includes(MERGE_GLUE), match);
    assert.ok(match.includes('Leeds') && match.includes('1,250'), match);
  });

  it('reports the disagreement a second sentence brings', () => {
    const r = checkClaim('Harlow Robotics, founded in Leeds, employs 1,520 people.', SOURCE, {
      signals: true,
    });
    assert.notEqual(r.verdict, 'supported');
  });

  it('merges nothing when one sentence states the whole claim', () => {
    const r = checkClaim('Harlow Robotics was founded in Leeds in 2011.', SOURCE, { signals: true });
    const s = r.claims[0]!.signals!;
    assert.equal(s[at('merge_gain')], 0);
    assert.ok(!r.evidence[0]!.match.includes(MERGE_GLUE));
  });
});

describe('sentence splitting (two claim sentences, one source sentence)', () => {
  it('supports each claim sentence from the one source sentence that states both', () => {
    const source = ['The Kessler bridge, designed by Anna Weber, opened in 1990 and is 300 metres long.'];
    const r = checkClaim('The Kessler bridge was designed by Anna Weber. It is 300 metres long.', source);
    assert.deepEqual(
      r.claims.map((c) => c.verdict),
      ['supported', 'supported'],
    );
    assert.ok(r.evidence.every((e) => e.source_index === 0));
  });
});
