import { checkClaim, type Correction } from './src/engines/hallucination/index.js';
import { ALL_FACTS } from './eval/hallucination/cases.js';
import { candidateCorrections, keyCorrection } from './src/modules/hallucination/prefilter.js';
const corrections: Correction[] = ALL_FACTS.map((f) => ({ id: `c-${f.id}`, originalClaim: f.sup.replace(f.num[0], f.num[1]), correctedClaim: f.sup, source: 'x' }));
const keyed = corrections.map(keyCorrection);
let n = 0, diff = 0, kept = 0, t0 = performance.now(), tAll = 0, tPre = 0;
for (const f of ALL_FACTS) {
  const unrelated = ALL_FACTS.find((o) => o.lang === f.lang && o !== f)!;
  const sources = [f.decoy, unrelated.doc];
  for (const claim of [f.sup, f.alt, f.sup.replace(f.num[0], f.num[1]), f.alt.replace(f.num[0], f.num[1])]) {
    n++;
    let a = performance.now();
    const all = checkClaim(claim, sources, { corrections });
    tAll += performance.now() - a; a = performance.now();
    const cand = candidateCorrections(claim, keyed);
    const pre = checkClaim(claim, sources, { corrections: cand });
    tPre += performance.now() - a;
    kept += cand.length;
    if (JSON.stringify(all) !== JSON.stringify(pre)) { diff++; console.log('DIFF', f.id, claim); }
  }
}
console.log({ claims: n, corrections: corrections.length, diff, avgCandidates: kept / n, msAll: tAll / n, msPrefiltered: tPre / n });
