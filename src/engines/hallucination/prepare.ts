import { type DateMention, extractDates } from './dates.js';
import { extractNumbers, type NumberMention } from './numbers.js';
import { negationCount } from './polarity.js';
import { DIMENSION_WORDS, NUMBER_WORDS, UNITS } from './lexicon.js';
import { isSlotWord } from './slot-words.js';
import { splitClauses } from './split.js';
import { canonical, numberTerms } from './terms.js';
import { fold, isStopword, stem, type Token, tokenize } from './text.js';

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

// German separable particles: "fängt … an" is "anfangen", "leiht … aus" is "ausleihen".
const PARTICLES = new Set(
  'an ab auf aus bei ein fest fort her hin los mit nach vor weg zu zuruck teil statt dar vorbei zusammen heraus hinaus'.split(
    ' ',
  ),
);
// Function words only German has, one of which a German clause almost always holds.
const GERMAN_MARKERS = new Set(
  'der das den dem des einen einem einer im am zum zur ist sind wird wurde hat haben und nicht auch sich noch schon jedes jeden jede seit man'.split(
    ' ',
  ),
);
/** Tokens looked at before a particle for its verb: a main clause's middle field is rarely longer. */
const PARTICLE_REACH = 12;

/**
 * German separable verbs: a particle that ends its clause ("Der Kurs fängt im März an.") joins the clause's
 * first lower-case content word, its finite verb, as one word ("anfangt"), which matches "anfangen" and
 * "angefangen" by prefix, as the stem of an unseparated verb does. Without it "fängt" and "anfangen" never
 * matched and the particle was a stopword. Returns the verb's token index → joined token; the particles
 * themselves are left out of the words. Each particle looks back a bounded number of tokens (linear).
 */
function separableVerbs(
  text: string,
  tokens: readonly Token[],
): { joined: Map<number, Token>; particles: Set<number> } {
  const joined = new Map<number, Token>();
  const particles = new Set<number>();
  for (let p = 1; p < tokens.length; p++) {
    const part = tokens[p]!;
    if (part.capital || !PARTICLES.has(part.norm)) continue;
    // The clause ends after it: punctuation, the end, or a conjunction ("fängt im März an und dauert …").
    const after = text.slice(part.start + part.raw.length, part.start + part.raw.length + 10);
    if (!/^\s*(?:[.,;:!?)]|$)|^\s+(?:und|oder|aber|sondern)\s/.test(after)) continue;
    let from = p;
    while (from > 0 && p - from < PARTICLE_REACH) {
      const gap = text.slice(tokens[from - 1]!.start + tokens[from - 1]!.raw.length, tokens[from]!.start);
      if (/[.,;:!?]/.test(gap)) break;
      from--;
    }
    // Only in a German clause: "her", "an" or "mit" end English and French sentences too ("… to her.").
    let german = false;
    for (let k = from; k < p && !german; k++) german = GERMAN_MARKERS.has(tokens[k]!.norm);
    if (!german) continue;
    for (let v = from; v < p; v++) {
      const t = tokens[v]!;
      if (t.capital || t.norm.length < 3 || /\d/.test(t.norm) || isStopword(t.norm) || joined.has(v))
        continue;
      const norm = part.norm + t.norm;
      joined.set(v, { ...t, norm, stem: stem(norm) });
      particles.add(p);
      break;
    }
  }
  return { joined, particles };
}

/**
 * Light verbs: in "made a decision", "gave a speech", "a pris une décision" the noun carries the meaning,
 * and the verb, which adds little, is what another wording leaves out ("decided", "spoke", "a décidé").
 * Such a verb no source uses weighed as much as a rare invented word. Only before an indefinite article and a lower-case
 * word: "made cars" (manufactured) keeps its verb.
 */
const LIGHT_VERBS = new Set(
  [
    'make makes made making take takes took taken taking give gives gave given giving',
    'carry carries carried conduct conducts conducted perform performs performed undergo undergoes',
    'underwent undergone pay pays paid',
    'faire fais font faisait fit firent prend prennent prendre prenait prit pris prise donne donnent',
    'donner donnait donna donné donnée effectue effectuent effectuer effectua effectué effectuée',
    'mène mènent mener mena mené menée procède procéder procéda procédé',
  ]
    .join(' ')
    .split(' ')
    .map(fold),
);
const INDEFINITE = new Set(['a', 'an', 'un', 'une']);

function lightVerb(tokens: readonly Token[], i: number): boolean {
  if (!LIGHT_VERBS.has(tokens[i]!.norm) || !INDEFINITE.has(tokens[i + 1]?.norm ?? '')) return false;
  const noun = tokens[i + 2];
  return noun !== undefined && !noun.capital && !isStopword(noun.norm) && !/\d/.test(noun.norm);
}

export function prepare(text: string): Prepared {
  const tokens = tokenize(text);
  const words: string[] = [];
  const capitalised = new Set<string>();
  const dimensions: string[] = [];
  const separable = separableVerbs(text, tokens);
  for (let i = 0; i < tokens.length; i++) {
    const t = separable.joined.get(i) ?? tokens[i]!;
    if (separable.particles.has(i)) continue;
    if (isStopword(t.norm) || t.norm.length <= 1 || isSlotWord(t.norm)) continue;
    if (lightVerb(tokens, i)) continue;
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
