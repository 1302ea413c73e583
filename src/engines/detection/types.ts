export type Severity = 'none' | 'low' | 'medium' | 'high' | 'critical';
export type Action = 'allow' | 'log' | 'warn' | 'block';

/** Score cut-offs on the 0..100 scale; a score at or above a cut-off takes that action. */
export interface Thresholds {
  log: number;
  warn: number;
  block: number;
}

export interface DetectionOptions {
  /** A system prompt, or 'document' | 'email' | 'web' | 'tool' for text that did not come from the user. */
  context?: string;
  /**
   * The system prompt in `context` came with the text from the same caller (a proxied request, the
   * protected chat), not from the operator of the application: whoever wrote the text wrote it too. A
   * match found in it then keeps its weight (copying an attack into one's own system message would
   * otherwise lower its score); only the off-task factor and the extraction weight apply.
   */
  contextFromCaller?: boolean;
  thresholds?: Partial<Thresholds>;
  /** Per-organization phrases whose matches are suppressed (known false positives). */
  allowPhrases?: string[];
}

export interface PatternMatch {
  patternId: string;
  category: string;
  start: number;
  end: number;
  weight: number;
  match: string;
}

export interface AnalysisResult {
  score: number;
  severity: Severity;
  action: Action;
  categories: string[];
  safe: boolean;
  details: {
    tfidf_score: number;
    pattern_matches: number;
    semantic_similarity: number;
    obfuscation: string[];
    /**
     * The signal that gave the most points: a match's pattern, the similarity to a known attack,
     * obfuscation or the learned model ('none' when none gave any).
     */
    top_signal: 'patterns' | 'similarity' | 'obfuscation' | 'model' | 'none';
    language?: string;
    /** The learned signal: model version, logit of its most suspicious window and the points it added. */
    model?: {
      version: string;
      logit: number;
      points: number;
      /** With a system prompt as context: whether the text stays off its stated task (points ×1.25). */
      off_task?: boolean;
    };
  };
  matches: PatternMatch[];
}

export type Lang = 'en' | 'fr' | 'de' | 'it' | 'es';
