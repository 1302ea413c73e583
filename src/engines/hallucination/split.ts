import { MONTHS } from './lexicon.js';
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
const CONJUNCTION =
  /,?\s+(?:and|but|while|whereas|yet|et|mais|tandis que|alors que|cependant|und|aber|während|sondern|jedoch|as well as|ainsi que|sowie)\s+/giu;

const contentCount = (s: string): number => tokenize(s).filter((t) => !isStopword(t.norm)).length;
const wordCount = (s: string): number => s.split(/\s+/).filter(Boolean).length;

function stripEnd(s: string): string {
  return s.replace(/[\s.!?;:,]+$/u, '').trim();
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
function subjectOf(clause: string): string {
  const words = clause.split(/\s+/).filter(Boolean);
  const firstComma = words.findIndex((w) => w.endsWith(','));
  if (firstComma >= 0 && firstComma < 4)
    return words
      .slice(0, firstComma + 1)
      .join(' ')
      .replace(/,$/, '');
  const verb = words.findIndex(
    (w, i) => i > 0 && (AUXILIARIES.has(w.toLowerCase()) || /^\p{Ll}+ed$/u.test(w)),
  );
  if (verb > 0 && verb <= 6) return words.slice(0, verb).join(' ');
  // Otherwise the leading noun phrase: determiners, then a run of capitalised words (with name particles
  // such as "of" or "von" inside it); it ends at the first other word, so an object like "the North Sea"
  // never becomes part of the subject.
  let i = 0;
  while (i < words.length && i < 3 && SUBJECT_OPENERS.has(fold(words[i]!))) i++;
  let last = -1;
  for (; i < Math.min(8, words.length); i++) {
    const w = words[i]!;
    if (/^\p{Lu}/u.test(w)) last = i;
    else if (!(last >= 0 && NAME_PARTICLES.has(w) && /^\p{Lu}/u.test(words[i + 1] ?? ''))) break;
  }
  return last >= 0 ? words.slice(0, last + 1).join(' ') : '';
}

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

/** Coordinated clauses split; short right-hand sides are list items and keep the left-hand prefix. */
function splitCoordination(clause: string): string[] {
  const parts = splitCoordinationRaw(clause);
  if (parts.length < 2) return parts;
  const subject = subjectOf(parts[0]!);
  return [parts[0]!, ...parts.slice(1).map((p) => withSubject(p, subject))];
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
      if (wordCount(left) >= 3 && wordCount(rightFirst) >= 3 && contentCount(rightFirst) >= 2) {
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

const LIST_TAIL = /^(.*?)((?:,\s*[^,;]+?)*)\s+(?:and|or|et|ou|und|oder)\s+([^,;]+)$/su;

/**
 * What LIST_TAIL needs after the last comma or semicolon: a conjunction between white space, then at
 * least one more character ([^,;]+ reaches the end, so the whole conjunction tail lies after the last
 * separator). When it is missing LIST_TAIL cannot match, and trying it anyway backtracks through every
 * way of cutting the text into comma items: a claim of ", which , which …" took seconds for 2,000
 * characters (#15, the claim checker's linearity test over every generator).
 */
const CONJUNCTION_TAIL = /\s(?:and|or|et|ou|und|oder)\s./su;

function mayBeList(c: string): boolean {
  const last = Math.max(c.lastIndexOf(','), c.lastIndexOf(';'));
  return CONJUNCTION_TAIL.test(last < 0 ? c : c.slice(last + 1));
}

function splitList(clause: string): string[] {
  const c = stripEnd(clause);
  const m = mayBeList(c) ? LIST_TAIL.exec(c) : null;
  if (!m) return [c];
  const head = m[1] ?? '';
  const middle = (m[2] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const last = (m[3] ?? '').trim();
  const items = [...middle, last];
  if (items.some((i) => wordCount(i) > 4)) return [c];
  const k = Math.max(1, wordCount(middle[0] ?? last));
  const headWords = head.split(/\s+/).filter(Boolean);
  if (headWords.length <= k) return [c];
  const prefix = headWords.slice(0, -k).join(' ');
  const first = headWords.slice(-k).join(' ');
  if (contentCount(prefix) < 1) return [c];
  return [first, ...items].map((i) => `${prefix} ${i}`);
}

/** Atomic clauses of one sentence: semicolons, relative clauses, coordination and lists. */
export function splitClauses(sentence: string): string[] {
  const out: string[] = [];
  for (const piece of sentence.split(/;\s+/)) {
    for (const rel of splitRelative(piece)) {
      for (const c of splitCoordination(rel)) {
        const t = stripEnd(c.replace(/\s+,/g, ',').replace(/\s{2,}/g, ' '));
        if (contentCount(t) > 0) out.push(t);
      }
    }
  }
  return out.length > 0 ? out : [stripEnd(sentence)];
}
