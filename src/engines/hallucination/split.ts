import { MONTHS } from './lexicon.js';
import { isSpaceCode, trimEndWhere } from '../text.js';
import { fold, isStopword, tokenize } from './text.js';

export interface Span {
  text: string;
  start: number;
}

// Words whose trailing period is not a sentence end.
const ABBREVIATIONS = new Set(
  'mr mrs ms dr prof st inc ltd co corp jr sr vs etc eg ie approx fig no nr mio mrd min max ca bzw zb usw vgl mme mlle m av apr jan feb mar aug sept oct nov dec dez janv févr juil env resp dept gen gov sen rep'.split(
    ' ',
  ),
);

/**
 * The longest sentence the checker reads as one: a longer run is cut at its last space before the limit.
 * Real sentences are far shorter; without the cut, one unpunctuated megabyte was a single "sentence" whose
 * numbers and words were compared pairwise with every other (quadratic, #15). With it, the work per sentence
 * is bounded and a check is linear in its input.
 */
export const MAX_SENTENCE_CHARS = 1_000;

function pushBounded(out: Span[], t: string, start: number): void {
  let from = 0;
  while (t.length - from > MAX_SENTENCE_CHARS) {
    // Back to a space in the second half only (a lastIndexOf would walk back to the start of a spaceless run).
    let cut = from + MAX_SENTENCE_CHARS;
    while (cut > from + MAX_SENTENCE_CHARS / 2 && t.charCodeAt(cut) !== 32) cut--;
    if (t.charCodeAt(cut) !== 32) cut = from + MAX_SENTENCE_CHARS;
    const piece = t.slice(from, cut).trim();
    if (piece.length > 0) out.push({ text: piece, start: start + from });
    from = cut;
    while (from < t.length && t.charCodeAt(from) === 32) from++;
  }
  const rest = t.slice(from).trim();
  if (rest.length > 0) out.push({ text: rest, start: start + from });
}

