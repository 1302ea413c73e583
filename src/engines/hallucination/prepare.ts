import { type DateMention, extractDates } from './dates.js';
import { extractNumbers, type NumberMention } from './numbers.js';
import { negationCount } from './polarity.js';
import { DIMENSION_WORDS, NUMBER_WORDS, UNITS } from './lexicon.js';
import { isSlotWord } from './slot-words.js';
import { splitClauses } from './split.js';
import { canonical, numberTerms } from './terms.js';
import { isStopword, type Token, tokenize } from './text.js';

/** A piece of text analysed once: tokens, content terms, numbers, dates and negation count. */
export interface Prepared {
  text: string;
  tokens: Token[];
  /** Canonical content terms (no stopwords, no digits). */
  words: string[];
  /** Canonical terms of capitalised words (names, and German nouns). */
  capitalised: Set<string>;
  /** Content terms plus digit strings, for retrieval. */
  terms: string[];
  numbers: NumberMention[];
  dates: DateMention[];
  negations: number;
  /** Atomic clauses, computed on first use (only for sentences that reach the slot comparison). */
  clauses?: Prepared[];
}

export function clausesOf(p: Prepared): Prepared[] {
  if (!p.clauses) {
    const parts = splitClauses(p.text);
    p.clauses = parts.length > 1 ? parts.map(prepare) : [p];
  }
  return p.clauses;
}

/**
 * Numbers and dates compared per sentence. Slots are compared pairwise between a claim clause and an
 * evidence sentence (and each looks at its neighbouring words), so a "sentence" of hundreds of numbers cost
 * their square; no claim states more than this many facts in one sentence.
 */
export const MAX_SLOTS = 32;

/** Whether a number or a unit stands within two tokens of token i (a dimension word then belongs to it). */
function nextToMeasure(tokens: readonly Token[], i: number): boolean {
  for (let j = Math.max(0, i - 2); j <= Math.min(tokens.length - 1, i + 2); j++) {
    if (j === i) continue;
    const n = tokens[j]!.norm;
    if (/\d/.test(n) || UNITS.has(n) || NUMBER_WORDS.has(n)) return true;
  }
  return false;
}

export function prepare(text: string): Prepared {
  const tokens = tokenize(text);
  const words: string[] = [];
  const capitalised = new Set<string>();
  const dimensions: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (isStopword(t.norm) || t.norm.length <= 1 || isSlotWord(t.norm)) continue;
    const c = canonical(t);
    if (DIMENSION_WORDS.has(t.norm) && nextToMeasure(tokens, i)) {
      dimensions.push(c);
      continue;
    }
    words.push(c);
    if (t.capital) capitalised.add(c);
  }
  // A text of nothing but a measurement ("It is 300 metres long") keeps its dimension word: without any
  // content word, nothing would tie it to a subject.
  // Both ways the dimension word stays a term, so that such a claim finds it in the evidence.
  const bare = words.length === 0;
  if (bare) words.push(...dimensions);
  const dates = extractDates(text).slice(0, MAX_SLOTS);
  return {
    text,
    tokens,
    words,
    capitalised,
    terms: words.concat(bare ? [] : dimensions, numberTerms(text)),
    numbers: extractNumbers(text, dates, MAX_SLOTS).slice(0, MAX_SLOTS),
    dates,
    negations: negationCount(text, tokens),
  };
}
