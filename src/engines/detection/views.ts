import { findPayloads, rot13 } from './decode.js';
import { letterTrie } from './letter-trie.js';
import { isWidthSignal, normalise, type View, ViewBuilder } from './normalize.js';

// Words whose reversed or ROT13 form betrays a hidden sentence. Short palindromes are left out.
const CUE_WORDS = new Set([
  'della',
  'per',
  'non',
  'che',
  'con',
  'del',
  'los',
  'para',
  'por',
  'una',
  'pour',
  'dans',
  'nicht',
  'mit',
  'das',
  'ist',
  'sind',
  'sei',
  'sono',
  'tutto',
  'todo',
  'tout',
  'the',
  'and',
  'you',
  'your',
  'all',
  'are',
  'previous',
  'instructions',
  'ignore',
  'system',
  'prompt',
  'tell',
  'reveal',
  'with',
  'for',
  'this',
  'now',
  'rules',
  'forget',
  'disregard',
  'secret',
  'password',
  'what',
  'from',
  'les',
  'des',
  'vos',
  'tes',
  'instructions',
  'die',
  'und',
  'der',
  'alle',
  'anweisungen',
  'istruzioni',
  'tutte',
  'las',
  'todas',
  'instrucciones',
  'que',
  'ignora',
  'ignorez',
  'ignoriere',
  'must',
  'tell',
  'how',
  'explain',
  'write',
  'say',
  'not',
  'just',
  'mode',
  'enable',
  'toutes',
  'consignes',
  'regles',
  'deine',
  'mir',
  'tutte',
  'tue',
  'tus',
  'reglas',
  'modo',
  'modus',
  'ton',
  'prompt',
  'affiche',
  'zeig',
  'gib',
  'mostrami',
  'muestrame',
  'dimmi',
  'dime',
  'active',
  'aktiviere',
  'attiva',
  'activa',
  'nouvelles',
  'neue',
  'nuove',
  'nuevas',
  'oublie',
  'vergiss',
  'dimentica',
  'olvida',
  'ne',
  'fais',
  'finge',
  'fai',
]);

export interface ViewSet {
  views: View[];
  signals: Set<string>;
}

function reverseView(v: View, source: string): View {
  const n = v.text.length;
  const starts = new Int32Array(n);
  const ends = new Int32Array(n);
  let text = '';
  for (let i = n - 1, k = 0; i >= 0; i--, k++) {
    text += v.text[i];
    starts[k] = v.starts[i] as number;
    ends[k] = v.ends[i] as number;
  }
  return { source, text, starts, ends, changed: null };
}

const reverseWord = (w: string): string => [...w].reverse().join('');
const CUE_PLAIN = 1;
const CUE_REVERSED = 2;
const CUE_ROT13 = 4;
/** Each cue word, its reversal and its ROT13 form, marked with what reading they betray. */
const CUES = new Map<string, number>();
for (const w of CUE_WORDS) CUES.set(w, CUE_PLAIN);
for (const w of CUE_WORDS) {
  const r = reverseWord(w);
  if (!CUE_WORDS.has(r)) CUES.set(r, (CUES.get(r) ?? 0) | CUE_REVERSED);
  const rot = rot13(w);
  if (!CUE_WORDS.has(rot)) CUES.set(rot, (CUES.get(rot) ?? 0) | CUE_ROT13);
}

/**
 * The cue words in a trie over a–z: CUE_NEXT[node * 26 + letter] = child, or -1 (node 0 the root);
 * CUE_MASK[node] = what the word ending there betrays, 0 when no cue word ends there. A chunk of the text
 * is looked up by walking its letters, with no string made: a slice and a map lookup per word (every
 * word of an attack line is a cue word) were much of the garbage of this view (#15).
 */
const CUE_TRIE = (() => {
  const entries = [...CUES];
  const { next, endOf, nodes } = letterTrie(entries.map(([w]) => w));
  const mask = new Uint8Array(nodes);
  entries.forEach(([, m], i) => {
    mask[endOf[i] as number] = m;
  });
  return { next: Int32Array.from(next), mask };
})();

/** CUES.get(text.slice(at, at + n)) ?? 0, for a chunk of letters a–z, by a walk of the trie. */
function cueMask(text: string, at: number, n: number): number {
  const { next, mask } = CUE_TRIE;
  let node = 0;
  for (let k = at; k < at + n; k++) {
    node = next[node * 26 + text.charCodeAt(k) - 97] as number;
    if (node < 0) return 0;
  }
  return mask[node] as number;
}

