import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Correction, checkClaim } from '../../engines/hallucination/index.js';
import { ALL_FACTS } from '../../../eval/hallucination/cases.js';
import { candidateCorrections, keyCorrection, wordKeys } from './prefilter.js';

describe('correction prefilter', () => {
  it('keys inflections, compounds, short words and number formats alike', () => {
    const shares = (a: string, b: string) => [...wordKeys(a)].some((k) => wordKeys(b).has(k));
    assert.ok(shares('Der Jahresurlaub', 'Urlaub'));
    assert.ok(shares('released', 'releases'));
    assert.ok(shares('CEOs', 'the CEO'));
    assert.ok(shares('1,250 users', '1.250'));
    assert.ok(shares('1 250', '1250'));
    assert.ok(shares('Élysée', 'elysee'));
    assert.ok(!shares('the and der die', 'the and der die les'), 'function words alone prove nothing');
    assert.ok(!shares('Warehouse capacity', 'Printer toner'));
  });

  it('keeps only the corrections that share a key with the claim, in order', () => {
    const list: Correction[] = [
      { id: 'a', originalClaim: 'The printer needs toner every week.', correctedClaim: 'x', source: 's' },
      { id: 'b', originalClaim: 'Warehouse 7 holds 300 pallets.', correctedClaim: 'y', source: 's' },
      { id: 'c', originalClaim: 'Das Lager 7 fasst 300 Paletten.', correctedClaim: 'z', source: 's' },
    ];
    const keyed = list.map(keyCorrection);
    assert.deepEqual(
      candidateCorrections('Our warehouse holds 300 pallets.', keyed).map((c) => c.id),
      ['b', 'c'],
    );
    assert.deepEqual(
      candidateCorrections('Toner is needed weekly.', keyed).map((c) => c.id),
      ['a'],
    );
    assert.deepEqual(candidateCorrections('Nothing related at all.', keyed), []);
  });

  it('changes no result of the engine on the EN/FR/DE facts, corrected and paraphrased claims included', () => {
    const corrections: Correction[] = ALL_FACTS.map((f) => ({
      id: `c-${f.id}`,
      originalClaim: f.sup.replace(f.num[0], f.num[1]),
      correctedClaim: f.sup,
      source: 'editor',
    }));
    const keyed = corrections.map(keyCorrection);
    let dropped = 0;
    for (const f of ALL_FACTS) {
      const unrelated = ALL_FACTS.find((o) => o.lang === f.lang && o !== f)!;
      const sources = [f.decoy, unrelated.doc];
      for (const claim of [
        f.sup,
        f.alt,
        f.sup.replace(f.num[0], f.num[1]),
        f.alt.replace(f.num[0], f.num[1]),
      ]) {
        const few = candidateCorrections(claim, keyed);
        dropped += corrections.length - few.length;
        assert.deepEqual(
          checkClaim(claim, sources, { corrections: few }),
          checkClaim(claim, sources, { corrections }),
          claim,
        );
      }
    }
    assert.ok(dropped > 0, 'the prefilter drops something');
  });
});
