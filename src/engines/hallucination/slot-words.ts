import {
  APPROX_CUES,
  LOWER_BOUND_CUES,
  MONTHS,
  NUMBER_WORDS,
  ORDINAL_WORDS,
  SCALE_WORDS,
  UNITS,
  UPPER_BOUND_CUES,
} from './lexicon.js';

// Words that belong to a number or date slot (units, number words, months, approximation and bound cues).
// Slots are compared by value, so these words are left out of the lexical coverage.
const SLOT_WORDS: ReadonlySet<string> = new Set([
  ...UNITS.keys(),
  ...NUMBER_WORDS.keys(),
  ...ORDINAL_WORDS.keys(),
  ...SCALE_WORDS.keys(),
  ...MONTHS.keys(),
  ...[...APPROX_CUES, ...LOWER_BOUND_CUES, ...UPPER_BOUND_CUES].filter((c) => !c.includes(' ')),
]);

export function isSlotWord(norm: string): boolean {
  return SLOT_WORDS.has(norm);
}
