import { COMMON_FIRST_NAMES } from '../lexicon/common-first-names.js';
import { FIRST_NAMES } from '../lexicon/first-names.js';
import {
  AMBIGUOUS_NAME,
  CONTRACTION_NAMES,
  DETERMINERS,
  NEVER_NAME,
  NOUN_ENDING,
  ORGANISATION_WORDS,
  PARTICLES,
  PLACE_NOUNS,
} from '../lexicon/stopwords.js';
import { SURNAMES } from '../lexicon/surnames.js';
import type { Candidate } from '../types.js';
import { guessLanguage, type Language } from '../language.js';
import { candidate } from './context.js';
import {
  GREETINGS,
  HONORIFICS,
  LABELS,
  LINKS,
  MAX_CUE_WORDS,
  PHRASES,
  ROLES,
  SIGNOFFS,
  SOFT_PHRASES,
  SPEECH_AFTER,
  SPEECH_BEFORE,
  TITLE_SUFFIX,
  TITLES,
} from './name-cues.js';

function deaccent(s: string): string {
  // Most words are plain ASCII; skip the (slow) Unicode normalisation for them.
  return /^[\x00-\x7f]*$/.test(s) ? s : s.normalize('NFD').replace(/\p{M}/gu, '');
}

// Looked up without accents too: lists spell "Emilie" where a letter says "Émilie", and vice versa.
function lexicon(joined: string): ReadonlySet<string> {
  const set = new Set<string>();
  for (const name of joined.split('|')) {
    set.add(name);
    set.add(deaccent(name));
  }
  return set;
}

const FIRST = lexicon(FIRST_NAMES);
const LAST = lexicon(SURNAMES);
const COMMON_FIRST = lexicon(COMMON_FIRST_NAMES);

export function inFirst(lower: string): boolean {
  return FIRST.has(lower) || FIRST.has(deaccent(lower));
}

export function inLast(lower: string): boolean {
  return LAST.has(lower) || LAST.has(deaccent(lower));
}

// A word's neighbours are compared as character codes: no one-character strings, no set look-up per word.
/** A digit or '_' after a word glues it to a code. */
function glueAfter(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 95;
}

/** A digit, '_', '@', '#', '/', '\\' or '=' before a word makes it part of a code, a handle or a path. */
function glueBefore(c: number): boolean {
  return glueAfter(c) || c === 64 || c === 35 || c === 47 || c === 92 || c === 61;
}

// A word: a letter, then letters, combining marks and apostrophes, in parts joined by hyphens whose every
// part opens with a letter (/\p{L}[\p{L}\p{M}'’]*(?:-\p{L}[\p{L}\p{M}'’]*)*/u). Read by hand rather than
// by that pattern: a regex call per word costs about 0.2 µs with Unicode classes (0.03 ms per KB, a
// sixteenth of the engine's budget), while ASCII characters here need two comparisons; only the rare
// non-ASCII character is tested with a regex. The pattern is greedy without a choice to take back, so the
// longest run is its match either way.
const LETTER = /^\p{L}$/u;
const LETTER_OR_MARK = /^[\p{L}\p{M}]$/u;

function asciiLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** The length of the letter (one code point) at i, or 0. */
function letterAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return asciiLetter(c) ? 1 : 0;
  if (Number.isNaN(c)) return 0;
  const width = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? 2 : 1;
  return LETTER.test(text.slice(i, i + width)) ? width : 0;
}

/** The length of the letter, mark or apostrophe (one code point) at i, or 0. */
function wordCharAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return asciiLetter(c) || c === 39 ? 1 : 0;
  if (c === 0x2019) return 1;
  if (Number.isNaN(c)) return 0;
  const width = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? 2 : 1;
  return LETTER_OR_MARK.test(text.slice(i, i + width)) ? width : 0;
}

/** The end of the word that starts with a letter at `start`. */
function wordEnd(text: string, start: number): number {
  let i = start + letterAt(text, start);
  for (;;) {
    for (let w = wordCharAt(text, i); w > 0; w = wordCharAt(text, i)) i += w;
    // A hyphen joins only when a letter follows it.
    if (text.charCodeAt(i) !== 45) return i;
    const next = letterAt(text, i + 1);
    if (next === 0) return i;
    i += 1 + next;
  }
}

export interface Word {
  start: number;
  end: number;
  text: string;
  lower: string;
  /** "Anna's": the word is the stem, and a name cannot continue after it. */
  possessive: boolean;
}

// A middle or final initial written with its dot ("Gordon S. Barrass", "Seth K.").
function isInitial(text: string, w: Word | undefined): boolean {
  return w !== undefined && w.text.length === 1 && isCapitalised(w) && text[w.end] === '.';
}

const REGNAL = /^(?:I{1,3}|IV|VI{0,3}|IX|XI{0,3}|XIV|XV|XVI{0,3})$/;

export function isCapitalised(w: Word): boolean {
  const code = w.text.charCodeAt(0);
  // Case mapping is slow on the two-byte strings that any accent or curly quote in a message makes.
  if (code < 128) return code >= 65 && code <= 90;
  const c = w.text[0]!;
  return c !== c.toLowerCase() && c === c.toUpperCase();
}

export function isAllCaps(w: Word): boolean {
  if (w.text.length < 2 || w.text === w.lower) return false;
  // A lower-case ASCII second letter settles it without upper-casing the whole word.
  const second = w.text.charCodeAt(1);
  if (second >= 97 && second <= 122) return false;
  return w.text === w.text.toUpperCase();
}