/**
 * Lines of the text that read better backwards or through ROT13 than as they are, as [from, to, kind]
 * view offsets. Judged line by line, so one reversed sentence hidden in a long document is still found.
 * The words read are what /[a-z]{3,14}/g finds (runs of letters, cut every 14), found by a loop over
 * char codes, and each is looked up by a walk of the cue trie.
 */
function hiddenLines(text: string): [number, number, number][] {
  const out: [number, number, number][] = [];
  let lineStart = 0;
  let plain = 0;
  let reversed = 0;
  let rot = 0;
  const totals = { plain: 0, reversed: 0, rot: 0 };
  const close = (end: number): void => {
    totals.plain += plain;
    totals.reversed += reversed;
    totals.rot += rot;
    if (reversed >= 1 && reversed >= plain) out.push([lineStart, end, CUE_REVERSED]);
    if (rot >= 1 && rot >= plain) out.push([lineStart, end, CUE_ROT13]);
    plain = 0;
    reversed = 0;
    rot = 0;
  };
  let nextBreak = text.indexOf('\n');
  const len = text.length;
  const isL = (c: number): boolean => c >= 97 && c <= 122;
  let i = 0;
  while (i < len) {
    if (!isL(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const runStart = i;
    while (i < len && isL(text.charCodeAt(i))) i++;
    for (let at = runStart; i - at >= 3; ) {
      const n = Math.min(14, i - at);
      while (nextBreak >= 0 && at > nextBreak) {
        close(nextBreak);
        lineStart = nextBreak + 1;
        nextBreak = text.indexOf('\n', lineStart);
      }
      const mask = cueMask(text, at, n);
      at += n;
      if (mask === 0) continue;
      if (mask & CUE_PLAIN) plain++;
      if (mask & CUE_REVERSED) reversed++;
      if (mask & CUE_ROT13) rot++;
    }
  }
  close(text.length);
  // A multi-line block reversed as a whole also changes the order of its lines; read it as one piece.
  if (text.includes('\n')) {
    if (totals.reversed >= 1 && totals.reversed >= totals.plain) out.push([0, text.length, CUE_REVERSED]);
    if (totals.rot >= 1 && totals.rot >= totals.plain) out.push([0, text.length, CUE_ROT13]);
  }
  return out;
}

function sliceView(v: View, from: number, to: number, source: string): View {
  return {
    source,
    text: v.text.slice(from, to),
    starts: v.starts.subarray(from, to),
    ends: v.ends.subarray(from, to),
    changed: null,
  };
}

/** The separators that may stand between spaced-out letters: space . - _ * | / , + ~ : */
const SEPARATOR_CODES = new Uint8Array(128);
for (const c of ' .-_*|/,+~:') SEPARATOR_CODES[c.charCodeAt(0)] = 1;
const isSeparator = (c: number): boolean => c < 128 && SEPARATOR_CODES[c] === 1;
const SLASH = 47;
const COLON = 58;
const SPACE = 32;
const NEWLINE = 10;

/**
 * Runs of single letters split by separators ("i g n o r e", "i.g.n.o.r.e") joined back into words. A
 * wider gap (two or more separators, or a slash) marks a word boundary. One pass over char codes into
 * typed buffers: a text that is one long run ("a/a/a/…") is the worst case, and growing arrays of
 * boxed numbers and a separator string per letter made it the slowest view of the detector (#15).
 */
let runIdx = new Int32Array(1024);
let runJoins = new Uint8Array(1024);

/**
 * Whether t[i] is a letter a–z: a top-level function, as the closure it replaces in the scan of every
 * character was not inlined (#15).
 */
const isLowerAt = (t: string, i: number): boolean => {
  const c = t.charCodeAt(i);
  return c >= 97 && c <= 122;
};

function spacedView(v: View): View | null {
  const t = v.text;
  const len = t.length;
  // Made at the first run: most texts have none, and the builder's buffers are large.
  let out: ViewBuilder | null = null;
  // The letters of the current run and how each is joined to the one before (BREAK, BREAK | COLON).
  const BREAK = 1;
  const COLON_SEP = 2;
  // Scratch for one run (at most as long as the text), kept between calls up to 128 K characters.
  if (runIdx.length < len && len <= 1 << 17) {
    runIdx = new Int32Array(len);
    runJoins = new Uint8Array(len);
  }
  const idx = runIdx.length >= len ? runIdx : new Int32Array(len);
  const joins = runJoins.length >= len ? runJoins : new Uint8Array(len);
  let i = 0;
  while (i < len) {
    // On to the next single letter, a run of letters at a time (not three reads of every character).
    while (i < len) {
      if (!isLowerAt(t, i)) {
        i++;
        continue;
      }
      let e = i + 1;
      while (e < len && isLowerAt(t, e)) e++;
      if (e - i === 1 && !(i > 0 && isLowerAt(t, i - 1))) break;
      i = e;
    }
    if (i >= len) break;
    let count = 1;
    // The colons and spaces the run's joins add.
    let units = 0;
    idx[0] = i;
    joins[0] = 0;
    let j = i + 1;
    for (;;) {
      let k = j;
      let slash = false;
      let colon = false;
      while (k < len && k - j < 4 && isSeparator(t.charCodeAt(k))) {
        const c = t.charCodeAt(k);
        if (c === SLASH) slash = true;
        else if (c === COLON) colon = true;
        k++;
      }
      const gap = k - j;
      // The next letter must stand alone: t[k - 1] is a separator, so only the letter after it is read.
      if (gap === 0 || gap > 3 || k >= len || !isLowerAt(t, k) || (k + 1 < len && isLowerAt(t, k + 1))) break;
      idx[count] = k;
      const join = (gap >= 2 || slash || colon ? BREAK : 0) | (colon ? COLON_SEP : 0);
      joins[count] = join;
      if (join !== 0) units += join & COLON_SEP ? 2 : 1;
      count++;
      j = k + 1;
    }
    if (count >= 5) {
      out ??= new ViewBuilder(Math.min(len, 1 << 16) + 16);
      // A newline, the letters and their colons and spaces, none a surrogate: room is made once per run
      // and each unit written without a check (a call with checks per unit was a fifth of the views of
      // "a:a:a…").
      out.reserve(1 + count + units);
      const starts = v.starts;
      if (out.n > 0) out.put(NEWLINE, starts[i] as number, starts[i] as number);
      for (let q = 0; q < count; q++) {
        const at = idx[q] as number;
        const join = joins[q] as number;
        const s = starts[at] as number;
        if (join & BREAK) {
          if (join & COLON_SEP) out.put(COLON, s, s);
          out.put(SPACE, s, s);
        }
        out.put(t.charCodeAt(at), s, v.ends[at] as number);
      }
    }
    i = j;
  }
  return out === null || out.n === 0 ? null : out.build('spaced_letters');
}

/** The inner view read as one span of the outer text; new arrays (an ASCII view's are shared, read only). */
function remap(inner: View, start: number, end: number, source: string): View {
  const n = inner.starts.length;
  const starts = new Int32Array(n).fill(start);
  const ends = new Int32Array(n).fill(end);
  return { source, text: inner.text, starts, ends, changed: inner.changed };
}

/**
 * Every reading of the input the patterns are run on: the normalised text, and (when present) spaced-out
 * letters joined, reversed text, ROT13, hidden Unicode-tag or variation-selector text, and decoded base64,
 * hex, URL-encoded and escaped payloads. Decoded text is itself normalised, once more, to catch layers.
 */
export function buildViews(input: string, depth = 0): ViewSet {
  const n = normalise(input);
  const signals = n.signals;
  const views: View[] = [n.plain];
  if (isWidthSignal(n.plain)) signals.add('fullwidth');
  const spaced = spacedView(n.plain);
  if (spaced) views.push(spaced);
  for (const [from, to, kind] of hiddenLines(n.plain.text)) {
    const line = sliceView(n.plain, from, to, 'plain');
    if (kind === CUE_REVERSED) views.push(reverseView(line, 'reversed'));
    else views.push({ ...line, source: 'rot13', text: rot13(line.text) });
  }
  const nested: { source: string; text: string; start: number; end: number }[] = [...n.hidden];
  if (depth < 2) nested.push(...findPayloads(input));
  for (const p of nested) {
    const inner = buildViews(p.text, depth + 1);
    signals.add(p.source);
    for (const s of inner.signals) signals.add(s);
    for (const v of inner.views) views.push(remap(v, p.start, p.end, p.source));
  }
  return { views, signals };
}
