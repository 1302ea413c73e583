import type { LogisticModel } from './model.js';

export type Verdict = 'supported' | 'contradicted' | 'unsupported' | 'partially_supported';

/** A correction stored by an organization: `originalClaim` was wrong, `correctedClaim` is right. */
export interface Correction {
  id?: string;
  originalClaim: string;
  correctedClaim: string;
  source: string;
}

/**
 * One piece of source evidence for one sub-claim: `source_index` is zero-based into `sources`, always (a
 * client reads `sources[source_index]`). A sub-claim a correction decided has a CorrectionEvidence instead.
 */
export interface Evidence {
  claim: string;
  source_index: number;
  match: string;
  confidence: number;
  verdict: Verdict;
}

/** A sub-claim an organization's correction decided: it restates `originalClaim`, so it is contradicted. */
export interface CorrectionEvidence {
  claim: string;
  /** The correction's id (omitted when the correction has none). */
  correctionId?: string;
  correctedClaim: string;
  confidence: number;
  verdict: 'contradicted';
}

export interface ClaimPart {
  text: string;
  verdict: Verdict;
  score: number;
  /** The signals the verdict was learned from (SIGNAL_NAMES order); only with `options.signals`. */
  signals?: number[];
}

export interface CheckResult {
  score: number;
  verdict: Verdict;
  evidence: Evidence[];
  /** The sub-claims a correction decided, each with it (apart from evidence, which is source evidence only). */
  corrections: CorrectionEvidence[];
  claims: ClaimPart[];
  language: string;
}

export interface CheckOptions {
  corrections?: Correction[];
  /** `learned` (default): the committed model combines the signals; `rules`: the hand thresholds. */
  verdict?: 'learned' | 'rules';
  /** A model to use instead of the committed one (leave-one-source-out evaluation trains one per fold). */
  model?: LogisticModel;
  /** Return each sub-claim's signals (training and evaluation). */
  signals?: boolean;
  /**
   * Negation × antonym agreement ("not open" stated by "closed") and French/German word families
   * ("Eröffnung" / "eröffnet"), tried for issue 17 on 2026-11-28 and not shipped (docs/hallucination.md):
   * off by default, so the committed model sees the signals it was trained on.
   */
  agreement?: boolean;
}
