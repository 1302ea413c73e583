import { type CheckResult, type Correction, checkClaim } from '../../src/engines/hallucination/index.js';
import { ALL_FACTS, type Case, splitOf } from './cases.js';

export interface CorrectionReport {
  corrected: number;
  flipped: number;
  others: number;
  changed: number;
  changedIds: string[];
}

const viaCorrection = (r: CheckResult): boolean =>
  r.verdict === 'contradicted' && r.corrections.some((e) => e.correctionId !== undefined);

/**
 * For each test fact, a correction says the number-swapped claim is wrong and the paraphrase is right.
 * Checked against sources that do not state the fact (decoy plus an unrelated document), the wrong claim and
 * a paraphrase of it must come back contradicted by the correction. Every other test case must keep its verdict.
 */
export function correctionsCheck(cases: Case[]): CorrectionReport {
  const facts = ALL_FACTS.filter((f) => splitOf(f) === 'test');
  const corrections: Correction[] = facts.map((f) => ({
    id: `corr-${f.id}`,
    originalClaim: f.sup.replace(f.num[0], f.num[1]),
    correctedClaim: f.sup,
    source: 'editor',
  }));
  let corrected = 0;
  let flipped = 0;
  for (const f of facts) {
    const unrelated = ALL_FACTS.find((o) => o.lang === f.lang && o !== f)!;
    const sources = [f.decoy, unrelated.doc];
    for (const claim of [f.sup.replace(f.num[0], f.num[1]), f.alt.replace(f.num[0], f.num[1])]) {
      corrected++;
      if (viaCorrection(checkClaim(claim, sources, { corrections }))) flipped++;
    }
  }
  const correctedClaims = new Set(corrections.map((c) => c.originalClaim));
  let others = 0;
  let changed = 0;
  const changedIds: string[] = [];
  for (const c of cases) {
    if (correctedClaims.has(c.claim)) continue;
    others++;
    const before = checkClaim(c.claim, c.sources).verdict;
    const after = checkClaim(c.claim, c.sources, { corrections }).verdict;
    if (before !== after) {
      changed++;
      changedIds.push(c.id);
    }
  }
  return { corrected, flipped, others, changed, changedIds };
}