function isFirstName(lower: string): boolean {
  if (inFirst(lower)) return !AMBIGUOUS_NAME.has(lower) && !NEVER_NAME.has(lower);
  // Compound first names: every part must be a known first name ("Jean-Pierre", "Anna-Lena").
  return lower.includes('-') && lower.split('-').every(isFirstNamePart);
}

function isFirstNamePart(part: string): boolean {
  return inFirst(part) && !NEVER_NAME.has(part);
}

export function isNever(lower: string): boolean {
  // Contractions ("I'm", "it's", "don't") are never names; "O'Brien" and "d'Alembert" are.
  if ((lower.includes("'") || lower.includes('’')) && /['’](?:m|s|re|ve|ll|d|t)$/.test(lower)) return true;
  return NEVER_NAME.has(lower);
}

const ROMANCE_PARTICLES: ReadonlySet<string> = new Set([
  'de',
  'di',
  'da',
  'du',
  'del',
  'della',
  'van',
  'le',
  'la',
]);

const ARTICLE_PARTICLES: ReadonlySet<string> = new Set(['der', 'den', 'das', 'des', 'dem', 'zur']);

function isCommon(part: string): boolean {
  return COMMON_FIRST.has(part) || COMMON_FIRST.has(deaccent(part));
}

export function isCommonFirstName(lower: string): boolean {
  // "Marie-Louise", "Jean-Paul": a compound of frequent first names is as safe as one.
  return (isCommon(lower) || (lower.includes('-') && lower.split('-').every(isCommon))) && isFirstName(lower);
}

// After these a lone capitalised word is a place far more often than a person.
const PLACE_PREPOSITION =
  /(?:^|[^\p{L}])(?:in|at|near|into|à|au|en|vers|nach|in|im|bei|aus|a|in|da|verso|presso)\s$/iu;

const PERSON_LINKS: ReadonlySet<string> = new Set(
  'and und et e with mit avec con for für pour to'.split(' '),
);

const QUOTED_SPEECH: ReadonlySet<string> = new Set(
  'said says asked added wrote explains explained replied continued insisted admitted'.split(' '),
);

// Every phrase the cue loop below can find ends with the word right before the name: when that word ends
// none of them, the loop (up to four phrases built and nine look-ups each) cannot find anything.
const CUE_LAST_WORDS: ReadonlySet<string> = new Set(
  [SIGNOFFS, PHRASES, GREETINGS, SPEECH_BEFORE, TITLES, QUOTED_SPEECH, ROLES, SOFT_PHRASES, LABELS].flatMap(
    (set) => [...set].map((phrase) => phrase.slice(phrase.lastIndexOf(' ') + 1)),
  ),
);

type Cue = 'strong' | 'speech' | 'role' | 'link' | 'none';

function normalise(word: Word): string {
  return word.lower.includes('’') ? word.lower.replace(/’/g, "'") : word.lower;
}

/** Looks at the up to four words before word i; gaps between them must be plain spaces. */
function cueBefore(text: string, words: Word[], i: number): Cue {
  const w = words[i]!;
  const prev = words[i - 1];
  if (!prev) return 'none';
  const lastGap = text.slice(prev.end, w.start);
  if (lastGap.length > 40) return 'none';
  // "M. de Lanessan", "Herr von Weizsäcker": a lower-case particle between honorific and name.
  // German "von" after a title is mostly a house or a place ("König von Schweden"), so it is left out.
  if (
    lastGap === ' ' &&
    ROMANCE_PARTICLES.has(prev.text) &&
    i >= 2 &&
    cueBefore(text, words, i - 1) === 'strong'
  ) {
    return 'strong';
  }
  // Honorific: "Mr Smith", "Dr. Weber", "Sig.ra Rossi" (the dot inside "Sig.ra" splits it into two words).
  if (lastGap === ' ' || lastGap === '. ') {
    const before = words[i - 2];
    const prevNorm = normalise(prev);
    const joined =
      before && text.slice(before.end, prev.start) === '.' ? `${normalise(before)}.${prevNorm}` : '';
    // "3 fr. Deuxième course": an abbreviation after a number is a unit (francs), not "Frau".
    if (
      (HONORIFICS.has(prevNorm) || (joined !== '' && HONORIFICS.has(joined))) &&
      !/\d\s*$/.test(text.slice(Math.max(0, prev.start - 3), prev.start))
    ) {
      // A lone "M" is an honorific only with its dot ("M. Dupont"), and not the end of "p.m.".
      if (prevNorm !== 'm' || (lastGap.startsWith('.') && text[prev.start - 1] !== '.')) {
        return 'strong';
      }
    }
    if (prev.text === 'Me') return 'strong';
  }
  // A single space, by far the most common gap, needs no pattern.
  // One optional colon or comma with spaces around it. Written so that the two space runs cannot trade
  // characters (`\s*[:,]?\s*` tries every split of a long gap of spaces: quadratic).
  const phraseGap = lastGap === ' ' || /^\s*(?:[:,]\s*)?$/.test(lastGap);
  const signoffGap = lastGap !== ' ' && /^[,!.]?[ \t]*\r?\n\s*$/.test(lastGap);
  if ((phraseGap || signoffGap) && CUE_LAST_WORDS.has(normalise(prev))) {
    let phrase = '';
    for (let k = 1; k <= MAX_CUE_WORDS && i - k >= 0; k++) {
      const word = words[i - k]!;
      if (k > 1) {
        const gap = text.slice(word.end, words[i - k + 1]!.start);
        if (gap !== ' ' && gap !== ', ') break;
      }
      phrase = phrase === '' ? normalise(word) : `${normalise(word)} ${phrase}`;
      if (signoffGap && SIGNOFFS.has(phrase)) return 'strong';
      if (!phraseGap) continue;
      if (PHRASES.has(phrase)) return 'strong';
      if (GREETINGS.has(phrase) && atSentenceStart(text, word.start)) return 'strong';
      if (k <= 2 && SPEECH_BEFORE.has(phrase) && lastGap === ' ') {
        // German "…", so Hirsch: only right after a quotation or a comma; elsewhere "so" is an adverb.
        if (phrase !== 'so' || /[,"“”»«]\s*$/.test(text.slice(Math.max(0, word.start - 3), word.start))) {
          return 'speech';
        }
      }
      if (TITLES.has(phrase) && k <= 2) return 'speech';
      // English inversion right after a quotation: "…," said Nihad Awad / explains Winston.
      if (
        k === 1 &&
        QUOTED_SPEECH.has(phrase) &&
        /["”]\s*$/.test(text.slice(Math.max(0, word.start - 3), word.start))
      ) {
        return 'speech';
      }
      if (ROLES.has(phrase) || SOFT_PHRASES.has(phrase)) return 'role';
      // Form labels and mail headers need their colon: "Von: Anna", not "Von Anfang an".
      if (
        LABELS.has(phrase) &&
        lastGap.includes(':') &&
        /(?:^|\n)[ \t]*$/.test(text.slice(Math.max(0, word.start - 20), word.start))
      ) {
        return 'strong';
      }
    }
  }
  if (lastGap === ' ' && prev.text.length > 6 && TITLE_SUFFIX.test(prev.lower)) return 'speech';
  if (lastGap === ' ' && LINKS.has(normalise(prev))) return 'link';
  return 'none';
}

/** Collects the capitalised run that could form a name, starting at word i. */
function collectSpan(text: string, words: Word[], i: number): Word[] {
  const span: Word[] = [];
  for (let j = i; j < words.length && span.length < 4; j++) {
    const w = words[j]!;
    if (span.length > 0) {
      const gap = text.slice(span[span.length - 1]!.end, w.start);
      if (gap !== ' ' && gap !== '. ') break;
      if (gap === '. ' && span[span.length - 1]!.text.length !== 1) break;
    }
    const next = words[j + 1];
    // Particles may be capitalised ("Jean-Marie De Wilde", "Lorenzo De Angelis").
    const prevWord = span[span.length - 1];
    // German articles double as particles only after another particle ("van der Berg", not "Muck das Buch").
    const articleOk =
      !ARTICLE_PARTICLES.has(w.lower) || (prevWord !== undefined && PARTICLES.has(prevWord.lower));
    if (
      span.length > 0 &&
      PARTICLES.has(w.lower) &&
      articleOk &&
      next &&
      isCapitalised(next) &&
      !isNever(next.lower) &&
      // "Miss Jones de Nicole" (by Nicole): a particle before a first name starts another person.
      !(isCommonFirstName(next.lower) && !inLast(next.lower))
    ) {
      span.push(w);
      continue;
    }
    if (span.length > 0 && (isInitial(text, w) || REGNAL.test(w.text))) {
      // "Karl V.", "Ludwig XIV", "Seth K.": the name ends here unless a surname follows the initial.
      span.push(w);
      if (REGNAL.test(w.text) && w.text !== 'I') break;
      continue;
    }
    if (
      span.length === 0 &&
      isParticleStart(w) &&
      next &&
      isCapitalised(next) &&
      !isNever(next.lower) &&
      text.slice(w.end, next.start) === ' '
    ) {
      span.push(w);
      continue;
    }
    if (isCapitalised(w)) {
      if (isNever(w.lower) || (span.length > 0 && CONTRACTION_NAMES.has(w.lower))) break;
      // An all-caps word joins only other all-caps words or starts "DUPONT Marie": acronyms stay out.
      const prev = span[span.length - 1];
      if (prev && isAllCaps(w) && !isAllCaps(prev)) break;
      if (prev && w.text.length > 1 && !isAllCaps(w) && NOUN_ENDING.test(w.lower) && !inLast(w.lower)) break;
      span.push(w);
      if (w.possessive) break;
      continue;
    }
    break;
  }
  while (span.length > 0 && PARTICLES.has(span[span.length - 1]!.lower)) span.pop();
  // "James D" without a dot is more often a grade, a drive or a code than an initial.
  const tail = span[span.length - 1];
  if (span.length > 1 && tail && tail.text.length === 1 && !isInitial(text, tail)) span.pop();
  return span;
}

// "de Gaulle", "van Gogh": a particle may open a name although it is on the never-a-name list.
function isParticleStart(w: Word): boolean {
  return PARTICLES.has(w.lower) && !ARTICLE_PARTICLES.has(w.lower) && w.text.length > 1;
}

// "7 Jan 2015", "Jan-16": a lone first name next to a number is a date or a code.
function nextToNumber(text: string, first: Word, last: Word): boolean {
  return (
    /\d[\s'’.-]?$/.test(text.slice(Math.max(0, first.start - 2), first.start)) ||
    /^[\s'’.,-]{0,2}\d/.test(text.slice(last.end, last.end + 3))
  );
}

function afterPlacePreposition(text: string, w: Word): boolean {
  return PLACE_PREPOSITION.test(text.slice(Math.max(0, w.start - 8), w.start));
}

// The surroundings (numbers, prepositions) are looked at only in the branches that need them.
function scoreSpan(
  text: string,
  span: Word[],
  cue: Cue,
  sentenceStart: boolean,
  nextLower: boolean,
  personLink: boolean,
): number {
  const first = span[0]!;
  if (first.text.length === 1) return 0;
  // A capitalised particle opens a name only after a strong cue ("M. Le Bars"; not "Der Kanzler", "La Poste").
  if (PARTICLES.has(first.lower) && cue !== 'strong') return 0;
  // "Mr. President", "Frau Ministerin": a title after the honorific is not a name.
  if (cue === 'strong') {
    const title = span.length === 1 && (ROLES.has(first.lower) || TITLES.has(first.lower));
    return isCapitalised(first) && !title ? 0.9 : 0;
  }
  if (cue === 'speech') {
    if (span.length >= 2 || isFirstName(first.lower) || inLast(first.lower)) return 0.9;
    return looksLikeUnknownName(first) ? 0.8 : 0;
  }
  if (cue === 'role') {
    if (span.length >= 2 || isFirstName(first.lower) || inLast(first.lower)) return 0.9;
    return 0;
  }
  const last = span[span.length - 1]!;
  // "Rose Gibson", "Frank Ritchie": an ambiguous first word is accepted only before a known surname.
  // A German contraction that is a name too ("Im Auftrag Anna Meier", "Ans Meer") needs a cue of its own.
  if (AMBIGUOUS_NAME.has(first.lower))
    return !CONTRACTION_NAMES.has(first.lower) && span.length >= 2 && inLast(last.lower) ? 0.75 : 0;
  // "from Priya Blackwood": two capitalised words after a preposition, one of them a known name part.
  if (cue === 'link' && span.length >= 2 && !span.some(isAllCaps)) {
    // The run must begin with the name itself: "mit Hollywoodstar Sandra Bullock" starts one word later.
    const firstIsName = isFirstName(first.lower);
    const secondIsFirstName = span[1] !== undefined && isFirstName(span[1].lower) && !inLast(span[1].lower);
    if (firstIsName) return 0.8;
    if (!secondIsFirstName && !NOUN_ENDING.test(first.lower) && (inLast(first.lower) || inLast(last.lower)))
      return 0.8;
  }
  if (span.length >= 2) {
    if (isFirstName(first.lower)) return inLast(last.lower) || isFirstName(last.lower) ? 0.92 : 0.85;
    if (isAllCaps(first) && span[1] && isFirstName(span[1].lower)) return 0.85;
    if (inLast(first.lower) && isFirstName(last.lower) && !sentenceStart) return 0.7;
    return 0;
  }
  // A lone first name without a cue is the most error-prone case: only frequent names, mid-sentence, not
  // after a place preposition, and with low confidence.
  // "Naomi and Brianna", "with Anil": after a conjunction or "with / for" any known first name (not an
  // acronym), where "from / by / of" would as often introduce a place or a company.
  if (personLink && isFirstName(first.lower) && !isAllCaps(first) && !nextToNumber(text, first, last)) {
    return 0.6;
  }
  // At the start of a sentence only before a lower-case word ("James bought", "Anna hat"), where a
  // capitalised common word would rarely stand.
  if (
    isCommonFirstName(first.lower) &&
    !nextToNumber(text, first, last) &&
    (sentenceStart ? nextLower : !afterPlacePreposition(text, first))
  ) {
    return 0.6;
  }
  return 0;
}

// An unknown capitalised word is taken for a surname only when nothing marks it as a common noun.
function looksLikeUnknownName(w: Word): boolean {
  return (
    w.text.length >= 3 &&
    !isAllCaps(w) &&
    !NOUN_ENDING.test(w.lower) &&
    !ROLES.has(w.lower) &&
    !TITLES.has(w.lower)
  );
}

export function atSentenceStart(text: string, start: number): boolean {
  const before = text.slice(Math.max(0, start - 4), start);
  return start === 0 || /(?:^|[.!?:;\n"“«(]\s*|^\s*)$/.test(before) || /\n\s*$/.test(before);
}

function isOrganisationWord(w: Word): boolean {
  return isCapitalised(w) && ORGANISATION_WORDS.has(w.lower);
}

function aloneOnLine(text: string, w: Word): boolean {
  const before = text.slice(Math.max(0, w.start - 12), w.start);
  const after = text.slice(w.end, w.end + 12);
  return /(?:^|\n)[ \t>*•–—-]*$/.test(before) && /^[ \t]*[,:!.]?[ \t]*(?:\r?\n|$)/.test(after);
}

// Conjunctions inside an enumeration of people: "Sarrien et Clemenceau", "Staiger, Muschg oder Rychner".
const CONJUNCTIONS: ReadonlySet<string> = new Set([
  'und',
  'and',
  'et',
  'e',
  'oder',
  'or',
  'ou',
  'o',
  'sowie',
]);

/**
 * The word that continues an enumeration from word `from` in direction `step` (+1 right, -1 left), and
 * whether a comma (rather than a conjunction) separates them; -1 when nothing does.
 */
function listNeighbour(text: string, words: Word[], from: number, step: 1 | -1): [number, boolean] {
  const near = words[from + step];
  if (!near) return [-1, false];
  const gap =
    step === 1 ? text.slice(words[from]!.end, near.start) : text.slice(near.end, words[from]!.start);
  if (/^,\s?$/.test(gap)) return [from + step, true];
  const far = words[from + 2 * step];
  if (gap !== ' ' || !CONJUNCTIONS.has(near.text) || !far) return [-1, false];
  const gap2 = step === 1 ? text.slice(near.end, far.start) : text.slice(far.end, near.start);
  return gap2 === ' ' ? [from + 2 * step, false] : [-1, false];
}

// After a comma an unknown word is usually an apposition ("Christoph Vilanek, Vorstandsvorsitzender"), so
// only a known name part continues a list there; after "and / und / et" an unknown word may too.
function siblingOk(text: string, words: Word[], j: number, covered: Set<number>, comma: boolean): boolean {
  const w = words[j];
  if (!w || covered.has(j) || !isCapitalised(w) || isAllCaps(w) || isNever(w.lower)) return false;
  if (AMBIGUOUS_NAME.has(w.lower) || isOrganisationWord(w) || atSentenceStart(text, w.start)) return false;
  if (isFirstName(w.lower) || inLast(w.lower)) return true;
  return !comma && looksLikeUnknownName(w);
}

/**
 * A person found with confidence makes its neighbours in an enumeration people too ("MM. Sarrien et
 * Clemenceau"): one or two capitalised words after a comma or a conjunction, or one word before it.
 */
function extendLists(
  text: string,
  words: Word[],
  anchors: Array<[number, number, boolean]>,
  covered: Set<number>,
  out: Candidate[],
): void {
  const queue = [...anchors];
  for (let q = 0; q < queue.length && q < 64; q++) {
    // A weak anchor (a lone first name) vouches only for known name parts: "Craig and Nate".
    const [from, to, strong] = queue[q]!;
    const [right, rightComma] = listNeighbour(text, words, to, 1);
    if (right >= 0 && siblingOk(text, words, right, covered, rightComma || !strong)) {
      let end = right;
      const next = words[right + 1];
      if (
        next &&
        text.slice(words[right]!.end, next.start) === ' ' &&
        siblingOk(text, words, right + 1, covered, true)
      ) {
        end = right + 1;
      }
      const after = words[end + 1];
      const tail = text.slice(words[end]!.end, after ? after.start : text.length);
      // The enumeration must go on or end here: "Jolie und Pitt haben", not "Keller und Söhne AG".
      if (!after || !isCapitalised(after) || tail !== ' ') {
        out.push(
          candidate('NAME', 'PERSONAL', text, words[right]!.start, words[end]!.end, 0.75, 'name:list'),
        );
        for (let k = right; k <= end; k++) covered.add(k);
        queue.push([right, end, strong]);
      }
    }
    const [left, leftComma] = listNeighbour(text, words, from, -1);
    const beforeLeft = words[left - 1];
    if (
      left >= 0 &&
      siblingOk(text, words, left, covered, leftComma || !strong) &&
      !(beforeLeft && text.slice(beforeLeft.end, words[left]!.start) === ' ' && isCapitalised(beforeLeft)) &&
      !(beforeLeft && DETERMINERS.has(beforeLeft.lower))
    ) {
      out.push(candidate('NAME', 'PERSONAL', text, words[left]!.start, words[left]!.end, 0.75, 'name:list'));
      covered.add(left);
      queue.push([left, left, strong]);
    }
  }
}

/** The width of the letter (one code point) ending just before `k`, or 0. */
function letterBefore(text: string, k: number): number {
  const c = text.charCodeAt(k - 1);
  if (c >= 0xdc00 && c <= 0xdfff && k >= 2) {
    const h = text.charCodeAt(k - 2);
    if (h >= 0xd800 && h <= 0xdbff) return LETTER.test(text.slice(k - 2, k)) ? 2 : 0;
  }
  if (c >= 0xd800 && c <= 0xdbff) return 0;
  return letterAt(text, k - 1) === 1 ? 1 : 0;
}

/** A word character as `\b` of a /u pattern sees it: ASCII letters, digits and '_' only. */
function asciiWord(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/**
 * "first.last@" before each '@': the two letter runs of a local part `first[._-]last@`, each of three
 * letters or more, the first starting at a word boundary (as the pattern /\b(\p{L}{3,})[._-](\p{L}{3,})@/u
 * read them, leftmost start). Found by walking back from each '@' over the text since the last space or '@':
 * the last letter run (the last name) must follow a separator, the first name is the letter run before it,
 * starting at its first word boundary with three letters to go. That pattern, run on the text since the last
 * space, was tried from every word boundary of a long letter run and scanned it to its end each time:
 * quadratic (40,000 characters of "AAª" before one "0ªAª_AAA@" took 4 s in one request). Each character is
 * now read at most twice.
 */
export function mailLocalParts(text: string): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  if (!text.includes('@')) return found;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32) start = i + 1;
    else if (c === 64) {
      const parts = localPartAt(text, start, i);
      if (parts) found.push(parts);
      start = i + 1;
    }
  }
  return found;
}

/** Where the run of letters ending at `end` starts (not before `start`), and how many letters it holds. */
function lettersBack(text: string, start: number, end: number): [number, number] {
  let k = end;
  let letters = 0;
  while (k > start) {
    const w = letterBefore(text, k);
    if (w === 0) break;
    k -= w;
    letters++;
  }
  return [k, letters];
}

/** The two names of the local part ending at the '@' at `at` (text since `start`), or null. */
function localPartAt(text: string, start: number, at: number): [string, string] | null {
  const [k, last] = lettersBack(text, start, at);
  if (last < 3 || k - 1 < start) return null;
  const sep = text.charCodeAt(k - 1);
  if (sep !== 46 && sep !== 95 && sep !== 45) return null;
  const sepAt = k - 1;
  const [a, letters] = lettersBack(text, start, sepAt);
  let firstLetters = letters;
  // The leftmost word boundary in the first run with three letters or more after it. Before `a` is a
  // non-letter (or the start of the text since the last space/'@', both non-word characters).
  let prevWord = a > 0 && asciiWord(text.charCodeAt(a - 1));
  for (let p = a; firstLetters >= 3; ) {
    const c = text.charCodeAt(p);
    const word = asciiWord(c);
    if (word !== prevWord) return [text.slice(p, sepAt), text.slice(k, at)];
    prevWord = word;
    p += c >= 0xd800 && c <= 0xdbff && p + 1 < sepAt ? 2 : 1;
    firstLetters--;
  }
  return null;
}

const APOSTROPHES: ReadonlySet<number> = new Set([39, 0x2019]);

// Most words are lower-case ASCII already: they are their own lower case. toLowerCase would copy them when
// the message holds any accent or curly quote (its words are then two-byte strings, which V8 lower-cases
// on a slow path).
function lowerCased(word: string): string {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c >= 128 || (c >= 65 && c <= 90)) return word.toLowerCase();
  }
  return word;
}

/** The words of a text as the name detectors read them (possessive endings cut off). */
export function nameWords(text: string): Word[] {
  const words: Word[] = [];
  for (let at = 0; at < text.length; ) {
    const width = letterAt(text, at);
    if (width === 0) {
      at++;
      continue;
    }
    const index = at;
    at = wordEnd(text, index);
    // Letters glued to digits ("XK0NA", "B2") belong to codes, not to names.
    // Handles, hashtags and URL paths ("@IzzieZac", "#Job", "/Edward-100-year") are not running text.
    if (glueBefore(text.charCodeAt(index - 1)) || glueAfter(text.charCodeAt(at))) continue;
    let word = text.slice(index, at);
    // "Anna's", "Keller’s": the possessive ending is not part of the name (contractions stay whole: "It's").
    // (The apostrophe is compared first: the Unicode pattern cost 0.2 µs on every plural.)
    const possessive =
      word.length > 3 &&
      word.endsWith('s') &&
      APOSTROPHES.has(word.charCodeAt(word.length - 2)) &&
      /^\p{Lu}.+['’]s$/u.test(word) &&
      !isNever(word.slice(0, -2).toLowerCase());
    if (possessive) word = word.slice(0, -2);
    words.push({
      start: index,
      end: index + word.length,
      text: word,
      lower: lowerCased(word),
      possessive,
    });
  }
  return words;
}

/** The rule-based name finder: cues, lexicons, enumerations, propagation. Its findings feed the name model. */
export function detectNameRules(text: string, words: Word[] = nameWords(text)): Candidate[] {
  const out: Candidate[] = [];
  const known = new Map<string, number>();
  const covered = new Set<number>();
  const anchors: Array<[number, number, boolean]> = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (!isCapitalised(w) || (isNever(w.lower) && !isParticleStart(w))) continue;
    let span = collectSpan(text, words, i);
    if (span.length === 0) continue;
    let cue = cueBefore(text, words, i);
    // Without a cue, words after the second must be known name parts ("Is Hank Green Awesome?").
    if (cue === 'none' && span.length > 2) {
      let keep = 2;
      while (
        keep < span.length &&
        (inLast(span[keep]!.lower) ||
          isFirstName(span[keep]!.lower) ||
          PARTICLES.has(span[keep]!.lower) ||
          isInitial(text, span[keep]) ||
          isInitial(text, span[keep - 1]) ||
          PARTICLES.has(span[keep - 1]!.lower) ||
          REGNAL.test(span[keep]!.text))
      )
        keep++;
      span = span.slice(0, keep);
      while (span.length > 0 && PARTICLES.has(span[span.length - 1]!.lower)) span.pop();
      if (span.length === 0) continue;
    }
    const sentenceStart = atSentenceStart(text, w.start);
    const last = span[span.length - 1]!;
    const after = words[i + span.length];
    // "Keller said", "Dupont a dit": a reporting verb after the run vouches for it; mid-sentence even for an
    // unknown surname ("…, Dobrindt said"), at the start of a sentence only for a known name part.
    if (
      (cue === 'none' || cue === 'link') &&
      after &&
      text.slice(last.end, after.start) === ' ' &&
      SPEECH_AFTER.has(normalise(after))
    ) {
      // An unknown word vouched for only by the verb after it must follow punctuation or "wie / as": after a
      // preposition it is a noun ("für Tiere erklärt", "als Sieger erklärte").
      const opened = /(?:[,;:"“”»«(–—-]|\b(?:wie|as|comme|come))\s*$/.test(
        text.slice(Math.max(0, w.start - 8), w.start),
      );
      // Right after the closing quote of a quotation ("…," Kistler told) is no sentence start.
      const quoted = /[,!?]\s*["”»]\s*$/.test(text.slice(Math.max(0, w.start - 4), w.start));
      cue = (sentenceStart && !quoted) || !opened ? 'role' : 'speech';
    }
    // "the Minister said", "die Polizei sagte", "du Maire": after an article a lone word is a common noun;
    // "place Jean Macé", "rue Victor Hugo", "San Marco": after a place noun it is a place.
    const prev = words[i - 1];
    const prevGap = prev ? text.slice(prev.end, w.start) : '';
    let refused = false;
    if (prev && cue !== 'strong' && (prevGap === ' ' || prevGap === "' " || prevGap === '’ ')) {
      if (span.length === 1 && DETERMINERS.has(prev.lower)) refused = true;
      if (PLACE_NOUNS.has(prev.lower)) refused = true;
    }
    // "James bought", "Richard, below is the list": a lower-case word follows.
    const nextGap = after ? text.slice(last.end, after.start) : '';
    const nextLower = after !== undefined && (nextGap === ' ' || nextGap === ', ') && !isCapitalised(after);
    const personLink = cue === 'link' && prev !== undefined && PERSON_LINKS.has(prev.lower);
    let conf = scoreSpan(text, span, cue, sentenceStart, nextLower, personLink);
    // "DUPONT" alone after a cue is fine, but an all-caps run without any cue is usually a heading.
    if (cue === 'none' && span.every(isAllCaps) && span.length < 2) conf = 0;
    // A first name alone on its line is a signature or the salutation of a mail ("Vince", "Daren,").
    if (conf === 0 && cue === 'none' && span.length === 1 && isFirstName(w.lower) && aloneOnLine(text, w)) {
      conf = 0.7;
    }
    // "Kennedy Space Center", "Norman High School", "Wanda Group": a place or organisation, not a person.
    if (span.some(isOrganisationWord) || (after && isOrganisationWord(after))) conf = 0;
    if (refused) conf = 0;
    if (conf === 0) continue;
    // The dot of a final initial or ordinal belongs to the name ("Seth K.", "Karl V.").
    const dotted =
      span.length > 1 && (last.text.length === 1 || REGNAL.test(last.text)) && text[last.end] === '.';
    out.push(candidate('NAME', 'PERSONAL', text, w.start, dotted ? last.end + 1 : last.end, conf, 'name'));
    for (let k = i; k < i + span.length; k++) covered.add(k);
    anchors.push([i, i + span.length - 1, conf >= 0.75]);
    if (span.length >= 2 || cue === 'strong') {
      for (const part of span) {
        if (part.text.length >= 3 && !PARTICLES.has(part.lower)) known.set(part.text, conf);
      }
    }
    i += span.length - 1;
  }
  extendLists(text, words, anchors, covered, out);
  // E-mail local parts such as "sandra.keller@" announce the person's name elsewhere in the text.
  for (const [first, last] of mailLocalParts(text)) {
    const [a, b] = [first.toLowerCase(), last.toLowerCase()];
    if (isFirstName(a) || isFirstName(b)) {
      for (const p of [a, b]) {
        if (!isNever(p)) known.set(p[0]!.toUpperCase() + p.slice(1), 0.8);
      }
    }
  }
  if (known.size > 0) {
    // Propagation: a surname seen in a full name is the same person when it reappears alone.
    for (let i = 0; i < words.length; i++) {
      if (covered.has(i)) continue;
      const w = words[i]!;
      if (!known.has(w.text)) continue;
      let end = w.end;
      const next = words[i + 1];
      if (next && !covered.has(i + 1) && known.has(next.text) && text.slice(w.end, next.start) === ' ') {
        end = next.end;
        i++;
      }
      out.push(candidate('NAME', 'PERSONAL', text, w.start, end, 0.8, 'name:propagated'));
    }
  }
  return out;
}

// Frequent first names that are as often ordinary lower-case words: Italian "ben fatto", "felice", "franco",
// "gaia", "grazia", "franca", "otto" (eight), "mia" (my: "mia madre" takes no article); French "lien",
// "marin", "fleur", "lila"; English "carol", "eve", "olive", "poppy", "robin", "willow", "violet", "teddy",
// "terry", "beat", "mike", "ute", and colours before a surname that is a colour too ("jade green", "heather
// grey", "hazel brown"); German "kai"; "alma", "tara", "sienna", "rosemary". (The ambiguous list, "will",
// "may", "mark", "rose", "grant"…, is refused already.)
const LOWER_CASE_WORDS: ReadonlySet<string> = new Set(
  (
    'ben felice franco franca gaia grazia otto mia lien marin fleur lila carol eve olive poppy robin willow ' +
    'violet teddy terry beat mike ute jade heather hazel rosemary kai alma tara sienna'
  ).split(' '),
);

// Before a lower-case pair, the articles and possessives that DETERMINERS leaves out (it serves capitalised
// runs, where "an" or "mon" rarely stand): "mon jean", "meine marie". Not "a": in French and Italian it is
// "to" ("scrivi a luca romano").
const LOWER_CASE_DETERMINERS: ReadonlySet<string> = new Set(
  (
    'an some any no every each mon ma mes ton ta tes notre votre nos vos mein meine meinen dein deine ' +
    'mio mia miei mie tuo tua nostro nostra vostro vostra'
  ).split(' '),
);

// Surnames of the lexicon that are as often a verb or a common word right after a first name, each in the
// language it is common in: English and German "martin sang", "john sat down", Italian "luca mai" (never).
// Written whole, verbs and adverbs that follow a subject, so that a surname added to the lexicon later is
// refused here too when it is one of them.
const LOWER_CASE_AFTER_FIRST: Record<Language, ReadonlySet<string>> = {
  en: wordSet(
    'sang sings rang rings ran runs won wins saw sees sat sits met meets led leads got gets let lets hid dug ' +
      'hung shot swam drank drove rode rose spoke stood threw wore woke wept paid laid cried lied tried died ' +
      'asked calls called plays played works worked lives lived loves loved likes liked wants wanted needs ' +
      'needed says said told tells went goes came comes left leaves took takes gave gives made makes knew ' +
      'knows thought thinks felt feels kept keeps brought buys bought sold sent sends wrote writes read reads ' +
      'spent fell falls grew grows drew draws flew flies fought ate eats slept sleeps cooked cooks hunted ' +
      'moved moves waits waited walks walked talks talked smiled laughed danced dances jumped jumps also ' +
      'again later today here there too then now soon still just never always often',
  ),
  fr: wordSet(
    'est était sera avait aura dit disait fait faisait part partait vient venait allait chante chantait ' +
      'parle parlait arrive arrivait mange mangeait danse dansait joue jouait court courait rit riait pleure ' +
      'pense sait savait veut voulait peut pouvait doit aime aimait aussi encore ici demain hier toujours ' +
      'jamais souvent déjà',
  ),
  de: wordSet(
    'sang singt ist war hat hatte wird wurde kam kommt ging geht sagt sagte spielt spielte ruft rief lacht ' +
      'lachte tanzt tanzte arbeitet arbeitete wohnt wohnte kauft kaufte schreibt schrieb liest las isst aß ' +
      'trinkt trank fährt fuhr läuft lief schläft schlief weiß wusste will wollte kann konnte muss musste ' +
      'auch noch hier heute morgen gestern immer nie oft schon',
  ),
  it: wordSet(
    'canta cantava era aveva sarà dice diceva faceva parte partiva viene veniva andava parla parlava ' +
      'arriva arrivava mangia mangiava balla ballava gioca giocava corre correva ride rideva piange pensa ' +
      'sapeva vuole voleva può poteva deve doveva ama amava anche ancora qui oggi domani ieri sempre mai ' +
      'spesso già',
  ),
};
const AFTER_FIRST_ANY: ReadonlySet<string> = new Set(
  Object.values(LOWER_CASE_AFTER_FIRST).flatMap((set) => [...set]),
);

/** Whether `lower` is a verb or common word after a first name in the text's language (any, if unknown). */
function wordAfterFirst(text: string, lower: string): boolean {
  if (!AFTER_FIRST_ANY.has(lower)) return false;
  const language = guessLanguage(text);
  return language === null || LOWER_CASE_AFTER_FIRST[language].has(lower);
}

function wordSet(list: string): ReadonlySet<string> {
  return new Set(list.split(' '));
}

/**
 * Names written without capitals, as chat users type them ("i met jean dupont yesterday", "frag mal stefan
 * meier"). Without the capital, the rules above see nothing; a lower-case pair is taken only when everything
 * else agrees: a frequent first name (never an ambiguous or lower-case word) and a known surname of three
 * letters or more, one space apart, no determiner or place noun before ("la pierre", "via franco"), no
 * organisation word after, no number beside, neither word glued to a code. Designed on the dev half of
 * eval/dlp/lowercase-names.ts; its figures are in docs/dlp.md.
 */
export function detectLowerCaseNames(text: string, words: Word[] = nameWords(text)): Candidate[] {
  const out: Candidate[] = [];
  for (let i = 0; i + 1 < words.length; i++) {
    const first = words[i]!;
    const last = words[i + 1]!;
    if (first.text !== first.lower || last.text !== last.lower || first.possessive) continue;
    if (text.slice(first.end, last.start) !== ' ' || last.text.length < 3) continue;
    if (!isCommonFirstName(first.lower) || LOWER_CASE_WORDS.has(first.lower)) continue;
    if (!inLast(last.lower) || isNever(last.lower) || PARTICLES.has(last.lower)) continue;
    const prev = words[i - 1];
    if (prev && text.slice(prev.end, first.start).trim() === '') {
      if (
        DETERMINERS.has(prev.lower) ||
        LOWER_CASE_DETERMINERS.has(prev.lower) ||
        PLACE_NOUNS.has(prev.lower)
      )
        continue;
      // "dean martin sang": the word before is a first name this rule refused (ambiguous or a common
      // word), so the name starts there and the pair after it would be shifted right onto the next word.
      // Three lower-case words are no safer a name than two: none is taken.
      const refused = AMBIGUOUS_NAME.has(prev.lower) || LOWER_CASE_WORDS.has(prev.lower);
      if (
        prev.text === prev.lower &&
        text.slice(prev.end, first.start) === ' ' &&
        inFirst(prev.lower) &&
        refused
      )
        continue;
    }
    if (wordAfterFirst(text, last.lower)) continue;
    const after = words[i + 2];
    if (after && ORGANISATION_WORDS.has(after.lower) && text.slice(last.end, after.start) === ' ') continue;
    if (nextToNumber(text, first, last)) continue;
    out.push(candidate('NAME', 'PERSONAL', text, first.start, last.end, 0.7, 'name:lower-case'));
    i++;
  }
  return out;
}
