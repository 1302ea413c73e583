import { guessLanguage } from '../language.js';
import { AMBIGUOUS_NAME, PARTICLES } from '../lexicon/stopwords.js';
import type { Candidate } from '../types.js';
import { candidate } from './context.js';
import { HONORIFICS, ROLES, SPEECH_AFTER, SPEECH_BEFORE, TITLE_SUFFIX, TITLES } from './name-cues.js';
import {
  atSentenceStart,
  detectNameRules,
  inFirst,
  inLast,
  isAllCaps,
  isCapitalised,
  isCommonFirstName,
  isNever,
  nameWords,
  type Word,
} from './names.js';

// A logistic token classifier decides whether a capitalised word is part of a person's name. It reads what
// the rules read (lexicons, cue words) plus what they cannot weigh against each other: the word itself, its
// ending, its shape, its neighbours, its place in the sentence, whether the text also writes it in lower
// case, and what the rule finder said about it. Weights are learned by scripts/train-dlp-names.ts from the
// public NER corpora; runs of accepted words become names. Lower-case words are never scored: the
// corpora's lower-case names are tweets, and scoring every word would cost four times as much.

// The weights (629 KB of source, 31,795 entries) are not imported here: the model is off by default, and a
// static import put them in the engine's import graph, so every server start parsed them and the browser
// extension's bundles carried them. `loadNameModel()` (../load-name-model.ts) reads them once, on demand.

/** The shipped model as scripts/train-dlp-names.ts writes it (model/names-weights.ts). */
export interface NameModelData {
  version: string;
  keep: number;
  add: number;
  first: string;
  second: string;
}

interface LoadedModel {
  version: string;
  keep: number;
  add: number;
  weights: NameWeights;
}

let loaded: LoadedModel | null = null;

/** Registers the model's data (parsed once); `detectNames` and `wordProbabilities` read it from then on. */
export function useNameModel(data: NameModelData): void {
  loaded = {
    version: data.version,
    keep: data.keep,
    add: data.add,
    weights: { first: parseWeights(data.first), second: parseWeights(data.second) },
  };
}

export function nameModelLoaded(): boolean {
  return loaded !== null;
}

function loadedModel(): LoadedModel {
  // Failing loudly: quietly falling back to the rules would change findings without anyone noticing.
  if (loaded === null) {
    throw new Error(
      'The name model is not loaded: await loadNameModel() (src/engines/dlp/load-name-model.ts) first',
    );
  }
  return loaded;
}

function parseWeights(packed: string): Map<string, number> {
  const map = new Map<string, number>();
  if (packed === '') return map;
  for (const entry of packed.split('\n')) {
    const tab = entry.lastIndexOf('\t');
    map.set(entry.slice(0, tab), Number(entry.slice(tab + 1)));
  }
  return map;
}

function shape(text: string): string {
  if (text.length === 1) return 'X';
  let out = '';
  let last = '';
  for (let i = 0; i < text.length && out.length < 6; i++) {
    const c = text[i]!;
    const k = c === '-' ? '-' : c === "'" || c === '’' ? "'" : c !== c.toLowerCase() ? 'X' : 'x';
    if (k !== last) out += k;
    last = k;
  }
  return out;
}

function lengthBucket(n: number): string {
  return n <= 3 ? String(n) : n <= 5 ? '45' : n <= 8 ? '68' : '9+';
}

// The characters between two words, reduced to what matters: a space, a line break, or the punctuation.
function gapKey(text: string, from: number, to: number): string {
  if (to - from === 1 && text.charCodeAt(from) === 32) return '_';
  const gap = text.slice(from, Math.min(to, from + 4));
  if (/\n/.test(gap)) return 'NL';
  const stripped = gap.replace(/\s+/g, '');
  return stripped === '' ? '_' : stripped.slice(0, 2);
}

function ruleBucket(conf: number): string {
  return conf >= 0.9 ? 'r9' : conf >= 0.8 ? 'r8' : conf >= 0.7 ? 'r7' : conf > 0 ? 'r5' : 'r0';
}

export interface NameContext {
  text: string;
  words: Word[];
  /** Per word: the confidence of the rule finding that covers it, 0 when none. */
  rule: Float32Array;
  /** Lower-case words seen written in lower case somewhere in the text. */
  lowerSeen: ReadonlySet<string>;
  /** Words seen capitalised somewhere other than at a sentence start (lower-cased). */
  capsMid: ReadonlySet<string>;
  /** The rule finder's findings. */
  rules: Candidate[];
  /** The text's language as the engine guesses it ('?' when it cannot tell). */
  lang: string;
  /** Words seen somewhere in the text right after a known first name ("Angela Merkel … Merkel said"). */
  afterFirst: ReadonlySet<string>;
}

