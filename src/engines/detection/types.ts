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
