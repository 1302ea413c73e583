import {
  contextFactor,
  contextKind,
  guessLanguage,
  isDiscussion,
  isQuoted,
  LANGUAGE_SAMPLE,
  offTask,
  QuoteIndex,
} from './context.js';
import {
  CHANGED_HOMOGLYPH,
  CHANGED_INVISIBLE,
  CHANGED_LEET,
  CHANGED_WIDTH,
  normalise,
  type View,
} from './normalize.js';
import {
  type CompiledPattern,
  mayMatchIn,
  type PatternMatcher,
  type PatternPlan,
  patternPlan,
  TextMarks,
} from './patterns/index.js';
import {
  actionFor,
  combineScore,
  HIDDEN_MATCH_POINTS,
  MODEL_MAX,
  OBFUSCATION_CAP,
  modelPoints,
  OBFUSCATION_POINTS,
  OFF_TASK_FACTOR,
  resolveThresholds,
  severityFor,
  similarityPoints,
} from './scoring.js';
import { harmfulFraming } from './harm.js';
import { adversarialSuffix } from './suffix.js';
import { type LinearModel, maxWindowLogit, shippedModel, warnLogit } from './model/linear.js';
import { tokenFeatures } from './model/features.js';
import { similarity, tokens } from './tfidf.js';
import type { AnalysisResult, DetectionOptions, PatternMatch } from './types.js';
import { FNV_START, fnvStep, HASHED_CHARS, SpanMemo } from './span-memo.js';
import { buildViews } from './views.js';
import { isSpaceCode } from '../text.js';

/** Output cap: a 100 KB text full of attacks still returns a bounded list. */
const MAX_MATCHES = 50;
/** Categories that make a text a prompt injection (the umbrella category the spec names). */
const INJECTION_FAMILY = new Set([
  'instruction_override',
  'system_prompt_extraction',
  'fake_system_tokens',
  'indirect_injection',
  'payload_splitting',
  'data_exfiltration',
  'tool_abuse',
  'response_steering',
]);

/**
 * The matches found, before scoring, and what each was found through (`obfuscation[i]` for `matches[i]`,
 * shared lists, read only). Each match keeps its pattern's weight until analyzeFull scores it in place:
 * the match object becomes the evidence, where a second object per match was a good share of the garbage
 * of a text with thousands of matches (#15).
 */
interface RawMatches {
  matches: PatternMatch[];
  obfuscation: string[][];
}

/** A match's obfuscation list when it was found in a view other than the plain one: [the view's source]. */
const SOURCE_LISTS = new Map<string, string[]>();
function sourceList(source: string): string[] {
  let list = SOURCE_LISTS.get(source);
  if (!list) {
    list = [source];
    SOURCE_LISTS.set(source, list);
  }
  return list;
}

/**
 * The obfuscation list of each combination of CHANGED_* bits, made once and shared (read only, as every
 * match's list is): a homoglyph text has thousands of matches, each with the same list.
 */
const OBFUSCATION_LISTS: string[][] = Array.from({ length: 16 }, (_, bits) => {
  const out: string[] = [];
  if (bits & CHANGED_LEET) out.push('leetspeak');
  if (bits & CHANGED_HOMOGLYPH) out.push('homoglyph');
  if (bits & CHANGED_INVISIBLE) out.push('zero_width');
  if (bits & CHANGED_WIDTH) out.push('fullwidth');
  return out;
});

function changedKinds(view: View, from: number, to: number): string[] {
  let bits = 0;
  if (view.changed) for (let i = from; i < to; i++) bits |= view.changed[i] as number;
  return OBFUSCATION_LISTS[bits & 15] as string[];
}

/**
 * Flat triples of int32 (pattern index, view start, view end per match), in one typed array kept between
 * calls up to TRIPLES_KEEP numbers: the matches of one view are read before the next view is scanned, and
 * an array of boxed numbers grown per view was much of the garbage of a text with thousands of matches.
 */
class Triples {
  data = new Int32Array(3 * 1024);
  /** Numbers used (three per match). */
  n = 0;
  reset(): void {
    if (this.data.length > TRIPLES_KEEP) this.data = new Int32Array(3 * 1024);
    this.n = 0;
  }
  push(a: number, b: number, c: number): void {
    if (this.n + 3 > this.data.length) {
      const bigger = new Int32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.n++] = a;
    this.data[this.n++] = b;
    this.data[this.n++] = c;
  }
}
const TRIPLES_KEEP = 3 << 14;
const foundScratch = new Triples();

/**
 * Every pattern match in one view, as flat triples: pattern index, view start, view end (one array, not
 * an array per match: thousands of matches in a hostile text). The list is shared scratch, valid until the
 * next call.
 */