export function nameContext(text: string): NameContext {
  const words = nameWords(text);
  const rule = new Float32Array(words.length);
  const rules = detectNameRules(text, words);
  if (rules.length > 0) {
    let k = 0;
    const sorted = [...rules].sort((a, b) => a.start - b.start);
    for (const r of sorted) {
      while (k < words.length && words[k]!.end <= r.start) k++;
      for (let j = k; j < words.length && words[j]!.start < r.end; j++) {
        rule[j] = Math.max(rule[j]!, r.confidence);
      }
    }
  }
  const lowerSeen = new Set<string>();
  const capsMid = new Set<string>();
  const afterFirst = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w.text === w.lower) lowerSeen.add(w.lower);
    else if (isCapitalised(w)) {
      if (!atSentenceStart(text, w.start)) capsMid.add(w.lower);
      const prev = words[i - 1];
      if (
        prev !== undefined &&
        prev.end + 1 === w.start &&
        isCapitalised(prev) &&
        lexiconKey(prev)[0] === 'F'
      ) {
        afterFirst.add(w.lower);
      }
    }
  }
  return { text, words, rule, lowerSeen, capsMid, rules, lang: guessLanguage(text) ?? '?', afterFirst };
}

/**
 * The cue just before word i, by class: an honorific ("Herr", "Mme", "Dr."), a title or profession
 * ("Präsident", "US-Präsident", "coach"), a reporting verb ("sagte", "déclare"), a role noun ("Kunde").
 * The rule finder reads the same lists, but only as yes/no for its own findings; as features the model
 * learns how far each class vouches in each language.
 */
function cueBefore(ctx: NameContext, i: number): string {
  const prev = ctx.words[i - 1];
  if (prev === undefined) return '-';
  const gap = ctx.text.slice(prev.end, ctx.words[i]!.start);
  if (gap !== ' ' && gap !== '. ') return '-';
  const p = prev.lower;
  if (HONORIFICS.has(p)) return 'H';
  if (gap === '. ') return '-';
  if (TITLES.has(p) || TITLE_SUFFIX.test(p)) return 'T';
  if (SPEECH_BEFORE.has(p)) return 'S';
  if (ROLES.has(p)) return 'R';
  return '-';
}

/** A reporting verb after the run that word i ends ("Keller said", "Dupont, sagte"). */
function speechAfter(ctx: NameContext, i: number): boolean {
  const next = ctx.words[i + 1];
  if (next === undefined) return false;
  const gap = ctx.text.slice(ctx.words[i]!.end, next.start);
  return (gap === ' ' || gap === ', ') && SPEECH_AFTER.has(next.lower);
}

function lexiconKey(w: Word): string {
  const first = inFirst(w.lower) && !AMBIGUOUS_NAME.has(w.lower);
  const last = inLast(w.lower);
  return first
    ? last
      ? 'FL'
      : isCommonFirstName(w.lower)
        ? 'Fc'
        : 'F'
    : last
      ? 'L'
      : isNever(w.lower)
        ? 'N'
        : '-';
}

function neighbour(ctx: NameContext, j: number): string {
  const w = ctx.words[j];
  if (w === undefined) return '<>';
  if (!isCapitalised(w)) return w.lower.length <= 12 ? w.lower : 'long';
  return isAllCaps(w) ? 'CAPS' : `C${lexiconKey(w)}`;
}

