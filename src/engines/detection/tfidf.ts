import { normalise } from './normalize.js';
import { referenceAttacks } from './reference/index.js';
import { FNV_START, fnvStep, HASHED_CHARS, SpanMemo } from './span-memo.js';

/**
 * Word (1-2 gram) and character (5-gram, inside words) TF-IDF against the reference attacks, cosine
 * similarity to the nearest ones. Long inputs are read in overlapping windows of WINDOW words, so an
 * attack buried in a long document is compared at its own scale and time stays linear in length.
 */
/** Character n-gram length, and the shortest word that gets them. */
const GRAM = 5;
const GRAM_MIN_WORD = 5;
const WINDOW = 40;
/** Windows shorter than this many words have their similarity scaled down proportionally. */
const SHORT_WINDOW = 8;
const STRIDE = 20;
/** Features present in more than this share of reference attacks carry little signal; skip them. */
const MAX_DF_SHARE = 0.1;

interface Index {
  vocab: Map<string, number>;
  idf: Float64Array;
  /** Postings of feature id: docs and weights from postingsStart[id] to postingsStart[id + 1], one flat array. */
  postingsStart: Int32Array;
  postingsDoc: Int32Array;
  postingsWeight: Float64Array;
  docCategory: string[];
  docCount: number;
  oovIdf: number;
  /** Every word of the reference corpus, numbered, so bigrams are looked up by number. */
  refWords: Map<string, number>;
  bigrams: Map<number, number>;
}

const BIGRAM_SHIFT = 2 ** 20;

let index: Index | null = null;
/** Scratch of `similarity`: the count of each vocabulary feature in the current window. */
let windowCounts: Float64Array | null = null;

const TOKEN = /[a-z0-9]+(?:'[a-z]+)?/g;
/** Where a token may start (tokenWords). */
const TOKEN_START = /[a-z0-9]/g;

/** The tokens of a text (what TOKEN finds), the first `limit` of them when given. */
export function tokens(text: string, limit = Number.POSITIVE_INFINITY): string[] {
  if (limit === Number.POSITIVE_INFINITY) return text.match(TOKEN) ?? [];
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m !== null && out.length < limit; m = TOKEN.exec(text)) out.push(m[0]);
  return out;
}

function addFeatures(toks: string[], from: number, to: number, out: Map<string, number>): void {
  for (let i = from; i < to; i++) {
    const w = toks[i] as string;
    out.set(w, (out.get(w) ?? 0) + 1);
    if (i + 1 < to) {
      const bi = `${w} ${toks[i + 1]}`;
      out.set(bi, (out.get(bi) ?? 0) + 1);
    }
    if (w.length >= GRAM_MIN_WORD) {
      const padded = `<${w}>`;
      for (let k = 0; k + GRAM <= padded.length; k++) {
        const g = `#${padded.slice(k, k + GRAM)}`;
        out.set(g, (out.get(g) ?? 0) + 1);
      }
    }
  }
}

function bigramTables(vocab: Map<string, number>): {
  refWords: Map<string, number>;
  bigrams: Map<number, number>;
} {
  const refWords = new Map<string, number>();
  const bigrams = new Map<number, number>();
  const num = (w: string): number => {
    let id = refWords.get(w);
    if (id === undefined) {
      id = refWords.size;
      refWords.set(w, id);
    }
    return id;
  };
  for (const [k, id] of vocab) {
    if (k.startsWith('#')) continue;
    const parts = k.split(' ');
    if (parts.length === 1) num(k);
    else bigrams.set(num(parts[0] as string) * BIGRAM_SHIFT + num(parts[1] as string), id);
  }
  return { refWords, bigrams };
}

