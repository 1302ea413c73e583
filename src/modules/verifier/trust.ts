/**
 * The trust hierarchy of the specification, as a rule for any number of models (docs/verifier.md):
 * a validated internal source decides at 100 and overrides every model; otherwise the models that answered
 * vote, and all agreeing gives 80, all but one 60, anything else 40. A model that timed out or failed
 * abstains: it is not counted at all, neither for nor against.
 */
export const TRUST = {
  validatedSource: 100,
  allAgree: 80,
  allButOne: 60,
  divergence: 40,
  /** A connected source nobody validated: its verdict stands without models, below their consensus. */
  unvalidatedSourceMax: 70,
} as const;

/** Below this many answering models the result carries the specification's warning. */
export const RECOMMENDED_MODELS = 5;

export type Vote = 'true' | 'false' | 'unknown' | 'abstain';
export type ClaimVerdict = 'supported' | 'contradicted' | 'not_found';

export interface Tally {
  asked: number;
  answered: number;
  agree: number;
  disagree: number;
  unsure: number;
}

export function tally(votes: readonly Vote[]): Tally {
  let agree = 0;
  let disagree = 0;
  let unsure = 0;
  for (const v of votes) {
    if (v === 'true') agree++;
    else if (v === 'false') disagree++;
    else if (v === 'unknown') unsure++;
  }
  return { asked: votes.length, answered: agree + disagree + unsure, agree, disagree, unsure };
}

/**
 * Consensus of the models that answered. With n answers and the larger side of true/false holding k:
 * k = n (n ≥ 2) → 80; k = n − 1 (n ≥ 3) → 60; otherwise 40. "Unknown" is an answer that sides with
 * neither, so it breaks unanimity like a dissent. A tie decides nothing (not_found at 40); no answer at all
 * is not_found at 0.
 */
export function consensus(t: Tally): { verdict: ClaimVerdict; confidence: number } {
  const n = t.answered;
  if (n === 0) return { verdict: 'not_found', confidence: 0 };
  const k = Math.max(t.agree, t.disagree);
  const verdict: ClaimVerdict =
    t.agree > t.disagree ? 'supported' : t.disagree > t.agree ? 'contradicted' : 'not_found';
  if (verdict === 'not_found') return { verdict, confidence: TRUST.divergence };
  if (k === n && n >= 2) return { verdict, confidence: TRUST.allAgree };
  if (k === n - 1 && n >= 3) return { verdict, confidence: TRUST.allButOne };
  return { verdict, confidence: TRUST.divergence };
}

/** The confidence a connected but unvalidated source earns from the engine's alignment confidence (0..1). */
export function unvalidatedConfidence(engineConfidence: number): number {
  return Math.round(TRUST.unvalidatedSourceMax * Math.max(0, Math.min(1, engineConfidence)));
}

/** What a claim adds to the answer's score: its confidence when supported, nothing otherwise. */
export function claimTrust(verdict: ClaimVerdict, confidence: number): number {
  return verdict === 'supported' ? confidence : 0;
}
