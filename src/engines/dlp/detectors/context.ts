import type { Candidate } from '../types.js';

/** True when `re` matches within `window` characters before `start` (the text between is searched). */
export function contextBefore(text: string, start: number, re: RegExp, window = 40): boolean {
  return re.test(text.slice(Math.max(0, start - window), start));
}

export function contextAround(text: string, start: number, end: number, re: RegExp, window = 40): boolean {
  return re.test(text.slice(Math.max(0, start - window), Math.min(text.length, end + window)));
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