function matchesInView(view: View): Triples {
  const text = view.text;
  const plan = patternPlan();
  const found = foundScratch;
  found.reset();
  const push = (p: CompiledPattern, from: number, to: number): void => {
    if (to > from) found.push(p.index, from, to);
  };
  if (view.source === 'spaced_letters') {
    compactMatches(text, plan, push);
    return found;
  }
  // Patterns whose required later words the view does not hold are not tried at all (patterns/required.ts).
  const ok = mayMatchIn(text, plan, false);
  const marks = new TextMarks(text);
  for (const p of plan.unanchored) {
    if (ok[p.index] === 0) continue;
    scanWhole(p.match, text, marks, (from, to) => push(p, from, to));
  }
  // Pass 1: the words of the text and the patterns that may start at each (candidatesFor), in text order.
  // A word is looked up only when the walk of its letters in the trie of opening words passes an opening
  // word (the word is one, or starts with a stem) of a pattern not ruled out: any other word opens no
  // pattern that could match here, and most words are such.
  const { next } = plan.openings;
  const live = liveOpenings(plan, ok);
  const words = wordScratch;
  words.n = 0;
  const count = new Int32Array(plan.all.length);
  const len = text.length;
  for (let i = 0; i < len; ) {
    if (!isLowerCode(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    let node = 0;
    let opens = false;
    // The word's hash, for the memo of candidates (no string per word): of its first HASHED_CHARS.
    let h = FNV_START;
    while (i < len) {
      const c = text.charCodeAt(i) - 97;
      if (c < 0 || c > 25) break;
      if (i - start < HASHED_CHARS) h = fnvStep(h, c + 97);
      i++;
      node = next[node * 26 + c] as number;
      if (node < 0) break;
      if (live[node] === 1) opens = true;
    }
    while (i < len && i - start < HASHED_CHARS) {
      const c = text.charCodeAt(i);
      if (!isLowerCode(c)) break;
      h = fnvStep(h, c);
      i++;
    }
    while (i < len && isLowerCode(text.charCodeAt(i))) i++;
    if (!opens) continue;
    const candidates = candidatesAt(text, start, i, h, plan);
    let any = false;
    for (const p of candidates) {
      if (ok[p.index] === 0) continue;
      count[p.index] = (count[p.index] as number) + 1;
      any = true;
    }
    if (!any) continue;
    words.push(start, candidates);
  }
  // Pass 2: each candidate pattern tried where its word starts, in the same order. A pattern already
  // matched up to `busyUntil` is not tried again inside that match.
  const attempts = new Attempts(text, marks, plan.all.length, (p) => count[p.index] as number);
  for (let k = 0; k < words.n; k++) {
    const at = words.at[k] as number;
    for (const p of words.patterns[k] as CompiledPattern[]) {
      if (ok[p.index] === 0) continue;
      const to = attempts.tryAt(p, p.match, at);
      if (to > at) push(p, at, to);
    }
  }
  words.trim();
  return found;
}

const isLowerCode = (c: number): boolean => c >= 97 && c <= 122;

/**
 * Per node of the trie of opening words, 1 when an opening word ending there opens a pattern that `ok`
 * (mayMatchIn) leaves in: the only words worth looking up. Most opening words of a hostile text open only
 * patterns it cannot match ("a" in "a:a:a…"); read once per view, not per letter walked.
 */
function liveOpenings(plan: PatternPlan, ok: Uint8Array): Uint8Array {
  // From the patterns still in (few in a short text) to their nodes, not from every node of the trie to
  // its patterns: the same marks, at a cost that follows what the text may match.
  const live = new Uint8Array(plan.openings.patterns.length);
  for (let p = 0; p < ok.length; p++) {
    if (ok[p] !== 1) continue;
    const nodes = plan.openingNodes[p] as Int32Array;
    for (let k = 0; k < nodes.length; k++) live[nodes[k] as number] = 1;
  }
  return live;
}

/**
 * The words of a view that may open a pattern, and their candidate patterns, in text order: scratch shared
 * by every call (matchesInView is not re-entered), so that a text with thousands of such words (an
 * attack line repeated, #15) does not grow two arrays per view. Kept up to WORDS_KEEP entries.
 */
class WordList {
  at = new Int32Array(1024);
  patterns: CompiledPattern[][] = [];
  n = 0;
  push(start: number, candidates: CompiledPattern[]): void {
    if (this.n === this.at.length) {
      const bigger = new Int32Array(this.at.length * 2);
      bigger.set(this.at);
      this.at = bigger;
    }
    this.at[this.n] = start;
    this.patterns[this.n] = candidates;
    this.n++;
  }
  /** Drops what a very long text left, so that it is not held between calls. */
  trim(): void {
    if (this.at.length > WORDS_KEEP) {
      this.at = new Int32Array(1024);
      this.patterns = [];
    }
  }
}
const WORDS_KEEP = 1 << 15;
const wordScratch = new WordList();

/**
 * Anchored attempts of patterns at candidate positions, each pattern's in increasing order: what the
 * sticky expression matches at each position, skipping positions inside the pattern's last match.
 *
 * A pattern with many candidates (a word it opens with repeated all over a hostile text: 50,000 times "a"
 * in "/a/a/a…", #15) is not tried at each of them: one search with its global expression from a candidate
 * finds its next match anywhere after, and every candidate before that match is answered without a call.
 * The global search from position c returns the leftmost position ≥ c where the expression matches, and
 * there the same match as the sticky expression, so both ways give the same answer at every candidate.
 * Few candidates are cheaper to try one by one than a search that may run to the end of the text.
 */
class Attempts {
  private readonly busyUntil: Int32Array;
  /** Per pattern: the position the last global search started from (-1: none), its match's start and end. */
  private readonly searchedFrom: Float64Array;
  private readonly nextStart: Float64Array;
  private readonly nextEnd: Float64Array;
  private readonly cap: number;
  constructor(
    private readonly text: string,
    private readonly marks: TextMarks,
    patterns: number,
    private readonly candidates: (p: CompiledPattern) => number,
  ) {
    this.busyUntil = new Int32Array(patterns).fill(-1);
    this.searchedFrom = new Float64Array(patterns).fill(-1);
    this.nextStart = new Float64Array(patterns);
    this.nextEnd = new Float64Array(patterns);
    this.cap = attemptCap(text.length);
  }
  /** End of the match of `sticky` at `at` (at or before `at` when none, or inside the last match). */
  tryAt(p: CompiledPattern, matcher: PatternMatcher, at: number): number {
    const i = p.index;
    if ((this.busyUntil[i] as number) > at) return at;
    let end: number;
    if (this.candidates(p) <= this.cap) {
      end = Math.max(at, matcher.endAt(this.text, this.marks, at));
    } else {
      const from = this.searchedFrom[i] as number;
      if (from < 0 || from > at || (this.nextStart[i] as number) < at) {
        const start = matcher.next(this.text, this.marks, at);
        this.searchedFrom[i] = at;
        this.nextStart[i] = start >= 0 ? start : Number.POSITIVE_INFINITY;
        this.nextEnd[i] = start >= 0 ? matcher.end : Number.POSITIVE_INFINITY;
      }
      end = this.nextStart[i] === at ? (this.nextEnd[i] as number) : at;
    }
    if (end > at) this.busyUntil[i] = end;
    return end;
  }
}

/**
 * A whole-text scan costs about this many characters' worth of work per anchored attempt it saves: a
 * pattern with more candidate positions than length / ATTEMPT_COST is scanned whole instead.
 */
const ATTEMPT_COST = 32;

/** The most candidate positions a pattern is tried at, anchored, in a text of `length` characters. */
function attemptCap(length: number): number {
  return Math.max(16, Math.floor(length / ATTEMPT_COST));
}

/**
 * Matches of every pattern in joined-up letters (the spaced-letter view), pattern after pattern, each
 * pattern's in text order: what a global scan of each `compact` expression finds. Joined-up letters have
 * no word starts, and scanning the whole view once per pattern made a text that is one long run of
 * spaced letters ("a/a/a…", "i g n o r e …") the slowest input of the detector (#15). A pattern can only
 * match where one of its opening words occurs, so the opening words are found first (a trie walk from
 * each position) and each pattern is tried, anchored, at its own candidates, left to right, skipping those
 * inside its last match: the same leftmost, non-overlapping matches as the global scan, which resumes
 * at the end of each match. Patterns without opening words, or with more candidates than a scan costs,
 * are scanned whole.
 */
export function compactMatches(
  text: string,
  plan: PatternPlan,
  push: (p: CompiledPattern, from: number, to: number) => void,
): void {
  const { all } = plan;
  const { next, patterns } = plan.openings;
  const len = text.length;
  const cap = attemptCap(len);
  // Patterns whose required later words the view does not hold are left out (patterns/required.ts).
  const ok = mayMatchIn(text, plan, true);
  const skip = all.map((p) => ok[p.index] === 0);
  const whole = all.map((p) => p.triggers === null);
  const candidates: number[][] = all.map(() => []);
  // The trie nodes that open a pattern still to be tried here.
  const live = liveOpenings(plan, ok);
  const anyLive = live.includes(1);
  for (let from = 0; anyLive && from < len; from++) {
    let node = 0;
    for (let q = from; q < len; q++) {
      const c = text.charCodeAt(q) - 97;
      if (c < 0 || c > 25) break;
      node = next[node * 26 + c] as number;
      if (node < 0) break;
      if (live[node] === 0) continue;
      const opened = patterns[node] as Int32Array;
      for (let k = 0; k < opened.length; k++) {
        const i = opened[k] as number;
        if (whole[i] || skip[i]) continue;
        const list = candidates[i] as number[];
        // Two opening words of one pattern may start at the same position ("ignor", "ignore").
        if (list[list.length - 1] === from) continue;
        list.push(from);
        if (list.length > cap) whole[i] = true;
      }
    }
  }
  const marks = new TextMarks(text);
  // The others are tried through Attempts, as in the plain view: with at most `cap` candidates each, every
  // candidate outside the pattern's last match is an anchored attempt. (An empty match adds nothing; the
  // global scan would move on by one, as the next candidate does.)
  const attempts = new Attempts(text, marks, all.length, (p) => (candidates[p.index] as number[]).length);
  for (let i = 0; i < all.length; i++) {
    const p = all[i] as CompiledPattern;
    if (skip[i]) continue;
    if (whole[i]) {
      scanWhole(p.compactMatch, text, marks, (from, to) => push(p, from, to));
      continue;
    }
    for (const from of candidates[i] as number[]) {
      const end = attempts.tryAt(p, p.compactMatch, from);
      if (end > from) push(p, from, end);
    }
  }
}

/** Every match of a pattern, left to right, as a global scan finds them (moving on by one after an empty one). */
function scanWhole(
  matcher: PatternMatcher,
  text: string,
  marks: TextMarks,
  push: (from: number, to: number) => void,
): void {
  for (let from = 0; from <= text.length; ) {
    const start = matcher.next(text, marks, from);
    if (start < 0) return;
    push(start, matcher.end);
    from = matcher.end > start ? matcher.end : matcher.end + 1;
  }
}

/** The patterns that may start at a given word; words repeat, so the answer is cached (bounded). */
const candidateCache = new Map<string, CompiledPattern[]>();
const CANDIDATE_CACHE_MAX = 50_000;

/** The candidates of the words seen lately, by their span in a view (no slice per word, #15). */
const recentCandidates = new SpanMemo<CompiledPattern[]>(1024);

/** candidatesFor(text.slice(start, end)), where `hash` is fnvStep over the word's characters. */
function candidatesAt(
  text: string,
  start: number,
  end: number,
  hash: number,
  plan: PatternPlan,
): CompiledPattern[] {
  const known = recentCandidates.get(text, start, end, hash);
  if (known) return known;
  const w = text.slice(start, end);
  const out = candidatesFor(w, plan);
  recentCandidates.set(w, hash, out);
  return out;
}

function candidatesFor(w: string, plan: PatternPlan): CompiledPattern[] {
  const hit = candidateCache.get(w);
  if (hit) return hit;
  const out: CompiledPattern[] = [...(plan.exact.get(w) ?? [])];
  for (let k = Math.min(4, w.length); k >= 1; k--) {
    const stems = plan.prefix.get(k === w.length ? w : w.slice(0, k));
    if (stems)
      for (const s of stems) if (w.startsWith(s.word) && !out.includes(s.pattern)) out.push(s.pattern);
  }
  if (candidateCache.size >= CANDIDATE_CACHE_MAX) candidateCache.clear();
  candidateCache.set(w, out);
  return out;
}

/**
 * Which (pattern, start, end) matches were already taken: a hash set of the triples in one typed array
 * (open addressing, linear probing). A Set of one number per triple exceeded 2^31 and made a set of
 * doubles, and a map per pattern grew thousands of entries on a hostile text (#15); both were much of its
 * garbage. The table is kept between calls (scanViews is not re-entered) up to SEEN_KEEP slots.
 */
class SeenMatches {
  /** Per slot: pattern + 1 (0 = empty), start, end. */
  private table = new Int32Array(3 * 1024);
  private slots = 1024;
  private size = 0;
  /** Empties the set for a new text (and drops a table a very long one grew). */
  reset(): void {
    if (this.slots > SEEN_KEEP) {
      this.slots = 1024;
      this.table = new Int32Array(3 * this.slots);
    } else if (this.size > 0) this.table.fill(0);
    this.size = 0;
  }
  /** True when the triple was seen before; records it otherwise. */
  check(pattern: number, start: number, end: number): boolean {
    if ((this.size + 1) * 2 > this.slots) this.grow();
    const mask = this.slots - 1;
    const t = this.table;
    let slot = tripleHash(pattern, start, end) & mask;
    for (;;) {
      const at = slot * 3;
      const p = t[at] as number;
      if (p === 0) {
        t[at] = pattern + 1;
        t[at + 1] = start;
        t[at + 2] = end;
        this.size++;
        return false;
      }
      if (p === pattern + 1 && t[at + 1] === start && t[at + 2] === end) return true;
      slot = (slot + 1) & mask;
    }
  }
  private grow(): void {
    const old = this.table;
    this.slots *= 2;
    this.table = new Int32Array(3 * this.slots);
    this.size = 0;
    for (let at = 0; at < old.length; at += 3) {
      const p = old[at] as number;
      if (p !== 0) this.check(p - 1, old[at + 1] as number, old[at + 2] as number);
    }
  }
}
const SEEN_KEEP = 1 << 14;
const seenMatches = new SeenMatches();

function tripleHash(pattern: number, start: number, end: number): number {
  let h = Math.imul(pattern, 0x9e3779b1) ^ Math.imul(start, 0x85ebca6b) ^ Math.imul(end, 0xc2b2ae35);
  h ^= h >>> 15;
  return Math.imul(h, 0x2c1b3c6d) ^ (h >>> 13);
}

function scanViews(views: View[], original: string): RawMatches {
  const out: PatternMatch[] = [];
  const kinds: string[][] = [];
  const seen = seenMatches;
  seen.reset();
  for (const view of views) {
    const text = view.text;
    if (!text) continue;
    const found = matchesInView(view);
    const all = patternPlan().all;
    const triples = found.data;
    for (let f = 0; f < found.n; f += 3) {
      const p = all[triples[f] as number] as CompiledPattern;
      const from0 = triples[f + 1] as number;
      const to = triples[f + 2] as number;
      let from = from0;
      while (from < to - 1 && isSpaceCode(text.charCodeAt(from))) from++;
      const start = view.starts[from] as number;
      const end = view.ends[to - 1] as number;
      if (seen.check(p.index, start, end)) continue;
      kinds.push(view.source === 'plain' ? changedKinds(view, from, to) : sourceList(view.source));
      out.push({
        patternId: p.def.id,
        category: p.def.category,
        start: Math.min(start, end),
        end: Math.max(start, end),
        weight: p.def.weight,
        match: original.slice(Math.min(start, end), Math.max(start, end)),
      });
    }
  }
  return { matches: out, obfuscation: kinds };
}

function allowedSpans(plain: View, phrases: string[] | undefined): [number, number][] {
  const spans: [number, number][] = [];
  if (!phrases?.length) return spans;
  for (const phrase of phrases) {
    const needle = normalise(phrase).plain.text.trim();
    if (needle.length < 3) continue;
    for (let at = plain.text.indexOf(needle); at >= 0; at = plain.text.indexOf(needle, at + 1)) {
      spans.push([plain.starts[at] as number, plain.ends[at + needle.length - 1] as number]);
    }
  }
  return spans;
}

// Words persona patterns share with any request; the rest of a persona match is the persona's name.
const PERSONA_FILLER = new Set([
  'hi',
  'hello',
  'you',
  'are',
  're',
  'act',
  'as',
  'now',
  'the',
  'pretend',
  'to',
  'be',
  'become',
  'called',
  'named',
  'enable',
  'mode',
  'stay',
  'in',
  'character',
]);

function ownedBySystemPrompt(systemPrompt: string, m: PatternMatch): boolean {
  const own = normalise(m.match).plain.text.trim();
  if (systemPrompt.includes(own)) return true;
  if (m.category !== 'dan_jailbreak' && m.category !== 'roleplay_jailbreak') return false;
  const names = (own.match(/[a-z]+/g) ?? []).filter((w) => !PERSONA_FILLER.has(w));
  return names.length > 0 && names.every((w) => new RegExp(`\\b${w}\\b`).test(systemPrompt));
}

/** Points for an adversarial suffix: three distinct odd tokens reach `warn`, six or more `block`-level. */
export const SUFFIX_PATTERN_ID = 'statistical.adversarial_suffix';
export const HARM_PATTERN_ID = 'statistical.harmful_framing';

function suffixMatch(text: string, start: number, end: number, odd: number): PatternMatch {
  return {
    patternId: SUFFIX_PATTERN_ID,
    category: 'adversarial_suffix',
    start,
    end,
    weight: Math.min(70, 40 + 5 * odd),
    match: text.slice(start, end),
  };
}

/** Found through no obfuscation (shared, read only). */
const NOT_OBFUSCATED: string[] = OBFUSCATION_LISTS[0] as string[];

// Quoted runs on one line: "…", «…», “…”, „…“ and '…' of ten characters or more.
const QUOTED_RUN = /"[^"\n]{3,400}"|«[^»\n]{3,400}»|“[^”\n]{3,400}”|„[^“”\n]{3,400}[“”]|'[^'\n]{10,400}'/g;

/**
 * What the learned signal reads of a text that discusses attacks: the quoted runs are blanked, as the
 * patterns weigh quoted matches less in a discussion. "What does 'ignore all previous instructions' mean?"
 * is a question about an attack, not one.
 */
export function maskQuotes(normalised: string): string {
  return normalised.replace(QUOTED_RUN, (m) => ' '.repeat(m.length));
}

const overlaps = (a: [number, number], s: number, e: number): boolean => a[0] < e && s < a[1];

const byWeightThenStart = (a: PatternMatch, b: PatternMatch): number =>
  b.weight - a.weight || a.start - b.start;

/**
 * Sorts matches by weight, highest first, then by start, in place: what the stable sort with that
 * comparator gives (equal keys keep their order). Weights are whole numbers 0..100, so the matches are
 * dealt out by weight, in order, and each weight's are sorted by start, in order already for most of them
 * (a view's matches of one pattern come in text order): a comparison sort of the thousands of matches of
 * a hostile text cost more than the rest of the scoring loop (#15). Any other weight takes the plain sort.
 */
function sortByWeightThenStart(matches: PatternMatch[]): void {
  const byWeight: PatternMatch[][] = [];
  for (const m of matches) {
    const w = m.weight;
    if (!Number.isInteger(w) || w < 0 || w > 100) {
      matches.sort(byWeightThenStart);
      return;
    }
    const list = byWeight[w];
    if (list) list.push(m);
    else byWeight[w] = [m];
  }
  let k = 0;
  for (let w = 100; w >= 0; w--) {
    const list = byWeight[w];
    if (!list) continue;
    list.sort((a, b) => a.start - b.start);
    for (const m of list) matches[k++] = m;
  }
}

// An application sends its system prompt (the context) with every request, often kilobytes long: its
// normalised text is kept for the last context seen (one entry, compared by value) instead of normalising
// it again for every user text it comes with. A pure function of the string, so the analysis is the same.
let lastContext: string | undefined;
let lastNormalisedContext = '';
function normalisedContext(context: string): string {
  if (context !== lastContext) {
    lastNormalisedContext = normalise(context).plain.text;
    lastContext = context;
  }
  return lastNormalisedContext;
}

/** The category given to a score only the learned model explains (docs/detection.md). */
export const MODEL_CATEGORY = 'learned_model';

/** Which signal gave the most points (patterns win ties: they are the explainable layer). */
function strongestSignal(
  pattern: number,
  similarity: number,
  obfuscation: number,
  model: number,
): AnalysisResult['details']['top_signal'] {
  const best = Math.max(pattern, similarity, obfuscation, model);
  if (best <= 0) return 'none';
  if (pattern === best) return 'patterns';
  if (model === best) return 'model';
  return similarity === best ? 'similarity' : 'obfuscation';
}

/**
 * The matches to show, without repeats: one span read by two patterns of the same category (an English
 * and a French pattern on "Ignore all previous instructions") is one piece of evidence, shown once at its
 * strongest, as it is scored once. `sorted` is by start, then end, and holds equal spans heaviest first
 * (the sort is stable over the weight order), so repeats are neighbours and the first is kept. Sanitising
 * still reads every match.
 */
function withoutRepeats(sorted: PatternMatch[]): PatternMatch[] {
  const out: PatternMatch[] = [];
  let runStart = 0;
  for (const m of sorted) {
    const first = out[runStart];
    if (!first || first.start !== m.start || first.end !== m.end) runStart = out.length;
    let repeat = false;
    for (let k = runStart; k < out.length && !repeat; k++)
      repeat = (out[k] as PatternMatch).category === m.category;
    if (!repeat) out.push(m);
  }
  return out;
}

export function analyzeText(text: string, options: DetectionOptions = {}): AnalysisResult {
  return analyzeFull(text, options).result;
}

/** What the score was made of, for the evaluation (which swaps in models fitted without a held-out source). */
export interface AnalysisParts {
  patternWeights: number[];
  similarity: number;
  obfuscationPoints: number;
  /** The normalised text the model reads, and whether it came from a document or tool. */
  normalised: string;
  indirect: boolean;
  /** The language guessed from the text, which picks the model's warn logit. */
  language: string | undefined;
}

/**
 * The analysis plus every match (the result lists at most MAX_MATCHES), for sanitisation, which must
 * remove every malicious span even in a long text full of them.
 */
export function analyzeFull(
  text: string,
  options: DetectionOptions = {},
  model: LinearModel | null = shippedModel(),
): { result: AnalysisResult; all: PatternMatch[]; parts: AnalysisParts } {
  const thresholds = resolveThresholds(options.thresholds);
  const kind = contextKind(options.context);
  const { views, signals } = buildViews(text);
  const plain = views[0] as View;
  const raw = scanViews(views, text);
  const suffix = adversarialSuffix(text);
  if (suffix) {
    raw.matches.push(suffixMatch(text, suffix.start, suffix.end, suffix.odd));
    raw.obfuscation.push(NOT_OBFUSCATED);
  }
  const harm = harmfulFraming(plain.text);
  if (harm && harm.end > harm.start) {
    const start = plain.starts[harm.start] as number;
    const end = plain.ends[harm.end - 1] as number;
    raw.matches.push({
      patternId: HARM_PATTERN_ID,
      category: 'harmful_framing',
      start,
      end,
      weight: harm.points,
      match: text.slice(start, end),
    });
    raw.obfuscation.push(NOT_OBFUSCATED);
  }
  const allowed = allowedSpans(plain, options.allowPhrases);
  const discussion = isDiscussion(plain.text);
  const systemPrompt = kind === 'system_prompt' ? normalisedContext(options.context as string) : '';

  const bestByPattern = new Map<string, number>();
  const evidence: PatternMatch[] = [];
  const obfuscation = new Set<string>();
  let hiddenMatch = false;
  let allQuoted = true;
  // Many matches in a long text: find the quotation marks once (isQuoted reads ~280 characters per match).
  const quotes = raw.matches.length * 280 > text.length ? new QuoteIndex(text) : null;
  for (let r = 0; r < raw.matches.length; r++) {
    const m = raw.matches[r] as PatternMatch;
    if (allowed.length > 0 && allowed.some((a) => overlaps(a, m.start, m.end))) continue;
    let w = m.weight * contextFactor(kind, m.category);
    const quoted = quotes ? quotes.isQuoted(m.start, m.end) : isQuoted(text, m.start, m.end);
    if (!quoted) allQuoted = false;
    if (quoted) w *= discussion ? 0.3 : 0.75;
    // A persona or phrase the operator's own system prompt uses is not an attack on it. A system prompt
    // the caller sent with the text vouches for nothing: the caller wrote both.
    if (systemPrompt && !options.contextFromCaller && ownedBySystemPrompt(systemPrompt, m)) w *= 0.3;
    const found = raw.obfuscation[r] as string[];
    if (found.length) {
      hiddenMatch = true;
      for (const o of found) obfuscation.add(o);
    }
    // Scored in place: the match is the evidence from here on (its pattern weight is not read again).
    m.weight = Math.min(100, Math.round(w));
    evidence.push(m);
  }
  // One piece of text is one piece of evidence: overlapping matches of the same category (the same phrase
  // read by an English and a French pattern, or by two views) count once, at their strongest.
  sortByWeightThenStart(evidence);
  // Overlap is looked up in buckets of BUCKET characters of the start offset, so many matches stay linear.
  // A bucket is keyed by its number and the category's (a number, not a string per lookup: thousands of
  // matches, #15). Accepted matches longer than LONG are few and kept in a list of their own; an accepted
  // match of the others that overlaps e starts at most `longest` (the longest accepted of e's category so
  // far) before e's start, so only the buckets from there to e's end are read: two small buckets for an
  // attack repeated over 100 KB, where four buckets of 512 characters read some sixty matches each.
  const accepted = new Map<number, PatternMatch[]>();
  const BUCKET = 64;
  const LONG = 512;
  const categoryIds = new Map<string, number>();
  const categoryId = (c: string): number => {
    let id = categoryIds.get(c);
    if (id === undefined) {
      id = categoryIds.size;
      categoryIds.set(c, id);
    }
    return id;
  };
  const long: PatternMatch[] = [];
  const longest: number[] = [];
  const overlapsAccepted = (e: PatternMatch, category: number): boolean => {
    for (const a of long) if (a.category === e.category && a.start < e.end && e.start < a.end) return true;
    const reach = longest[category] ?? 0;
    for (let b = Math.floor((e.start - reach) / BUCKET); b <= Math.floor(e.end / BUCKET); b++) {
      const bucket = accepted.get(b * 1024 + category);
      if (bucket) for (const a of bucket) if (a.start < e.end && e.start < a.end) return true;
    }
    return false;
  };
  // Every piece of evidence is a match of the result, in this order (sorted by start at the end).
  const matches = evidence;
  for (const e of evidence) {
    const category = categoryId(e.category);
    if (overlapsAccepted(e, category)) continue;
    bestByPattern.set(e.patternId, Math.max(bestByPattern.get(e.patternId) ?? 0, e.weight));
    if (e.end - e.start > LONG) {
      long.push(e);
      continue;
    }
    longest[category] = Math.max(longest[category] ?? 0, e.end - e.start);
    const key = Math.floor(e.start / BUCKET) * 1024 + category;
    const bucket = accepted.get(key);
    if (bucket) bucket.push(e);
    else accepted.set(key, [e]);
  }

  // The language is guessed from the first tokens only; the similarity reads the text's tokens itself.
  const toks = tokens(plain.text, LANGUAGE_SAMPLE);
  const sim = similarity(plain.text);
  let simValue = sim.nearest;
  if (discussion && matches.length > 0 && allQuoted) simValue *= 0.6;
  if (kind === 'indirect') simValue = Math.min(1, simValue * 1.1);

  for (const s of signals) obfuscation.add(s);
  let obfPoints = 0;
  for (const s of signals) obfPoints += OBFUSCATION_POINTS[s] ?? 0;
  if (hiddenMatch) obfPoints += HIDDEN_MATCH_POINTS;

  // The learned signal reads the normalised text in windows; its most suspicious window counts.
  const indirect = kind === 'indirect';
  const language = guessLanguage(toks);
  let learned: { logit: number; points: number; start: number; end: number; offTask: boolean } | null = null;
  const modelText = discussion ? maskQuotes(plain.text) : plain.text;
  if (model) {
    // Read here and dropped: the features may stay in the module's buffers (no copy).
    const tf = tokenFeatures(modelText, indirect, true, language);
    const w = maxWindowLogit(model, tf);
    let points = modelPoints(w.logit, warnLogit(model, language), tf.offsets.length - 1);
    // With the application's system prompt as context, an instruction off its stated task is riskier.
    const off = systemPrompt !== '' && offTask(systemPrompt, plain.text);
    if (off) points = Math.min(MODEL_MAX, points * OFF_TASK_FACTOR);
    learned = { logit: w.logit, points, start: w.start, end: w.end, offTask: off };
  }
  const parts = {
    patternWeights: [...bestByPattern.values()],
    similarity: simValue,
    obfuscationPoints: obfPoints,
  };
  const score = combineScore({ ...parts, modelPoints: learned?.points ?? 0 });
  const action = actionFor(score, thresholds);
  const categories = new Set<string>();
  for (const m of matches) if (m.weight >= 15) categories.add(m.category);
  if (categories.size === 0 && sim.category && similarityPoints(simValue) >= 20) categories.add(sim.category);
  if (hiddenMatch || (obfPoints >= 15 && score >= thresholds.log)) categories.add('obfuscation');
  // The signal that gave the most points. A score that no match, similar attack or obfuscation explains
  // (the model alone blocked "word " × 400 at 85 with no category) is given that signal's category.
  const topSignal = strongestSignal(
    bestByPattern.size > 0 ? Math.max(...bestByPattern.values()) : 0,
    similarityPoints(simValue),
    Math.min(OBFUSCATION_CAP, obfPoints),
    learned?.points ?? 0,
  );
  if (categories.size === 0 && score > 0 && score >= thresholds.log) {
    if (topSignal === 'model') categories.add(MODEL_CATEGORY);
    else if (topSignal === 'similarity' && sim.category) categories.add(sim.category);
    else if (topSignal === 'obfuscation') categories.add('obfuscation');
  }
  if (score >= thresholds.log && [...categories].some((c) => INJECTION_FAMILY.has(c)))
    categories.add('prompt_injection');
  if (score >= thresholds.log && (categories.has('roleplay_jailbreak') || categories.has('dan_jailbreak'))) {
    categories.add('jailbreak');
  }

  const details: AnalysisResult['details'] = {
    tfidf_score: Math.round(sim.top3 * 1000) / 1000,
    pattern_matches: 0,
    semantic_similarity: Math.round(simValue * 1000) / 1000,
    obfuscation: [...obfuscation].sort(),
    top_signal: topSignal,
  };
  if (learned && model) {
    details.model = {
      version: model.version,
      logit: Math.round(learned.logit * 1000) / 1000,
      points: Math.round(learned.points * 10) / 10,
      ...(systemPrompt ? { off_task: learned.offTask } : {}),
    };
  }
  if (language) details.language = language;
  const all = matches.sort((a, b) => a.start - b.start || b.end - a.end);
  const shown = withoutRepeats(all);
  details.pattern_matches = shown.length;
  const result: AnalysisResult = {
    score,
    severity: severityFor(score, thresholds),
    action,
    categories: [...categories].sort(),
    safe: action === 'allow' || action === 'log',
    details,
    matches: shown.slice(0, MAX_MATCHES),
  };
  return { result, all, parts: { ...parts, normalised: modelText, indirect, language } };
}
