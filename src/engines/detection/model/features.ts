// Features of the learned signal: hashed word unigrams, word bigrams and character 4-grams of the normalised
// text (lower case, accents folded, look-alikes and leetspeak undone by normalize.ts). Features are produced
// token by token, so a window of tokens is a contiguous run of the flat id array and a window's sum is a
// difference of prefix sums. Text an assistant reads (context 'document', 'email', 'tool'…) gets every
// feature twice, once plain and once salted, so the model can learn what is suspicious inside a document
// in particular while sharing what holds everywhere.
// Beside the words (unigrams, bigrams, trigrams) and character 4-grams, every word that has a concept in
// concepts.ts adds the concept and ordered pairs and triples of nearby concepts, which carry what the
// model learns across the five languages; and the first word of a sentence or line (and its concept) is
// marked, since an instruction starts with its verb ("Ignore…", "Ignorez…", "Ignoriere…").
import { SpanMemo } from '../span-memo.js';
import { CONCEPTS_V2, conceptOf, formLanguages, LANGUAGE_BITS } from './concepts.js';

export const DIM_BITS = 20;
export const DIM = 1 << DIM_BITS;
const MASK = DIM - 1;
/**
 * Words per window; texts are read in windows of this many words, overlapping by half, and the most
 * suspicious window counts. Since inj-lr-4 the window is 16 words (48 before): a hijack of one or two
 * sentences after an ordinary question was diluted by the question in a 48-word window, and on the dev
 * split windows of 12 to 24 words all did better than 48 (16 best for the four other languages).
 */
export const WINDOW = 16;
export const STRIDE = 8;
const INDIRECT_SALT = 0x5bd1e995;
/**
 * Words inside a double-quoted run get their own features: a quoted "ignore your instructions" inside a
 * question about it is not the same evidence as the instruction itself, and the model learns the
 * difference from the quoted attacks among the hard negatives. (Single quotes are left out: French and
 * Italian elisions, "l'assistant", are not quotation marks.)
 */
const QUOTE_SALT = 0x27d4eb2d;
const QUOTED = /"[^"\n]{3,400}"|«[^»\n]{3,400}»|“[^”\n]{3,400}”|„[^“”\n]{3,400}[“”]/g;

export interface TokenFeatures {
  /** Feature ids of every token, token after token. */
  ids: Uint32Array;
  /** offsets[t]..offsets[t + 1] are the ids of token t; length = tokens + 1. */
  offsets: Uint32Array;
}

/** Which feature kinds are produced; the defaults are what the shipped model was trained with. */
export const FEATURE_SET = {
  trigrams: true,
  concepts: true,
  sentenceStart: true,
  quotes: true,
  /** The concepts added after inj-lr-2 (FOLLOW, NOT, SUMMARIZE, READER). */
  laterConcepts: true,
  /**
   * Concept forms that are false friends between the languages ("du": German "you", French "of the") carry
   * their concept only in the text's guessed language (concepts.ts, FORM_LANGUAGES). Read once per text.
   * Off: tried as inj-lr-12, dev 83.7 (= inj-lr-6, French +4.2), leave-one-source-out 84.2 with hard
   * negatives 2.9 % (not shipped; docs/detection.md, results/loso-inj-lr-12.txt).
   */
  formLanguages: false,
  /** Words per window and the step between windows (dev.ts --window compares other sizes). */
  window: WINDOW,
  stride: STRIDE,
};
/** Concepts this many tokens apart or closer form a pair. */
const CONCEPT_REACH = 4;

// . ! ? newline : ; > (a quoted e-mail line) end a sentence: the next word starts one.
const isBoundaryCode = (c: number): boolean =>
  c === 46 || c === 33 || c === 63 || c === 10 || c === 58 || c === 59 || c === 62;

const isWordCode = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c > 127;

/**
 * A feature id of kind `kind` from a hash. Only the DIM_BITS low bits of a feature hash are ever used (the
 * ids are masked), so only they are returned: a small integer, where the full 32-bit hash was a heap
 * number allocated per feature, most of the garbage of the features of a long text (#15).
 */
