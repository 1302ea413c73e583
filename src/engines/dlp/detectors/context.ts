import type { Candidate } from '../types.js';

/** True when `re` matches within `window` characters before `start` (the text between is searched). */
export function contextBefore(text: string, start: number, re: RegExp, window = 40): boolean {
  return re.test(text.slice(Math.max(0, start - window), start));
}

export function contextAround(text: string, start: number, end: number, re: RegExp, window = 40): boolean {
  return re.test(text.slice(Math.max(0, start - window), Math.min(text.length, end + window)));
}

// The characters that an /iu pattern folds onto an ASCII letter (s, k) and an /i one does not: the long s
// and the Kelvin sign, written as escapes. (The class held an ASCII 'K' where the Kelvin sign belongs: every
// text with a capital K took the slow path, and a text whose only k was a Kelvin sign got a wrong "no", so a
// password after "\u212Aennwort" went undetected. Such texts are the only ones whose findings changed.)
const FOLDED_ONLY_UNDER_IU = /[\u017F\u212A]/;

/**
 * A cheap and never wrong "maybe" for whether a list of words matched with /iu can occur in a text: an /i scan
 * is many times faster. For the word lists it serves (ASCII letters and é, compared code point by code point)
 * the two differ only on 'ſ' and the Kelvin sign, so a text with either of them always takes the slow path.
 */
export function wordHint(words: string): (text: string) => boolean {
  const re = new RegExp(words, 'i');
  return (text) => re.test(text) || FOLDED_ONLY_UNDER_IU.test(text);
}

const DIGIT = /\d/;

/** Whether the text holds an ASCII digit: the cheapest gate in front of the number-shaped detectors. */
export function hasDigit(text: string): boolean {
  return DIGIT.test(text);
}

export function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && /[\p{L}\p{N}_]/u.test(ch);
}

export function candidate(
  type: string,
  domain: string,
  text: string,
  start: number,
  end: number,
  confidence: number,
  detector: string,
): Candidate {
  return { type, domain, start, end, value: text.slice(start, end), confidence, detector };
}