/** The features of word i (a capitalised word). Shared by the engine and the training script. */
export function wordFeatures(ctx: NameContext, i: number): string[] {
  const { text, words } = ctx;
  const w = words[i]!;
  const prev = words[i - 1];
  const next = words[i + 1];
  const lex = lexiconKey(w);
  const sh = isAllCaps(w) ? 'CAPS' : shape(w.text);
  const start = atSentenceStart(text, w.start);
  const pGap = prev ? gapKey(text, prev.end, w.start) : '^';
  const nGap = next ? gapKey(text, w.end, next.start) : '$';
  const pTok = prev ? (pGap === '_' ? neighbour(ctx, i - 1) : `${pGap}`) : '^';
  const nTok = next ? (nGap === '_' ? neighbour(ctx, i + 1) : `${nGap}`) : '$';
  const rule = ruleBucket(ctx.rule[i]!);
  const suffix = w.lower.length > 3 ? w.lower.slice(-3) : w.lower;
  const f = [
    'b',
    `w=${w.lower}`,
    `s3=${suffix}`,
    `s2=${suffix.slice(-2)}`,
    `s4=${w.lower.length > 4 ? w.lower.slice(-4) : w.lower}`,
    `p3=${w.lower.slice(0, 3)}`,
    `mid=${ctx.capsMid.has(w.lower) ? 1 : 0}${start ? 1 : 0}`,
    `sh=${sh}`,
    `len=${lengthBucket(w.text.length)}`,
    `lex=${lex}`,
    `ss=${start ? 1 : 0}`,
    `ss&lex=${start ? 1 : 0}${lex}`,
    `rule=${rule}`,
    `rule&lex=${rule}${lex}`,
    `rule&ss=${rule}${start ? 1 : 0}`,
    `pg=${pGap}`,
    `ng=${nGap}`,
    `p=${pTok}`,
    `n=${nTok}`,
    `p&n=${pTok.startsWith('C') ? 'C' : pTok}|${nTok.startsWith('C') ? 'C' : nTok}`,
    `p&lex=${pTok}|${lex}`,
    `n&lex=${nTok}|${lex}`,
    `p2=${neighbour(ctx, i - 2)}`,
    `n2=${neighbour(ctx, i + 2)}`,
    `low=${ctx.lowerSeen.has(w.lower) ? 1 : 0}`,
    `poss=${w.possessive ? 1 : 0}`,
  ];
  if (prev !== undefined && pGap === '_' && !isCapitalised(prev)) f.push(`pw&sh=${prev.lower}|${sh}`);
  if (next !== undefined && nGap === '_' && !isCapitalised(next)) f.push(`nw&sh=${next.lower}|${sh}`);
  // The capitalised word before, itself: titles and honorifics are capitalised in German ("Herr", "Kanzler").
  if (prev !== undefined && pGap === '_' && isCapitalised(prev)) f.push(`pc=${prev.lower}`);
  // Cue classes, and the language: a capitalised word says less in German, where every noun is one.
  const cue = cueBefore(ctx, i);
  const lg = ctx.lang;
  const low = ctx.lowerSeen.has(w.lower) ? 1 : 0;
  f.push(
    `cue=${cue}`,
    `cue&lex=${cue}|${lex}`,
    `sa=${speechAfter(ctx, i) ? 1 : 0}`,
    `lg=${lg}`,
    `lg&ss&lex=${lg}|${start ? 1 : 0}${lex}`,
    `lg&sh=${lg}|${sh}`,
    `lg&low=${lg}|${low}`,
    `lg&cue=${lg}|${cue}`,
    `lg&s3=${lg}|${suffix}`,
    // Written after a known first name elsewhere in the text: a surname met again on its own.
    `echo=${ctx.afterFirst.has(w.lower) ? (prev !== undefined && pGap === '_' && isCapitalised(prev) ? 2 : 1) : 0}`,
  );
  return f;
}

function logistic(weights: ReadonlyMap<string, number>, features: readonly string[]): number {
  let z = 0;
  for (const f of features) z += weights.get(f) ?? 0;
  return 1 / (1 + Math.exp(-z));
}

function bucket(p: number): string {
  return String(Math.min(9, Math.floor(p * 10)));
}

// What the neighbour on one side looked like to the first pass: its probability when it is a capitalised
// word right next to this one, else what separates them.
function neighbourBucket(ctx: NameContext, first: Float32Array, i: number, j: number): string {
  const w = ctx.words[j];
  if (w === undefined) return '<>';
  const a = ctx.words[Math.min(i, j)]!;
  const b = ctx.words[Math.max(i, j)]!;
  const gap = gapKey(ctx.text, a.end, b.start);
  if (!isCapitalised(w)) return PARTICLES.has(w.lower) ? 'pt' : 'lc';
  return gap === '_' ? bucket(first[j]!) : `g${gap}`;
}

/**
 * The second pass sees the first pass's probabilities of the word and its neighbours: the second word of
 * "Wei Ligang" is unknown on its own, but a likely first name next to it makes it a name.
 */
export function stackFeatures(ctx: NameContext, first: Float32Array, i: number): string[] {
  const w = ctx.words[i]!;
  const q = bucket(first[i]!);
  const pq = neighbourBucket(ctx, first, i, i - 1);
  const nq = neighbourBucket(ctx, first, i, i + 1);
  const lex = lexiconKey(w);
  const rule = ruleBucket(ctx.rule[i]!);
  return [
    'b',
    `q=${q}`,
    `pq=${pq}`,
    `nq=${nq}`,
    `q&pq=${q}|${pq}`,
    `q&nq=${q}|${nq}`,
    `pq&nq=${pq}|${nq}`,
    `q&pq&nq=${q}|${pq}|${nq}`,
    `q&lex=${q}|${lex}`,
    `q&rule=${q}|${rule}`,
    `pq&lex=${pq}|${lex}`,
    `nq&lex=${nq}|${lex}`,
    `ss&q=${atSentenceStart(ctx.text, w.start) ? 1 : 0}|${q}`,
  ];
}

export interface NameWeights {
  first: ReadonlyMap<string, number>;
  second: ReadonlyMap<string, number>;
}