/** Sentences with their offsets. Periods after abbreviations, initials and German ordinals ("3. März") do not end one. */
export function splitSentences(text: string): Span[] {
  const out: Span[] = [];
  let start = 0;
  const push = (end: number) => {
    const raw = text.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const t = raw.trim();
    if (t.length > 0) pushBounded(out, t, start + lead);
  };
  // The look-behind starts a match only at the first mark of a run: on a run of '.' without a space the
  // expression otherwise retried from every dot to the end of the run (quadratic, #15).
  const re = /(?<![.!?…])([.!?…]+)["'»”)]*(\s+)|\n\s*\n|\n(?=\s*[-*•\d])/g;
  for (const m of text.matchAll(re)) {
    const idx = m.index ?? 0;
    const end = idx + m[0].length;
    if (m[1]) {
      const before = text.slice(Math.max(0, idx - 12), idx);
      const prevWord = /([\p{L}\d.]+)$/u.exec(before)?.[1] ?? '';
      const next = text.slice(end, end + 20);
      const nextWord = /^[\p{L}\d]+/u.exec(next)?.[0] ?? '';
      if (m[1] === '.') {
        const pw = fold(prevWord.replace(/\./g, ''));
        if (ABBREVIATIONS.has(pw)) continue;
        if (/^\p{Lu}$/u.test(prevWord)) continue;
        if (/^\d{1,2}$/.test(prevWord) && (MONTHS.has(fold(nextWord)) || /^\p{Ll}/u.test(nextWord))) continue;
        if (/^\p{Ll}/u.test(nextWord)) continue;
      }
    }
    push(idx + (m[1]?.length ?? 0));
    start = end;
  }
  push(text.length);
  return out;
}

const RELATIVE =
  /,\s+(which|who|whose|where|qui|où|dont|lequel|laquelle|lesquels|der|die|das|welche|welcher|welches|wo)\s+([^,;]+?)\s*(?:,|(?=;|$))/giu;
// A match starts at a comma or at the first white space of a run (not after a comma or another space):
// the leftmost match of `,?\s+…` always starts there, and `\s+` tried from inside a long run of spaces
// that no conjunction follows read the run again from every space (quadratic).
const CONJUNCTION =
  /(?:,|(?<![\s,]))\s+(?:and|but|while|whereas|yet|et|mais|tandis que|alors que|cependant|und|aber|während|sondern|jedoch|as well as|ainsi que|sowie)\s+/giu;

const contentCount = (s: string): number => tokenize(s).filter((t) => !isStopword(t.norm)).length;
const wordCount = (s: string): number => s.split(/\s+/).filter(Boolean).length;

const END_MARKS = new Set([46, 33, 63, 59, 58, 44]);

/**
 * The clause without trailing white space and punctuation. Loops, not `[\s.!?;:,]+$`: a pattern ending in a
 * run and `$` is retried from every character of a long run that stops before the end (quadratic).
 */
export function stripEnd(s: string): string {
  return trimEndWhere(s, (c) => isSpaceCode(c) || END_MARKS.has(c)).trim();
}

/** `s.replace(/\s+,/g, ',')` in one pass: white space before a comma dropped (the pattern was quadratic). */
export function dropSpaceBeforeComma(s: string): string {
  if (!s.includes(',')) return s;
  let out = '';
  let i = 0;
  while (i < s.length) {
    if (!isSpaceCode(s.charCodeAt(i))) {
      out += s.charAt(i++);
      continue;
    }
    let j = i;
    while (j < s.length && isSpaceCode(s.charCodeAt(j))) j++;
    if (s.charCodeAt(j) !== 44) out += s.slice(i, j);
    i = j;
  }
  return out;
}

/** Relative clauses become their own sub-claims, with the antecedent as subject. */
function splitRelative(clause: string): string[] {
  const rel: string[] = [];
  const main = clause.replace(RELATIVE, (full, _pron: string, body: string, offset: number) => {
    const before = clause.slice(0, offset).split(/\s+/).filter(Boolean);
    const antecedent = before.slice(-3).join(' ');
    if (contentCount(body) < 1) return full;
    rel.push(`${antecedent} ${body}`);
    return '';
  });
  return [main, ...rel];
}

// Words that open a clause with its own subject; any other lower-case opening is a verb phrase ("… and sold").
const SUBJECT_OPENERS = new Set(
  'the a an this that these those it he she they we i there its his her their le la les l un une ce cette ces il elle ils elles on nous je son sa ses leur der die das den dem des ein eine einen er sie es wir man sein seine ihr ihre dies diese dieser'.split(
    ' ',
  ),
);

// Auxiliaries and modals: the subject of a clause ends right before the first of them.
const AUXILIARIES = new Set(
  'is are was were has have had will would can could may might must does did do be been est sont était étaient a ont avait avaient sera seront fut peut doit ist sind war waren wird werden wurde wurden hat haben hatte hatten kann können muss soll'.split(
    ' ',
  ),
);

/**
 * The subject of a clause: up to its first comma, else the words before its first auxiliary or English
 * past-tense verb, else up to its last capitalised word among the first six (before any number).
 */
function subjectOf(clause: string, nested = false): string {
  const words = clause.split(/\s+/).filter(Boolean);
  const firstComma = words.findIndex((w) => w.endsWith(','));
  if (firstComma >= 0 && firstComma < 4) {
    // One level only: a run of short comma pieces must not be re-read once per comma (linear, #15).
    const intro = words.slice(0, firstComma + 1).join(' ');
    // "Chaque samedi, l'atelier prête …": a phrase of time or place before the comma is no subject; the
    // subject follows it, and the phrase stays in front (it is part of what the second clause says too).
    if (!nested && (INTRO_OPENERS.has(fold(words[0]!)) || /(?:^|\s)\d/.test(intro))) {
      const rest = subjectOf(words.slice(firstComma + 1, firstComma + 12).join(' '), true);
      return rest ? `${intro} ${rest}` : '';
    }
    return intro.replace(/,$/, '');
  }
  const verb = words.findIndex(
    (w, i) => i > 0 && (AUXILIARIES.has(w.toLowerCase()) || /^\p{Ll}+ed$/u.test(w)),
  );
  if (verb > 0 && verb <= 6) return words.slice(0, verb).join(' ');
  // Otherwise the leading noun phrase: determiners, then a run of capitalised words (with name particles
  // such as "of" or "von" inside it); it ends at the first other word, so an object like "the North Sea"
  // never becomes part of the subject.
  let i = 0;
  while (i < words.length && i < 3 && SUBJECT_OPENERS.has(fold(words[i]!))) i++;
  const determiners = i;
  let last = -1;
  for (; i < Math.min(8, words.length); i++) {
    const w = words[i]!;
    // An elided article carries its noun ("l'atelier"): a subject as much as a capitalised one.
    if (/^\p{Lu}/u.test(w) || (i === determiners && ELIDED.test(w))) last = i;
    else if (!(last >= 0 && NAME_PARTICLES.has(w) && /^\p{Lu}/u.test(words[i + 1] ?? ''))) break;
  }
  if (last >= 0) return words.slice(0, last + 1).join(' ');
  // "Le club prête des outils et organise des cours": a determiner and a common noun (English and French
  // do not capitalise it) are the subject; without them the second clause lost its subject altogether.
  if (determiners > 0 && determiners < words.length && /^\p{Ll}/u.test(words[determiners]!))
    return words.slice(0, determiners + 1).join(' ');
  return '';
}

const ELIDED = /^[ldLD]['’]\p{L}/u;

// Words that open a phrase of time, place or manner rather than a subject, before a comma.
const INTRO_OPENERS = new Set(
  'chaque depuis en au aux à dans pendant après avant selon lors every each in on at since after before during for from seit im am nach vor während jeden jede jedes in an bei laut ab'
    .split(' ')
    .map(fold),
);

const NAME_PARTICLES = new Set([
  'of',
  'de',
  'du',
  'des',
  'la',
  'le',
  'von',
  'van',
  'der',
  'den',
  'di',
  'da',
  'del',
]);

/** A verb phrase split off by coordination gets the subject of the first clause back. */
function withSubject(part: string, subject: string): string {
  const first = /^[\p{L}']+/u.exec(part)?.[0] ?? '';
  if (!subject || !first || /^\p{Lu}/u.test(first) || SUBJECT_OPENERS.has(fold(first))) return part;
  return `${subject} ${part}`;
}

// German finite auxiliaries and modals: they open a clause bracket that a participle or infinitive at the
// end closes ("hat … eröffnet", "kann … ausleihen"). Only forms that are not English words too.
const GERMAN_FINITE = new Set(
  'ist sind waren wird werden wurde wurden hat haben hatte hatten kann können konnte konnten muss müssen musste soll sollen sollte darf dürfen durfte möchte möchten'.split(
    ' ',
  ),
);
// Separable particles end a German clause too ("stellt … her"), but they close no auxiliary's bracket.
const PARTICLES = new Set(
  'an ab auf aus bei ein fest her hin los mit nach vor weg zu zurück statt teil dar fort'.split(' '),
);
const GERMAN_PRONOUNS = new Set('man er sie es wir ich ihr'.split(' '));

const LETTER = /\p{L}/u;

/** The last word of s, read from its end (an end-anchored expression retried from every start: quadratic). */
function lastWord(s: string): string {
  let e = s.length;
  while (e > 0 && !LETTER.test(s[e - 1]!)) e--;
  let b = e;
  while (b > 0 && LETTER.test(s[b - 1]!)) b--;
  return s.slice(b, e);
}

/** A German participle or infinitive closing a clause: lower case, -en/-n/-t, not a separable particle. */
function closesBracket(s: string): boolean {
  const w = lastWord(s);
  return w.length >= 5 && /^\p{Ll}+(?:en|n|t)$/u.test(w) && !PARTICLES.has(w);
}

/**
 * The words of a German clause up to its finite auxiliary (words[aux]), and the subject right after it
 * when one follows ("Im Verein kann man", "Heute hat die Firma"): the frame a coordinated verb-final part
 * shares. Null when none of its second to seventh words is a finite auxiliary.
 */
function germanFrame(clause: string): { words: string[]; aux: number } | null {
  const words = clause.split(/\s+/).filter(Boolean);
  const aux = words.findIndex((w, i) => i > 0 && i <= 6 && GERMAN_FINITE.has(w.toLowerCase()));
  if (aux < 0) return null;
  let end = aux + 1;
  const after = words[end]?.toLowerCase() ?? '';
  if (GERMAN_PRONOUNS.has(after)) end++;
  else if (GERMAN_ARTICLES.has(after) && /^\p{Lu}/u.test(words[end + 1] ?? '')) end += 2;
  return { words: words.slice(0, end), aux };
}

const GERMAN_ARTICLES = new Set('der die das ein eine'.split(' '));

/** Whether `right`, coordinated after `left`, is a verb-final part sharing left's German auxiliary. */
function sharesGermanAux(left: string, right: string): boolean {
  return (
    closesBracket(right) &&
    germanFrame(left) !== null &&
    !right.split(/\s+/).some((w) => GERMAN_FINITE.has(w.toLowerCase()))
  );
}

/** Coordinated clauses split; short right-hand sides are list items and keep the left-hand prefix. */
function splitCoordination(clause: string): string[] {
  const parts = splitCoordinationRaw(clause);
  if (parts.length < 2) return parts;
  const subject = subjectOf(parts[0]!);
  return [
    parts[0]!,
    ...parts.slice(1).map((p) => {
      // "Die Firma hat 2011 einen Standort eröffnet und 300 Leute eingestellt": the second part needs the
      // subject and the auxiliary back, or its participle states nothing about anyone.
      if (sharesGermanAux(parts[0]!, p)) return `${germanFrame(parts[0]!)!.words.join(' ')} ${p}`;
      return withSubject(p, subject);
    }),
  ];
}

function splitCoordinationRaw(clause: string): string[] {
  const parts: string[] = [];
  let rest = clause;
  for (let guard = 0; guard < 20; guard++) {
    CONJUNCTION.lastIndex = 0;
    let split = false;
    for (const m of rest.matchAll(CONJUNCTION)) {
      const idx = m.index ?? 0;
      const left = rest.slice(0, idx);
      const right = rest.slice(idx + m[0].length);
      const rightFirst = stripEnd(right.split(/[,;]/)[0] ?? '');
      // "Man kann Nähmaschinen und Werkzeug ausleihen": inside an open German bracket the conjunction joins
      // objects, not clauses; split there, the first part would lose the verb. The list split keeps it.
      // A closed bracket on the left and a verb-final right ("… Kurse besuchen und Werkzeug ausleihen") are
      // two clauses even when the right one is two words long: it gets the auxiliary back.
      const shared = sharesGermanAux(left, rightFirst);
      const closed = closesBracket(left);
      if (
        !(shared && !closed) &&
        wordCount(left) >= 3 &&
        (wordCount(rightFirst) >= 3 || (shared && closed)) &&
        contentCount(rightFirst) >= 2
      ) {
        parts.push(...splitList(left));
        rest = right;
        split = true;
        break;
      }
    }
    if (!split) break;
  }
  parts.push(...splitList(rest));
  return parts;
}

/**
 * What a list tail needs after the last comma or semicolon: a conjunction between white space, then at
 * least one more character (the last item reaches the end, so the whole conjunction tail lies after the
 * last separator). A cheap linear check that lets most clauses skip listTail (#15: ", which , which …").
 */
const CONJUNCTION_TAIL = /\s(?:and|or|et|ou|und|oder)\s./su;

function mayBeList(c: string): boolean {
  const last = Math.max(c.lastIndexOf(','), c.lastIndexOf(';'));
  return CONJUNCTION_TAIL.test(last < 0 ? c : c.slice(last + 1));
}

const LIST_CONJUNCTIONS = ['and', 'or', 'et', 'ou', 'und', 'oder'];
const SPACE = /\s/;

/**
 * The groups of `^(.*?)((?:,\s*[^,;]+?)*)\s+(?:and|or|et|ou|und|oder)\s+([^,;]+)$` (flags su) for `c`: the head,
 * the comma items, and the last item after the conjunction. Computed in one pass: as a regular expression
 * it backtracked exponentially in the number of commas (each ", " splits two ways between `\s*` and the
 * item), which was three quarters of a verify call on sentences with long comma lists. Same groups as the
 * expression (the property test in split.test.ts compares them); null when it would not match.
 */
export function listTail(c: string): [head: string, middle: string, last: string] | null {
  const n = c.length;
  const commas: number[] = [];
  let lastStop = -1;
  let lastSemicolon = -1;
  for (let i = 0; i < n; i++) {
    const ch = c[i];
    if (ch === ',') commas.push(i);
    else if (ch === ';') lastSemicolon = i;
    else continue;
    lastStop = i;
  }
  const space = (i: number) => i < n && SPACE.test(c[i]!);
  // `\s+ conjunction \s+ ([^,;]+)$` from e: the start of the last group, or -1.
  const tailAt = (e: number): number => {
    if (!space(e)) return -1;
    let r = e;
    while (space(r)) r++;
    const word = LIST_CONJUNCTIONS.find((w) => c.startsWith(w, r));
    if (!word) return -1;
    const s = r + word.length;
    if (!space(s)) return -1;
    let t = s;
    while (space(t)) t++;
    // Only spaces after the conjunction: `\s+` gives its last one to the group.
    if (t === n) return t - s >= 2 ? n - 1 : -1;
    return t > lastStop ? t : -1;
  };
  // Comma items reach the end only from a comma after the last semicolon whose items all have a character.
  let first = -1;
  if (commas.length > 0 && commas[commas.length - 1]! > lastSemicolon) {
    first = commas.length - 1;
    while (first > 0 && commas[first - 1]! > lastSemicolon && commas[first]! >= commas[first - 1]! + 2)
      first--;
  }
  if (first >= 0) {
    // The lazy head stops at that comma. The last item: `\s*` first takes every space after its comma, and the
    // item then grows until the conjunction follows; failing that, `\s*` gives back spaces, and the item may
    // be one space of that run if the conjunction comes right after it.
    const p = commas[first]!;
    const after = commas[commas.length - 1]! + 1;
    let b = after;
    while (space(b)) b++;
    for (let e = b + 1; e < n; e++) {
      // Inside a run of spaces only its first position can start the tail (tailAt skips the whole run):
      // trying every position of the run again would be quadratic in its length.
      if (space(e - 1)) continue;
      const g = tailAt(e);
      if (g >= 0) return [c.slice(0, p), c.slice(p, e), c.slice(g)];
    }
    const g = b - after >= 2 ? tailAt(b - 1) : -1;
    if (g >= 0) return [c.slice(0, p), c.slice(p, b - 1), c.slice(g)];
  }
  for (let e = 0; e < n; e++) {
    if (e > 0 && space(e - 1)) continue;
    const g = tailAt(e);
    if (g >= 0) return [c.slice(0, e), '', c.slice(g)];
  }
  return null;
}

const PAIR_WORDS = new Set(['between', 'zwischen', 'entre']);
const LIST_ARTICLES = new Set(
  'the a an des les le la un une du der die das den dem ein eine einen'.split(' '),
);

function splitList(clause: string): string[] {
  const c = stripEnd(clause);
  const m = mayBeList(c) ? listTail(c) : null;
  if (!m) return [c];
  const head = m[0];
  const middle = m[1]
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  let last = m[2].trim();
  const headWords = head.split(/\s+/).filter(Boolean);
  // German puts the verb after the last item ("kann man Nähmaschinen, Bohrer und Werkzeug kostenlos
  // ausleihen"): the lower-case words after the last item's last noun belong to every item.
  let tail = '';
  if (closesBracket(last) && !closesBracket(head) && germanFrame(head) !== null) {
    const lw = last.split(/\s+/);
    let n = lw.length;
    while (n > 1 && /^\p{Ll}/u.test(lw[n - 1]!)) n--;
    if (n < lw.length && /^\p{Lu}/u.test(lw[n - 1]!)) {
      tail = ` ${lw.slice(n).join(' ')}`;
      last = lw.slice(0, n).join(' ');
    }
  }
  const items = [...middle, last];
  if (items.some((i) => wordCount(i) > 4)) return [c];
  const firstItem = middle[0] ?? last;
  let k = Math.max(1, wordCount(firstItem));
  // "des machines à coudre et des outils": when the items open with an article, the first item starts at
  // the head's last article, however many words it has.
  // Lower case, not folded: the French preposition "à" must not pass for the English article "a".
  if (LIST_ARTICLES.has((firstItem.split(/\s+/)[0] ?? '').toLowerCase())) {
    let a = headWords.length - 1;
    while (a > 0 && !LIST_ARTICLES.has(headWords[a]!.toLowerCase())) a--;
    if (a > 0 && headWords.length - a <= 4) k = headWords.length - a;
  }
  if (headWords.length <= k) return [c];
  const prefix = headWords.slice(0, -k).join(' ');
  const first = headWords.slice(-k).join(' ');
  if (contentCount(prefix) < 1) return [c];
  // "between A and B" names one pair, not two facts: "zwischen Aschau" alone says nothing.
  if (headWords.slice(-k - 1).some((w) => PAIR_WORDS.has(fold(w)))) return [c];
  return [first, ...items].map((i) => `${prefix} ${i}${tail}`);
}

/** Atomic clauses of one sentence: semicolons, relative clauses, coordination and lists. */
export function splitClauses(sentence: string): string[] {
  const out: string[] = [];
  for (const piece of sentence.split(/;\s+/)) {
    for (const rel of splitRelative(piece)) {
      for (const c of splitCoordination(rel)) {
        const t = stripEnd(dropSpaceBeforeComma(c).replace(/\s{2,}/g, ' '));
        if (contentCount(t) > 0) out.push(t);
      }
    }
  }
  return out.length > 0 ? out : [stripEnd(sentence)];
}
