import { normalise } from './normalize.js';
import { referenceAttacks } from './reference/index.js';

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
  postingsDoc: Int32Array[];
  postingsWeight: Float64Array[];
  docCategory: string[];
  docCount: number;
  oovIdf: number;
  /** Every word of the reference corpus, numbered, so bigrams are looked up by number. */
  refWords: Map<string, number>;
  bigrams: Map<number, number>;
}

const BIGRAM_SHIFT = 2 ** 20;

let index: Index | null = null;

const TOKEN = /[a-z0-9]+(?:'[a-z]+)?/g;

export function tokens(text: string): string[] {
  return text.match(TOKEN) ?? [];
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
  return {
    vocab,
    idf,
    postingsDoc: postD.map((a) => Int32Array.from(a)),
    postingsWeight: postW.map((a) => Float64Array.from(a)),
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
}

/** Words repeat across calls; their features depend only on the fixed index. Bounded, cleared when full. */
const wordCache = new Map<string, WordFeatures>();
const WORD_CACHE_MAX = 50_000;

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
  return { ids: Int32Array.from(ids), oovSquares: oov, ref: ix.refWords.get(w) ?? -1 };
}

/** `toks` may be passed when the caller already tokenised the same text. */
export function similarity(normalisedText: string, toks: string[] = tokens(normalisedText)): Similarity {
  index ??= buildIndex();
  const ix = index;
  const perWord: WordFeatures[] = toks.map((w) => {
    let f = wordCache.get(w);
    if (!f) {
      if (wordCache.size >= WORD_CACHE_MAX) wordCache.clear();
      f = wordFeatures(ix, w);
      wordCache.set(w, f);
    }
    return f;
  });
  const bigram = new Int32Array(Math.max(0, toks.length - 1));
  for (let i = 0; i + 1 < toks.length; i++) {
    const a = (perWord[i] as WordFeatures).ref;
    const b = (perWord[i + 1] as WordFeatures).ref;
    bigram[i] = a >= 0 && b >= 0 ? (ix.bigrams.get(a * BIGRAM_SHIFT + b) ?? -1) : -1;
  }

  const counts = new Float64Array(ix.idf.length);
  const present: number[] = [];
  const scores = new Float64Array(ix.docCount);
  const touched: number[] = [];
  let best: Similarity = { nearest: 0, top3: 0, category: null, window: [0, 0] };
  // A window's score depends only on its words, and only a strictly better window replaces the best: a
  // window whose words were already scored is skipped. Repetitive text (the same attack line ten thousand
  // times, #15) then costs its distinct windows, not its length times the postings of its words.
  const scored = new Set<string>();
  for (let from = 0; from < Math.max(toks.length, 1); from += STRIDE) {
    const to = Math.min(toks.length, from + WINDOW);
    const words = toks.slice(from, to).join(' ');
    if (scored.has(words)) {
      if (to >= toks.length) break;
      continue;
    }
    scored.add(words);
    let qnorm = 0;
    const bump = (id: number): void => {
      if (counts[id] === 0) present.push(id);
      counts[id] = (counts[id] as number) + 1;
    };
    for (let i = from; i < to; i++) {
      const f = perWord[i] as WordFeatures;
      qnorm += f.oovSquares;
      for (let k = 0; k < f.ids.length; k++) bump(f.ids[k] as number);
      if (i + 1 < to) {
        const b = bigram[i] as number;
        if (b >= 0) bump(b);
        else qnorm += (ix.oovIdf * OOV_GRAM) ** 2;
      }
    }
    for (const id of present) {
      const w = (1 + Math.log(counts[id] as number)) * (ix.idf[id] as number);
      counts[id] = 0;
      qnorm += w * w;
      const docs = ix.postingsDoc[id] as Int32Array;
      const ws = ix.postingsWeight[id] as Float64Array;
      for (let p = 0; p < docs.length; p++) {
        const d = docs[p] as number;
        if (scores[d] === 0) touched.push(d);
        scores[d] = (scores[d] as number) + w * (ws[p] as number);
      }
    }
    present.length = 0;
    qnorm = Math.sqrt(qnorm) || 1;
    let a = 0;
    let b = 0;
    let c = 0;
    let ai = -1;
    for (const d of touched) {
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
    touched.length = 0;
    // A handful of words can share one rare bigram with an attack; short windows count for less.
    const shortness = Math.min(1, (to - from) / SHORT_WINDOW);
    a *= shortness;
    b *= shortness;
    c *= shortness;
    if (a > best.nearest) {
      best = { nearest: a, top3: (a + b + c) / 3, category: ix.docCategory[ai] ?? null, window: [from, to] };
    }
    if (to >= toks.length) break;
  }
  return best;
}

/** How many reference attacks the similarity compares against. */
export function referenceSize(): number {
  index ??= buildIndex();
  return index.docCount;
}
