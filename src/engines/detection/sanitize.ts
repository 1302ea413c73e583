import { analyzeFull } from './analyze.js';
import type { AnalysisResult, DetectionOptions, PatternMatch } from './types.js';

/** How far a removal may grow to swallow the rest of the sentence the attack sits in. */
const SENTENCE_REACH = 300;

function sentenceBounds(text: string, start: number, end: number): [number, number] {
  let s = start;
  while (s > 0 && start - s < SENTENCE_REACH && !/[.!?\n]/.test(text[s - 1] as string)) s--;
  let e = end;
  while (e < text.length && e - end < SENTENCE_REACH && !/[.!?\n]/.test(text[e - 1] as string)) e++;
  return [s, e];
}

const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF\u00AD]|\uDB40[\uDC00-\uDC7F]/g;

/**
 * Removes what analysis flagged: each malicious span grows to its sentence (an attack sentence stripped of
 * its verb is still an instruction), overlapping spans merge, and leftover hidden characters go too.
 * Text whose analysis says "allow" comes back unchanged.
 */
export function sanitizeText(
  text: string,
  options: DetectionOptions = {},
): { sanitized: string; removed: string[]; modifications: number } {
  return analyzeAndSanitize(text, options).sanitization;
}

export interface Sanitization {
  sanitized: string;
  removed: string[];
  modifications: number;
}

/** One analysis pass that yields both the verdict and the sanitized text, for callers that need both. */
export function analyzeAndSanitize(
  text: string,
  options: DetectionOptions = {},
): { analysis: AnalysisResult; sanitization: Sanitization } {
  const { result, all } = analyzeFull(text, options);
  return { analysis: result, sanitization: removeFlagged(text, result, all) };
}

function removeFlagged(text: string, result: AnalysisResult, all: PatternMatch[]): Sanitization {
  if (result.action === 'allow') return { sanitized: text, removed: [], modifications: 0 };
  const spans = all
    .filter((m) => m.weight >= 15)
    .map((m) => sentenceBounds(text, m.start, m.end))
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const sp of spans) {
    const last = merged[merged.length - 1];
    if (last && sp[0] <= last[1]) last[1] = Math.max(last[1], sp[1]);
    else merged.push([sp[0], sp[1]]);
  }
  const removed: string[] = [];
  let out = '';
  let at = 0;
  for (const [s, e] of merged) {
    out += text.slice(at, s);
    removed.push(text.slice(s, e));
    at = e;
  }
  out += text.slice(at);
  let modifications = merged.length;
  const hidden = out.match(INVISIBLE);
  if (hidden && result.details.obfuscation.some((o) => o === 'unicode_tags' || o === 'zero_width')) {
    removed.push(hidden.join(''));
    out = out.replace(INVISIBLE, '');
    modifications++;
  }
  // After the first replace no run of spaces or tabs is longer than one, so the trim reads one character at
  // each end: `[ \t]+$` tried from every character of a long run that does not reach the end is quadratic.
  const sanitized = out.replace(/[ \t]{2,}/g, ' ').replace(/^[ \t]|[ \t]$/g, '');
  return { sanitized, removed, modifications };
}