function buildIndex(): Index {
  const refs = referenceAttacks();
  const docs = refs.map((r) => {
    const f = new Map<string, number>();
    const t = tokens(normalise(r.text).plain.text);
    addFeatures(t, 0, t.length, f);
    return f;
  });
  const df = new Map<string, number>();
  for (const d of docs) for (const k of d.keys()) df.set(k, (df.get(k) ?? 0) + 1);
  const n = docs.length;
  const vocab = new Map<string, number>();
  const idfList: number[] = [];
  for (const [k, c] of df) {
    if (c / n > MAX_DF_SHARE) continue;
    vocab.set(k, idfList.length);
    idfList.push(Math.log((n + 1) / (c + 1)) + 1);
  }
  const idf = Float64Array.from(idfList);
  const postD: number[][] = idfList.map(() => []);
  const postW: number[][] = idfList.map(() => []);
  docs.forEach((d, docId) => {
    let norm = 0;
    const entries: [number, number][] = [];
    for (const [k, c] of d) {
      const id = vocab.get(k);
      if (id === undefined) continue;
      const w = (1 + Math.log(c)) * (idf[id] as number);
      entries.push([id, w]);
      norm += w * w;
    }
    norm = Math.sqrt(norm) || 1;
    for (const [id, w] of entries) {
      (postD[id] as number[]).push(docId);
      (postW[id] as number[]).push(w / norm);
    }
  });
  const postingsStart = new Int32Array(idfList.length + 1);
  for (let id = 0; id < idfList.length; id++)
    postingsStart[id + 1] = (postingsStart[id] as number) + (postD[id] as number[]).length;
  return {
    vocab,
    idf,
    postingsStart,
    postingsDoc: Int32Array.from(postD.flat()),
    postingsWeight: Float64Array.from(postW.flat()),
    docCategory: refs.map((r) => r.category),
    docCount: n,
    oovIdf: Math.log(n + 1) + 1,
    ...bigramTables(vocab),
  };
}

export interface Similarity {
  /** Cosine to the nearest reference attack, best window, 0..1. */
  nearest: number;
  /** Mean cosine of the three nearest reference attacks in that window, 0..1. */
  top3: number;
  category: string | null;
  /** Word offsets [from, to) of the best window, into tokens(text). */
  window: [number, number];
}

/** What one distinct word of the input contributes: its vocabulary features and its unknown mass. */
interface WordFeatures {
  ids: Int32Array;
  oovSquares: number;
  /** Number of the word in the reference corpus, -1 when it never occurs there. */
  ref: number;
  /** A number of its own (a serial), so that a window of words is compared as numbers, not strings. */
  serial: number;
}

let serials = 0;

/** Words repeat across calls; their features depend only on the fixed index. Bounded, cleared when full. */
const wordCache = new Map<string, WordFeatures>();
const WORD_CACHE_MAX = 50_000;

/**
 * 1 + ln(count) for the small counts of a feature in a window, the same numbers Math.log gives, read from
 * a table: the logarithm per feature per window was an eighth of the similarity of a long text (#15).
 */
const LOG_TF = Float64Array.from({ length: 2 * WINDOW + 1 }, (_, c) => 1 + Math.log(c));

const OOV_WORD = 0.5;
const OOV_GRAM = 0.25;

function wordFeatures(ix: Index, w: string): WordFeatures {
  const ids: number[] = [];
  let oov = 0;
  const uni = ix.vocab.get(w);
  if (uni === undefined) oov += (ix.oovIdf * OOV_WORD) ** 2;
  else ids.push(uni);
  if (w.length >= GRAM_MIN_WORD) {
    const padded = `<${w}>`;
    for (let k = 0; k + GRAM <= padded.length; k++) {
      const id = ix.vocab.get(`#${padded.slice(k, k + GRAM)}`);
      if (id === undefined) oov += (ix.oovIdf * OOV_GRAM) ** 2;
      else ids.push(id);
    }
  }
  return { ids: Int32Array.from(ids), oovSquares: oov, ref: ix.refWords.get(w) ?? -1, serial: serials++ };
}

/** The features of the words seen lately, by their span in a text (no string per token, #15). */
const recentWords = new SpanMemo<WordFeatures>(4096);

/**
 * Hashes of words met once lately, by slot: a word enters the memo and the cache on its second sighting.
 * A new turn's unknown words are mostly met once (numbers, ids, the values personal data is made of); kept
 * in the cache, each one's features outlived the young generation and waited for a full collection (the
 * network proxy's survivors, docs/netproxy.md). Numbers only, so the filter itself is nothing to collect.
 */
const seenOnce = new Int32Array(1 << 16);
const SEEN_MASK = (1 << 16) - 1;

/**
 * Words met for the first time in the current call, cleared when it ends: a word repeated within one
 * text is computed once and keeps one serial (the window dedupe below relies on it), even when two such
 * words keep taking each other's slot in `seenOnce`.
 */
const callWords = new Map<string, WordFeatures>();

