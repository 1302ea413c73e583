import { analyzeText } from './analyze.js';
import { MODEL } from './model/weights.js';
import { PATTERNS } from './patterns/index.js';
import { analyzeAndSanitize, sanitizeText } from './sanitize.js';
import type { AnalysisResult, DetectionOptions } from './types.js';

export type {
  Action,
  AnalysisResult,
  DetectionOptions,
  PatternMatch,
  Severity,
  Thresholds,
} from './types.js';
export { DEFAULT_THRESHOLDS } from './scoring.js';
export { analyzeAndSanitize };

/**
 * The version of the learned model the analysis reads (model/weights.ts): a verdict holds for the model that
 * gave it, so whatever keeps verdicts (the proxies' analysis cache) keys them by it.
 */
export const MODEL_VERSION: string = MODEL.version;
export type { Sanitization } from './sanitize.js';

/** Full analysis: score 0..100, severity, action, categories and the matches on original offsets. */
export function analyze(text: string, options?: DetectionOptions): AnalysisResult {
  return analyzeText(text, options);
}

/**
 * The texts of one request, each with its own options, in order, up to and including the first whose action
 * is `block` (the request is refused then, and the rest need not be read): one call, so a caller sends them
 * to one worker under one budget, and their total size decides where they run.
 */
export function analyzeEach(items: Array<{ text: string; options?: DetectionOptions }>): AnalysisResult[] {
  const results: AnalysisResult[] = [];
  for (const { text, options } of items) {
    const r = analyzeText(text, options);
    results.push(r);
    if (r.action === 'block') break;
  }
  return results;
}

/** Boolean verdict: an injection is anything analysis would warn about or block. */
export function detect(
  text: string,
  options?: DetectionOptions,
): { injection: boolean; score: number; safe: boolean } {
  const r = analyzeText(text, options);
  return { injection: !r.safe, score: r.score, safe: r.safe };
}

export function sanitize(
  text: string,
  options?: DetectionOptions,
): { sanitized: string; removed: string[]; modifications: number } {
  return sanitizeText(text, options);
}

export function patternCount(): number {
  return PATTERNS.length;
}

export function patternCategories(): string[] {
  return [...new Set(PATTERNS.map((p) => p.category))].sort();
}
