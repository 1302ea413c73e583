import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PARAPHRASE_PASSAGES } from './paraphrase-cases.js';
import { styleCases } from './style.js';

describe('own paraphrase and entity-swap cases', () => {
  const cases = styleCases(PARAPHRASE_PASSAGES);
  const passageOf = new Map(PARAPHRASE_PASSAGES.map((p) => [p.id, p.passage]));

  it('has four passages per language, four rewordings and two swaps each, the passage among three sources', () => {
    assert.equal(cases.length, 72);
    for (const lang of ['en', 'fr', 'de'])
      assert.equal(PARAPHRASE_PASSAGES.filter((p) => p.lang === lang).length, 4);
    for (const p of PARAPHRASE_PASSAGES) {
      assert.equal(p.claims.filter(([, l, k]) => l === 'supported' && k === 'reworded').length, 4, p.id);
      assert.equal(
        p.claims.filter(([, l, k]) => l === 'contradicted' && k === 'entity_swap').length,
        2,
        p.id,
      );
    }
    for (const c of cases) {
      assert.equal(c.sources.length, 3);
      assert.equal(c.sources[c.gold_source], passageOf.get(c.id.replace(/-\d+$/, '')));
    }
  });

  it('swaps only names of the passage itself (the hard kind: every name of the claim is in the source)', () => {
    for (const p of PARAPHRASE_PASSAGES) {
      for (const [claim, , kind] of p.claims) {
        if (kind !== 'entity_swap') continue;
        assert.ok(!p.passage.includes(claim.replace(/\.$/, '')), claim);
        const capitalised = claim
          .split(/[\s,.]+/)
          .slice(1)
          .filter((w) => /^\p{Lu}/u.test(w));
        for (const w of capitalised) assert.ok(p.passage.includes(w), `${w} in ${claim}`);
      }
    }
  });

  it('rewords: no supported claim is a sentence of its passage', () => {
    for (const p of PARAPHRASE_PASSAGES)
      for (const [claim, , kind] of p.claims)
        if (kind === 'reworded') assert.ok(!p.passage.includes(claim.replace(/\.$/, '')), claim);
  });
});
