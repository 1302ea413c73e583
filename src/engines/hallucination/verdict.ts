import type { Alignment } from './align.js';
import type { Verdict } from './types.js';

/**
 * Decision thresholds on IDF-weighted coverage, tuned on eval/hallucination/tuning.jsonl only.
 * SUPPORT: share of claim content the evidence must contain. CONTRADICT: share needed before a slot
 * disagreement counts as a contradiction rather than a different topic.
 */
export const THRESHOLDS = {
  support: 0.5,
  contradict: 0.4,
  /** A number conflict between differently-worded slots needs more shared context. */
  weakContradict: 0.7,
};

export interface ClauseDecision {
  verdict: Exclude<Verdict, 'partially_supported'>;
  confidence: number;
  score: number;
}

export function decide(a: Alignment): ClauseDecision {
  const c = a.coverage;
  if (a.conflicts.length > 0 && c >= THRESHOLDS.contradict) {
    const confidence = Math.min(1, 0.5 + 0.5 * c);
    return { verdict: 'contradicted', confidence, score: 0.25 * (1 - confidence) };
  }
  if (a.missing.length === 0 && c >= THRESHOLDS.support) {
    return { verdict: 'supported', confidence: c, score: 0.6 + 0.4 * c };
  }
  const gap = a.missing.length > 0 ? 0.5 : 1;
  const confidence = Math.min(1, 1 - c * gap * 0.8);
  return { verdict: 'unsupported', confidence, score: 0.45 * c * gap };
}

/** Whole-claim verdict: any contradicted part → contradicted; all supported → supported; some → partial. */
export function combine(parts: Verdict[]): Verdict {
  if (parts.includes('contradicted')) return 'contradicted';
  const supported = parts.filter((p) => p === 'supported').length;
  if (supported === parts.length && parts.length > 0) return 'supported';
  if (supported > 0) return 'partially_supported';
  return 'unsupported';
}

/**
 * Rank candidates by coverage: the unit that states most of the claim decides. Within TIE of each other, a
 * support beats a contradiction, which beats an unsupported reading.
 */
export function rank(d: ClauseDecision, coverageValue: number): number {
  const tier = d.verdict === 'supported' ? 2 : d.verdict === 'contradicted' ? 1 : 0;
  return Math.round(coverageValue / TIE) * 10 + tier;
}

const TIE = 0.05;
