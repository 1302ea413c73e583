import { findPayloads, rot13 } from './decode.js';
import { isWidthSignal, normalise, type View } from './normalize.js';

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
 * Lines of the text that read better backwards or through ROT13 than as they are, as [from, to, kind]
 * view offsets. Judged line by line, so one reversed sentence hidden in a long document is still found.
 */
function hiddenLines(text: string): [number, number, number][] {
  const out: [number, number, number][] = [];
  const re = /[a-z]{3,14}/g;
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
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    while (nextBreak >= 0 && m.index > nextBreak) {
      close(nextBreak);
      lineStart = nextBreak + 1;
      nextBreak = text.indexOf('\n', lineStart);
    }
    const mask = CUES.get(m[0]);
    if (mask === undefined) continue;
    if (mask & CUE_PLAIN) plain++;
    if (mask & CUE_REVERSED) reversed++;
    if (mask & CUE_ROT13) rot++;
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

const SEPARATOR = /[ .\-_*|/,+~:]/;

/**
 * Runs of single letters split by separators ("i g n o r e", "i.g.n.o.r.e") joined back into words. A
 * wider gap (two or more separators, or a slash) marks a word boundary.
 */
function spacedView(v: View): View | null {
  const t = v.text;
  const isL = (i: number): boolean => {
    const c = t.charCodeAt(i);
    return c >= 97 && c <= 122;
  };
  const single = (i: number): boolean =>
    isL(i) && !(i > 0 && isL(i - 1)) && !(i + 1 < t.length && isL(i + 1));
  let text = '';
  const starts: number[] = [];
  const ends: number[] = [];
  const next = /(?<![a-z])[a-z](?![a-z])/g;
  let i = 0;
  while (i < t.length) {
    next.lastIndex = i;
    const found = next.exec(t);
    if (!found) break;
    i = found.index;
    const idx: number[] = [i];
    const breaks: boolean[] = [false];
    const seps: boolean[] = [false];
    let j = i + 1;
    for (;;) {
      let k = j;
      while (k < t.length && k - j < 4 && SEPARATOR.test(t[k] as string)) k++;
      const gap = k - j;
      if (gap === 0 || gap > 3 || k >= t.length || !single(k)) break;
      idx.push(k);
      const sep = t.slice(j, k);
      breaks.push(gap >= 2 || sep.includes('/') || sep.includes(':'));
      seps.push(sep.includes(':'));
      j = k + 1;
    }
    if (idx.length >= 5) {
      if (text) {
        text += '\n';
        starts.push(v.starts[i] as number);
        ends.push(v.starts[i] as number);
      }
      for (let q = 0; q < idx.length; q++) {
        const at = idx[q] as number;
        if (breaks[q]) {
          text += seps[q] ? ': ' : ' ';
          starts.push(v.starts[at] as number);
          ends.push(v.starts[at] as number);
        }
        text += t[at];
        starts.push(v.starts[at] as number);
        ends.push(v.ends[at] as number);
      }
    }
    i = j;
  }
  if (!text) return null;
  return {
    source: 'spaced_letters',
    text,
    starts: Int32Array.from(starts),
    ends: Int32Array.from(ends),
    changed: null,
  };
}

function remap(inner: View, start: number, end: number, source: string): View {
  inner.starts.fill(start);
  inner.ends.fill(end);
  return { source, text: inner.text, starts: inner.starts, ends: inner.ends, changed: inner.changed };
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