/** The features of the word text[start, end), whose hash (fnvStep over its characters) is `hash`. */
function featuresAt(ix: Index, text: string, start: number, end: number, hash: number): WordFeatures {
  const known = recentWords.get(text, start, end, hash);
  if (known) return known;
  const w = text.slice(start, end);
  let f = wordCache.get(w);
  if (!f) {
    f = callWords.get(w);
    if (f) return f;
    f = wordFeatures(ix, w);
    // The hash covers the first HASHED_CHARS characters only: the length goes into the key too (long ids
    // sharing a prefix), and the low bit is set so that no key equals the table's initial zeros.
    const key = (hash ^ Math.imul(end - start, 0x9e3779b1)) | 1;
    const slot = key & SEEN_MASK;
    // First sighting (or its slot was taken since): the features serve this call only. A collision of
    // keys only lets a word in one sighting early; the features are the same either way.
    if (seenOnce[slot] !== key) {
      seenOnce[slot] = key;
      callWords.set(w, f);
      return f;
    }
    if (wordCache.size >= WORD_CACHE_MAX) wordCache.clear();
    wordCache.set(w, f);
  }
  recentWords.set(w, hash, f);
  return f;
}

const isLowerCode = (c: number): boolean => c >= 97 && c <= 122;
const isAlnumCode = (c: number): boolean => isLowerCode(c) || (c >= 48 && c <= 57);

/**
 * The list tokenWords fills: kept between calls (similarity is not re-entered) up to WORDS_KEEP entries,
 * as an array grown per call to the thousands of tokens of a long text was much of its garbage (#15).
 */
let wordList: WordFeatures[] = [];
const WORDS_KEEP = 1 << 15;

/**
 * The features of every token of the text, in order, in `wordList` (their count is returned): the tokens
 * TOKEN finds (`[a-z0-9]+(?:'[a-z]+)?`, leftmost, longest, one after another), read by a loop over char
 * codes.
 */
function tokenWords(ix: Index, text: string): number {
  if (wordList.length > WORDS_KEEP) wordList = [];
  const out = wordList;
  let n = 0;
  const len = text.length;
  let i = 0;
  let gap = 0;
  while (i < len) {
    let c = text.charCodeAt(i);
    if (!isAlnumCode(c)) {
      i++;
      // A long run without a token (punctuation, spaces, another script) is skipped by the regular
      // expression engine, several times faster than this loop; gaps between words are short.
      if (++gap === 16) {
        TOKEN_START.lastIndex = i;
        if (!TOKEN_START.test(text)) break;
        i = TOKEN_START.lastIndex - 1;
      }
      continue;
    }
    gap = 0;
    const start = i;
    // The memo's hash reads the first HASHED_CHARS characters only (a long token is not memoised).
    let h = FNV_START;
    for (; i < len; i++) {
      c = text.charCodeAt(i);
      if (!isAlnumCode(c)) break;
      if (i - start < HASHED_CHARS) h = fnvStep(h, c);
    }
    // An elision or a contraction ("l'utente", "don't"): an apostrophe followed by letters.
    if (i + 1 < len && c === 39 && isLowerCode(text.charCodeAt(i + 1))) {
      if (i - start < HASHED_CHARS) h = fnvStep(h, 39);
      for (i++; i < len; i++) {
        c = text.charCodeAt(i);
        if (!isLowerCode(c)) break;
        if (i - start < HASHED_CHARS) h = fnvStep(h, c);
      }
    }
    out[n++] = featuresAt(ix, text, start, i, h);
  }
  return n;
}

