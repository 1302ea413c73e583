import type { Action, Severity, Thresholds } from './types.js';

/** Default cut-offs; an organization may override any of them. */
export const DEFAULT_THRESHOLDS: Thresholds = { log: 25, warn: 45, block: 70 };

/** Similarity below FLOOR adds nothing; at CEILING it adds SIM_MAX points on its own. */
export const SIM_FLOOR = 0.45;
export const SIM_CEILING = 0.9;
export const SIM_MAX = 60;
/** Points for obfuscation seen in the text even when no pattern fired, per technique. */
export const OBFUSCATION_POINTS: Record<string, number> = {
  unicode_tags: 45,
  variation_selectors: 45,
  zero_width: 15,
  homoglyph: 20,
  base64: 10,
  hex: 10,
  url_encoding: 5,
  unicode_escape: 10,
  html_entities: 10,
  fullwidth: 5,
};
/** Added when a pattern only fired after undoing obfuscation: hiding an attack is itself intent. */
export const HIDDEN_MATCH_POINTS = 25;
export const OBFUSCATION_CAP = 45;

/** The learned signal: points per logit unit around the calibrated logit that reaches warn on its own. */
export const MODEL_SLOPE = 12;
export const MODEL_MAX = 90;

export interface ScoreParts {
  /** Adjusted weights (0..100) of the distinct patterns that fired. */
  patternWeights: number[];
  similarity: number;
  obfuscationPoints: number;
  /** Points of the learned signal (modelPoints), 0 when there is no model. */
  modelPoints?: number;
}

/** The model's points count this much more when the text is off the task a system prompt states. */
export const OFF_TASK_FACTOR = 1.25;

/** Texts shorter than this many words get proportionally fewer model points. */
export const MODEL_MIN_WORDS = 8;

/**
 * Logit → points: WARN points at the calibrated logit zWarn, MODEL_SLOPE more per unit above it. A few
 * words can share one heavy n-gram, so under MODEL_MIN_WORDS words the points are scaled down (as the
 * TF-IDF windows are): a single word ("jailbreak", "ignore") is never an attack on its own.
 */
export function modelPoints(logit: number, zWarn: number, words: number): number {
  const p = Math.min(MODEL_MAX, Math.max(0, DEFAULT_THRESHOLDS.warn + MODEL_SLOPE * (logit - zWarn)));
  return p * Math.min(1, words / MODEL_MIN_WORDS);
}

function noisyOr(parts: number[]): number {
  let keep = 1;
  for (const p of parts) keep *= 1 - Math.min(100, Math.max(0, p)) / 100;
  return 100 * (1 - keep);
}

export function similarityPoints(sim: number): number {
  if (sim <= SIM_FLOOR) return 0;
  return Math.min(1, (sim - SIM_FLOOR) / (SIM_CEILING - SIM_FLOOR)) * SIM_MAX;
}

/**
 * The scoring function. Each signal is a probability-like number of points 0..100 and they combine as a
 * noisy OR: score = 100 * (1 - prod(1 - p_i/100)) over every pattern weight, the similarity points, the
 * obfuscation points and the learned model's points. Independent evidence therefore adds up but never passes 100, and one strong
 * pattern is enough on its own.
 */
export function combineScore(parts: ScoreParts): number {
  const p = [
    ...parts.patternWeights,
    similarityPoints(parts.similarity),
    Math.min(OBFUSCATION_CAP, parts.obfuscationPoints),
    parts.modelPoints ?? 0,
  ];
  return Math.round(noisyOr(p));
}

export function resolveThresholds(partial?: Partial<Thresholds>): Thresholds {
  const t = { ...DEFAULT_THRESHOLDS, ...(partial ?? {}) };
  const clamp = (n: number): number => Math.min(100, Math.max(0, Number.isFinite(n) ? n : 0));
  const log = clamp(t.log);
  const warn = Math.max(log, clamp(t.warn));
  const block = Math.max(warn, clamp(t.block));
  return { log, warn, block };
}

export function actionFor(score: number, t: Thresholds): Action {
  if (score >= t.block) return 'block';
  if (score >= t.warn) return 'warn';
  if (score >= t.log) return 'log';
  return 'allow';
}

/** Critical sits halfway between the block cut-off and 100 (85 with the defaults). */
export function severityFor(score: number, t: Thresholds): Severity {
  if (score >= t.block + Math.ceil((100 - t.block) / 2)) return 'critical';
  if (score >= t.block) return 'high';
  if (score >= t.warn) return 'medium';
  if (score >= t.log) return 'low';
  return 'none';
}
