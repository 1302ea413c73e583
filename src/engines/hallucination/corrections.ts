import { relateNumbers } from './numbers.js';
import { type Prepared, prepare } from './prepare.js';
import { splitClauses } from './split.js';
import { termsMatch } from './terms.js';
import type { Correction } from './types.js';

/** A correction read once: its wrong claim, and what distinguishes it from the corrected one. */
export interface PreparedCorrection {
  correction: Correction;
  original: Prepared;
  corrected: Prepared;
  /** Content words of the wrong claim that the corrected claim does not contain. */
  wrongWords: string[];
  /** Numbers of the wrong claim that the corrected claim does not contain. */
  wrongNumbers: Prepared['numbers'];
  /** The wrong claim and its atomic clauses: a paraphrase may restate only the clause that was wrong. */
  parts: Prepared[];
}

const has = (terms: readonly string[], t: string): boolean => terms.some((u) => termsMatch(t, u));

export function prepareCorrections(list: readonly Correction[]): PreparedCorrection[] {
  return list.map((correction) => {
    const original = prepare(correction.originalClaim);
    const corrected = prepare(correction.correctedClaim);
    return {
      correction,
      original,
      corrected,
      wrongWords: [...new Set(original.words)].filter((w) => !has(corrected.words, w)),
      wrongNumbers: original.numbers.filter(
        (n) => !corrected.numbers.some((m) => relateNumbers(n, m) === 'match'),
      ),
      parts: [original, ...splitClauses(correction.originalClaim).map(prepare)],
    };
  });
}

/**
 * Minimum share of the words of the wrong claim (or of one of its clauses) the checked text must repeat, and
 * of the text's words found in the wrong claim, for the text to restate it.
 */
const OVERLAP = {
  ofOriginal: 0.5,
  ofText: 0.4,
  ofOriginalWithWrongNumber: 0.34,
  ofTextWithWrongNumber: 0.25,
};

function share(a: readonly string[], b: readonly string[]): number {
  const set = [...new Set(a)];
  if (set.length === 0) return 0;
  return set.filter((w) => has(b, w)).length / set.length;
}

/**
 * Whether `text` restates a correction's wrong claim: it shares most of its words and keeps at least one
 * of the wrong details (a paraphrase of the corrected claim keeps none and does not match).
 */
export function matchesCorrection(text: Prepared, pc: PreparedCorrection): boolean {
  const words = text.words;
  const keepsWrongWord = pc.wrongWords.some((w) => has(words, w));
  const keepsWrongNumber = pc.wrongNumbers.some((n) =>
    text.numbers.some((m) => relateNumbers(n, m) === 'match'),
  );
  const keepsPolarity =
    pc.original.negations !== pc.corrected.negations && text.negations % 2 === pc.original.negations % 2;
  if (!keepsWrongWord && !keepsWrongNumber && !keepsPolarity) return false;
  // The wrong number itself is strong evidence of a restatement, so less shared wording is needed.
  const ofText = keepsWrongNumber ? OVERLAP.ofTextWithWrongNumber : OVERLAP.ofText;
  if (share(words, pc.original.words) < ofText) return false;
  const ofOriginal = keepsWrongNumber ? OVERLAP.ofOriginalWithWrongNumber : OVERLAP.ofOriginal;
  return pc.parts.some((p) => share(p.words, words) >= ofOriginal);
}