function mix(h: number, kind: number): number {
  let x = Math.imul(h ^ (kind * 0x9e3779b1), 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x & MASK;
}

function gram(a: number, b: number, c: number, d: number): number {
  let h = 0x811c9dc5;
  h = Math.imul(h ^ a, 0x01000193);
  h = Math.imul(h ^ b, 0x01000193);
  h = Math.imul(h ^ c, 0x01000193);
  h = Math.imul(h ^ d, 0x01000193);
  return mix(h, 3);
}

/** The concepts of the words seen lately, by their span in the text (no slice per token, #15). */
const recentConcepts = new SpanMemo<number>(4096);

/**
 * conceptOf(text.slice(start, end)) in the low 8 bits and formLanguages of the word above them, where `hash`
 * is a hash of the word's characters.
 */
function conceptAt(text: string, start: number, end: number, hash: number): number {
  const known = recentConcepts.get(text, start, end, hash);
  if (known !== undefined) return known;
  const word = text.slice(start, end);
  const c = conceptOf(word) | (formLanguages(word) << 8);
  recentConcepts.set(word, hash, c);
  return c;
}

let idBuf = new Uint32Array(4096);
let offBuf = new Uint32Array(1024);

/**
 * Features of `text`, which must already be normalised (normalise(text).plain.text). With `shared`, the
 * arrays returned are views of this module's buffers, valid only until the next call: for a caller that
 * reads them at once (the engine scores and drops them), where a copy of a 100 KB text's features was
 * most of the memory it allocated (#15). Without, they are the caller's own (training keeps them).
 * `language` is the engine's guess of the text's language (guessLanguage): a form that is a concept's word
 * only in some languages ("du" is German "you", French "of the") carries it only in those.
 */
export function tokenFeatures(
  text: string,
  indirect: boolean,
  shared = false,
  language?: string,
): TokenFeatures {
  const langBit = language === undefined || !FEATURE_SET.formLanguages ? 0 : (LANGUAGE_BITS[language] ?? 0);
  let n = 0;
  let t = 0;
  const copies = indirect ? 2 : 1;
  let salt = 0;
  const push = (h: number): void => {
    if (n + 2 > idBuf.length) {
      const bigger = new Uint32Array(idBuf.length * 2);
      bigger.set(idBuf);
      idBuf = bigger;
    }
    idBuf[n++] = (h ^ salt) & MASK;
    if (copies === 2) idBuf[n++] = (h ^ salt ^ INDIRECT_SALT) & MASK;
  };
  let prev = 0;
  let prev2 = 0;
  let c1 = 0;
  let c1At = -10;
  let c2 = 0;
  let c2At = -10;
  let boundary = true;
  const { trigrams, concepts, sentenceStart, quotes, laterConcepts } = FEATURE_SET;
  // Quoted runs as [start, end) pairs, in order; `q` is the first that may still hold a later word.
  const quoted: number[] = [];
  if (quotes) {
    QUOTED.lastIndex = 0;
    for (let m = QUOTED.exec(text); m !== null; m = QUOTED.exec(text))
      quoted.push(m.index, m.index + m[0].length);
  }
  let q = 0;
  const len = text.length;
  let i = 0;
  while (i < len) {
    let c = text.charCodeAt(i);
    if (!isWordCode(c)) {
      if (isBoundaryCode(c)) boundary = true;
      i++;
      continue;
    }
    if (t + 2 > offBuf.length) {
      const bigger = new Uint32Array(offBuf.length * 2);
      bigger.set(offBuf);
      offBuf = bigger;
    }
    const tok = t;
    offBuf[t++] = n;
    while (q < quoted.length && (quoted[q + 1] as number) <= i) q += 2;
    salt = q < quoted.length && (quoted[q] as number) <= i ? QUOTE_SALT : 0;
    // Word hash (FNV-1a) and character 4-grams of "^word$" (markers 2 and 3), from the last three codes.
    let h = 0x811c9dc5;
    let p3 = 0;
    let p2 = 0;
    let p1 = 2;
    let count = 1;
    const start = i;
    let long = false;
    while (i < len) {
      c = text.charCodeAt(i);
      if (!isWordCode(c)) break;
      h = Math.imul(h ^ c, 0x01000193);
      if (count >= 3) push(gram(p3, p2, p1, c));
      p3 = p2;
      p2 = p1;
      p1 = c;
      count++;
      i++;
      if (i - start >= 40) {
        // A very long run (a base64 blob, a URL) is one token; its tail adds nothing.
        while (i < len && isWordCode(text.charCodeAt(i))) i++;
        long = true;
        break;
      }
    }
    if (count >= 3) push(gram(p3, p2, p1, 3));
    // As an int32 (every use below reads it through a bitwise operation): a small integer V8 passes
    // without allocating, where the unsigned value above 2^31 was a heap number per call.
    h |= 0;
    push(mix(h, 1));
    if (prev !== 0) push(mix(Math.imul(prev, 0x2f0e1eb9) ^ h, 2));
    if (trigrams && prev2 !== 0) push(mix(Math.imul(prev2, 0x1b873593) ^ Math.imul(prev, 0x2f0e1eb9) ^ h, 8));
    const first = sentenceStart && boundary;
    if (first) push(mix(h, 4));
    if (concepts && !long) {
      const packed = conceptAt(text, start, i, h);
      let k = packed & 255;
      // A form of another language's concept ("du" in French text) carries none.
      if (packed > 255 && langBit !== 0 && ((packed >>> 8) & langBit) === 0) k = 0;
      if (k > CONCEPTS_V2 && !laterConcepts) k = 0;
      if (k !== 0) {
        push(mix(k, 5));
        if (first) push(mix(k, 7));
        if (tok - c1At <= CONCEPT_REACH) {
          push(mix(c1 * 64 + k, 6));
          if (c1At - c2At <= CONCEPT_REACH) push(mix((c2 * 64 + c1) * 64 + k, 9));
        }
        c2 = c1;
        c2At = c1At;
        c1 = k;
        c1At = tok;
      }
    }
    boundary = false;
    prev2 = prev;
    prev = h;
  }
  offBuf[t] = n;
  if (shared) return { ids: idBuf.subarray(0, n), offsets: offBuf.subarray(0, t + 1) };
  return { ids: idBuf.slice(0, n), offsets: offBuf.slice(0, t + 1) };
}

/**
 * The starts of the token windows of a text of `tokens` tokens, in order: one window, or overlapping ones
 * to the end; each window is Math.min(tokens, FEATURE_SET.window) tokens long. (One array, not a pair per
 * window: the scoring of a long text reads thousands of them.)
 */
export function windowStarts(tokens: number): Int32Array {
  const { window, stride } = FEATURE_SET;
  if (tokens <= window) return Int32Array.of(0);
  const out = new Int32Array(Math.ceil((tokens - window) / stride) + 1);
  let k = 0;
  for (let s = 0; s + window < tokens; s += stride) out[k++] = s;
  out[k] = tokens - window;
  return out;
}

/** Token windows [start, end) of a text of `tokens` tokens (windowStarts as pairs). */
export function windows(tokens: number): [number, number][] {
  const span = Math.min(tokens, FEATURE_SET.window);
  return Array.from(windowStarts(tokens), (s): [number, number] => [s, s + span]);
}
