import type { Lang } from '../types.js';

/**
 * One pattern of the library. `source` is a regular expression over NORMALISED text (lower case, accents
 * stripped, look-alikes folded), so it is written in plain lower-case ASCII. Every quantifier is bounded
 * except `\s+`/`\s*` between literals, which keeps matching linear (checked by the tests).
 */
export interface PatternDef {
  id: string;
  category: string;
  langs: Lang[];
  /** Contribution to the score, 0..100, before context and quoting adjustments. */
  weight: number;
  source: string;
  /** A text this pattern must fire on (the tests check it). */
  example: string;
}

/** One to `n` filler words between two parts of a phrase. */
export const gap = (n: number): string => String.raw`(?:[\w'-]{1,24}[,;:]?\s+){0,${n}}`;
