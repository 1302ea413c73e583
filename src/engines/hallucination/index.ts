import { buildCorpus, checkInCorpus, round } from './corpus.js';
import { LIMITS } from './limits.js';
import type { CheckOptions, CheckResult, ClaimPart, CorrectionEvidence, Evidence, Verdict } from './types.js';
import { combine } from './verdict.js';

export { analysePassage, buildCorpus, checkInCorpus, type ClauseOutcome, type Corpus } from './corpus.js';
export { clausesOf, type Prepared } from './prepare.js';
export { LIMITS } from './limits.js';
export { type Span, splitClauses, splitSentences } from './split.js';
export type {
  CheckOptions,
  CheckResult,
  ClaimPart,
  Correction,
  CorrectionEvidence,
  Evidence,
  Verdict,
} from './types.js';
export { combine, THRESHOLDS } from './verdict.js';
export { type LogisticModel, probability } from './model.js';
export { SIGNAL_NAMES } from './signals.js';

function validate(claim: string, sources: string[]): void {
  if (claim.length > LIMITS.maxClaimChars)
    throw new RangeError(`claim longer than ${LIMITS.maxClaimChars} characters`);
  if (sources.length > LIMITS.maxSources) throw new RangeError(`more than ${LIMITS.maxSources} sources`);
  for (const s of sources) {
    if (s.length > LIMITS.maxSourceChars)
      throw new RangeError(`a source is longer than ${LIMITS.maxSourceChars} characters`);
  }
}

/**
 * Checks a claim (one sentence or a whole LLM response) against source texts. Deterministic and pure.
 * Throws RangeError when the input exceeds LIMITS.
 */
export function checkClaim(claim: string, sources: string[], options: CheckOptions = {}): CheckResult {
  validate(claim, sources);
  const { outcomes, language } = checkInCorpus(buildCorpus(sources), claim, options);
  const parts: ClaimPart[] = outcomes.map((o) => o.part);
  const evidence: Evidence[] = outcomes.flatMap((o) => (o.evidence ? [o.evidence] : []));
  const corrections: CorrectionEvidence[] = outcomes.flatMap((o) => (o.correction ? [o.correction] : []));
  const verdict: Verdict = parts.length === 0 ? 'unsupported' : combine(parts.map((p) => p.verdict));
  let score = parts.length === 0 ? 0 : parts.reduce((a, p) => a + p.score, 0) / parts.length;
  if (verdict === 'contradicted') score = Math.min(score, 0.25);
  return { score: round(score), verdict, evidence, corrections, claims: parts, language };
}