export function similarity(normalisedText: string): Similarity {
  index ??= buildIndex();
  const ix = index;
  callWords.clear();
  const n = tokenWords(ix, normalisedText);
  // The call's first sightings are in perWord from here on; the map is not needed past the tokens.
  callWords.clear();
  const perWord = wordList;
  const bigram = new Int32Array(Math.max(0, n - 1));
  // The last pair looked up is kept: repetitive text ("a a a …") asks for the same pair throughout.
  let lastKey = -1;
  let lastId = -1;
  for (let i = 0; i + 1 < n; i++) {
    const a = (perWord[i] as WordFeatures).ref;
    const b = (perWord[i + 1] as WordFeatures).ref;
    if (a < 0 || b < 0) {
      bigram[i] = -1;
      continue;
    }
    const key = a * BIGRAM_SHIFT + b;
    if (key !== lastKey) {
      lastKey = key;
      lastId = ix.bigrams.get(key) ?? -1;
    }
    bigram[i] = lastId;
  }

  // Zero between windows and between calls (each window clears what it set): one table for every call,
  // not a vocabulary-sized array per call for the collector.
  windowCounts ??= new Float64Array(ix.idf.length);
  const counts = windowCounts;
  // Feature ids in order of first appearance in the window, and the docs touched in order of first score.
  let present = new Int32Array(256);
  let presentN = 0;
  const touched = new Int32Array(ix.docCount);
  let touchedN = 0;
  const scores = new Float64Array(ix.docCount);
  const { postingsStart, postingsDoc, postingsWeight, idf } = ix;
  const oovBigram = (ix.oovIdf * OOV_GRAM) ** 2;
  let best: Similarity = { nearest: 0, top3: 0, category: null, window: [0, 0] };
  // A window's score depends only on its words, and only a strictly better window replaces the best: a
  // window whose words were already scored is skipped. Repetitive text (the same attack line ten thousand
  // times, #15) then costs its distinct windows, not its length times the postings of its words. Windows
  // are compared by the serial numbers of their words: a hash finds earlier windows that may be the same,
  // and their words are compared one by one (a string of the window's words per window cost a fifth of
  // the similarity on long texts). A word that got two serials (the cache cleared meanwhile) only makes
  // two equal windows look different, and scoring one twice changes nothing.
  // Float64: serials keep growing with first sightings and may pass 2^31 in a long-lived process.
  const serial = new Float64Array(n);
  for (let i = 0; i < n; i++) serial[i] = (perWord[i] as WordFeatures).serial;
  const scored = new Map<number, number[]>();
  const sameWindow = (a: number, b: number, length: number): boolean => {
    for (let k = 0; k < length; k++) if (serial[a + k] !== serial[b + k]) return false;
    return true;
  };
  for (let from = 0; from < Math.max(n, 1); from += STRIDE) {
    const to = Math.min(n, from + WINDOW);
    let h = to - from;
    for (let i = from; i < to; i++) h = (Math.imul(h, 0x01000193) ^ (serial[i] as number)) | 0;
    const earlier = scored.get(h);
    if (earlier?.some((e) => Math.min(n, e + WINDOW) - e === to - from && sameWindow(e, from, to - from))) {
      if (to >= n) break;
      continue;
    }
    if (earlier) earlier.push(from);
    else scored.set(h, [from]);
    let qnorm = 0;
    for (let i = from; i < to; i++) {
      const f = perWord[i] as WordFeatures;
      qnorm += f.oovSquares;
      const ids = f.ids;
      for (let k = 0; k <= ids.length; k++) {
        let id: number;
        if (k < ids.length) id = ids[k] as number;
        else {
          if (i + 1 >= to) break;
          id = bigram[i] as number;
          if (id < 0) {
            qnorm += oovBigram;
            break;
          }
        }
        if (counts[id] === 0) {
          if (presentN === present.length) {
            const bigger = new Int32Array(present.length * 2);
            bigger.set(present);
            present = bigger;
          }
          present[presentN++] = id;
        }
        counts[id] = (counts[id] as number) + 1;
      }
    }
    for (let x = 0; x < presentN; x++) {
      const id = present[x] as number;
      const count = counts[id] as number;
      const w =
        (count < LOG_TF.length ? (LOG_TF[count] as number) : 1 + Math.log(count)) * (idf[id] as number);
      counts[id] = 0;
      qnorm += w * w;
      const end = postingsStart[id + 1] as number;
      for (let p = postingsStart[id] as number; p < end; p++) {
        const d = postingsDoc[p] as number;
        if (scores[d] === 0) touched[touchedN++] = d;
        scores[d] = (scores[d] as number) + w * (postingsWeight[p] as number);
      }
    }
    presentN = 0;
    qnorm = Math.sqrt(qnorm) || 1;
    let a = 0;
    let b = 0;
    let c = 0;
    let ai = -1;
    for (let x = 0; x < touchedN; x++) {
      const d = touched[x] as number;
      const sc = (scores[d] as number) / qnorm;
      scores[d] = 0;
      if (sc > a) {
        c = b;
        b = a;
        a = sc;
        ai = d;
      } else if (sc > b) {
        c = b;
        b = sc;
      } else if (sc > c) c = sc;
    }
    touchedN = 0;
    // A handful of words can share one rare bigram with an attack; short windows count for less.
    const shortness = Math.min(1, (to - from) / SHORT_WINDOW);
    a *= shortness;
    b *= shortness;
    c *= shortness;
    if (a > best.nearest) {
      best = { nearest: a, top3: (a + b + c) / 3, category: ix.docCategory[ai] ?? null, window: [from, to] };
    }
    if (to >= n) break;
  }
  return best;
}

/** How many words the process-wide feature cache holds (tests: words met once stay out of it). */
export function wordCacheSize(): number {
  return wordCache.size;
}

/** How many reference attacks the similarity compares against. */
export function referenceSize(): number {
  index ??= buildIndex();
  return index.docCount;
}
