// Long sources and multi-sentence answers (issue 17, item 4): an answer of several sentences, each about a
// different fact, checked against sources of several KB that each hold many documents. Every sub-claim must
// take its evidence from the passage that states its fact, not from a decoy on a near subject.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkClaim } from '../../src/engines/hallucination/index.js';
import { ALL_FACTS } from './cases.js';

for (const lang of ['en', 'fr', 'de'] as const) {
  describe(`long sources, ${lang}`, () => {
    const facts = ALL_FACTS.filter((f) => f.lang === lang);
    // Two sources; source k holds the documents of facts k, k+2, k+4… and the decoys of the others.
    const sources = [0, 1].map((k) => facts.map((f, i) => (i % 2 === k ? f.doc : f.decoy)).join('\n\n'));
    const home = (i: number) => i % 2;

    it('the sources are several KB each', () => {
      for (const s of sources) assert.ok(s.length >= 2_000, `${s.length} characters`);
    });

    it('each sentence of a multi-sentence answer finds its evidence in the right passage', () => {
      let right = 0;
      let total = 0;
      let supported = 0;
      for (let start = 0; start + 3 <= facts.length; start += 3) {
        const picked = [start, start + 1, start + 2];
        const answer = picked.map((i) => facts[i]!.alt).join(' ');
        const r = checkClaim(answer, sources);
        for (const i of picked) {
          const f = facts[i]!;
          const ev = r.evidence.filter((e) => f.alt.includes(e.claim));
          for (const e of ev) {
            total++;
            if (e.source_index === home(i) && f.doc.includes(e.match.split(/(?<=[.!?]) /)[0]!)) right++;
            if (e.verdict === 'supported') supported++;
          }
        }
      }
      assert.ok(total >= facts.length - (facts.length % 3), `${total} sub-claims`);
      assert.ok(right / total >= 0.9, `right passage for ${right} of ${total}`);
      assert.ok(supported / total >= 0.7, `supported ${supported} of ${total}`);
    });
  });
}