/** Per word: the model's probability that it is part of a name (0 for words it does not score). */
export function wordProbabilities(
  ctx: NameContext,
  weights: NameWeights = loadedModel().weights,
): Float32Array {
  const first = new Float32Array(ctx.words.length);
  const scored: number[] = [];
  for (let i = 0; i < ctx.words.length; i++) {
    if (!isCapitalised(ctx.words[i]!)) continue;
    scored.push(i);
    first[i] = logistic(weights.first, wordFeatures(ctx, i));
  }
  if (weights.second.size === 0) return first;
  const probs = new Float32Array(ctx.words.length);
  for (const i of scored) probs[i] = logistic(weights.second, stackFeatures(ctx, first, i));
  return probs;
}

const JOINING_GAP = /^(?: |-|\.? )$/;

/**
 * Runs of accepted words become names: words joined by a space (or the dot of an initial), or by a
 * lower-case particle between two accepted words ("Ludwig van Beethoven"). A run's score is its weakest
 * word's probability; `threshold` is where the training script found precision ≥ 0.95 on held-out rows.
 */
export function decodeNames(
  ctx: NameContext,
  probs: Float32Array,
  threshold: number,
): Array<{ start: number; end: number; score: number }> {
  const { text, words } = ctx;
  const out: Array<{ start: number; end: number; score: number }> = [];
  const accept = (j: number) => probs[j]! >= 0.5;
  for (let i = 0; i < words.length; i++) {
    if (!accept(i)) continue;
    let end = i;
    let score = probs[i]!;
    for (;;) {
      const a = words[end]!;
      const b = words[end + 1];
      if (b === undefined || a.possessive) break;
      const gap = text.slice(a.end, b.start);
      if (accept(end + 1) && (gap === ' ' || (gap === '. ' && a.text.length === 1))) {
        end++;
        score = Math.min(score, probs[end]!);
        continue;
      }
      // One or two particles between accepted words.
      let k = end + 1;
      while (k < words.length && k <= end + 2 && PARTICLES.has(words[k]!.lower) && !isCapitalised(words[k]!))
        k++;
      if (k > end + 1 && accept(k) && JOINING_GAP.test(gap)) {
        end = k;
        score = Math.min(score, probs[k]!);
        continue;
      }
      break;
    }
    if (score >= threshold) {
      // The dot of a final initial belongs to the name ("Seth K.").
      const last = words[end]!;
      const dotted = end > i && last.text.length === 1 && text[last.end] === '.';
      out.push({ start: words[i]!.start, end: dotted ? last.end + 1 : last.end, score });
    }
    i = end;
  }
  return out;
}

export interface Span {
  start: number;
  end: number;
  score: number;
}

/**
 * The model and the rules together: a rule finding is kept when the model's mean probability over its
 * words reaches `keep` (the model vetoes the rules' weak guesses), and a run the model accepts on its own
 * is added when its score reaches `add` (names without any cue). Both thresholds are chosen by the training
 * script on held-out rows of the training sources.
 */
export function combineNames(ctx: NameContext, probs: Float32Array, keep: number, add: number): Span[] {
  const out: Span[] = [];
  const taken = new Uint8Array(ctx.words.length);
  let k = 0;
  for (const r of [...ctx.rules].sort((a, b) => a.start - b.start)) {
    while (k < ctx.words.length && ctx.words[k]!.end <= r.start) k++;
    let sum = 0;
    let n = 0;
    for (let j = k; j < ctx.words.length && ctx.words[j]!.start < r.end; j++) {
      sum += probs[j]!;
      n++;
    }
    const mean = n === 0 ? 0 : sum / n;
    if (mean < keep) continue;
    out.push({ start: r.start, end: r.end, score: Math.max(mean, r.confidence) });
    for (let j = k; j < ctx.words.length && ctx.words[j]!.start < r.end; j++) taken[j] = 1;
  }
  let w = 0;
  for (const s of decodeNames(ctx, probs, add)) {
    while (w < ctx.words.length && ctx.words[w]!.end <= s.start) w++;
    let free = true;
    for (let j = w; j < ctx.words.length && ctx.words[j]!.start < s.end; j++)
      if (taken[j] === 1) free = false;
    if (free) out.push(s);
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Person names: the rule finder, checked and completed by the learned model. */
export function detectNames(text: string): Candidate[] {
  const model = loadedModel();
  if (model.weights.first.size === 0) return detectNameRules(text);
  const ctx = nameContext(text);
  if (ctx.words.length === 0) return [];
  const probs = wordProbabilities(ctx, model.weights);
  return combineNames(ctx, probs, model.keep, model.add).map((s) =>
    // Below 0.9, so that a name never outranks a validated number.
    candidate('NAME', 'PERSONAL', text, s.start, s.end, Math.min(0.89, Math.max(0.5, s.score)), 'name:model'),
  );
}
