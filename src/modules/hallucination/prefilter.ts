import type { Correction } from '../../engines/hallucination/index.js';

/**
 * The engine reads every correction it is given on every check (about 75 µs each), so an organization with
 * hundreds of them would pay tens of milliseconds per check. A correction can only apply to a claim that
 * repeats a good share of its wrong claim's words, so one that shares no word key at all is dropped first.
 * Keys are deliberately loose so that whatever the engine treats as the same word still shares one: the
 * first four letters of a word (inflections), four-letter pieces inside long words (German compounds such
 * as Jahresurlaub / Urlaub), short words whole (CEO, USB), and digit strings without separators.
 */
const PREFIX = 4;
/** Words at least this long also contribute every inner four-letter piece. */
const COMPOUND = 7;
/** Short function words of EN/FR/DE; they carry no content, so sharing one proves nothing. */
const SHORT_STOPWORDS = new Set(
  (
    'the and for are was but not you all any can had has her his its our out who why how did get may ' +
    'les des une est par sur pas qui que aux ces ses son sont mes tes nos vos ont été ' +
    'der die das und ein den dem des ist mit von auf bei aus zum zur sie wir ihr hat'
  ).split(' '),
);

function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

export function wordKeys(text: string): Set<string> {
  const keys = new Set<string>();
  const folded = fold(text);
  for (const m of folded.matchAll(/\d[\d.,'’ ]*\d|\d/g)) keys.add(`#${m[0].replace(/[^\d]/g, '')}`);
  for (const m of folded.matchAll(/\d+/g)) keys.add(`#${m[0]}`);
  for (const m of folded.matchAll(/\p{L}+/gu)) {
    const w = m[0];
    if (w.length < PREFIX) {
      if (w.length >= 2 && !SHORT_STOPWORDS.has(w)) keys.add(w);
      continue;
    }
    keys.add(w.slice(0, PREFIX));
    // A plural or inflected short word (CEOs, USBs) still meets its bare form.
    if (w.length === PREFIX && !SHORT_STOPWORDS.has(w.slice(0, 3))) keys.add(w.slice(0, 3));
    if (w.length >= COMPOUND) for (let i = 3; i + PREFIX <= w.length; i++) keys.add(w.slice(i, i + PREFIX));
  }
  return keys;
}

export interface KeyedCorrection {
  correction: Correction;
  keys: Set<string>;
}

export function keyCorrection(correction: Correction): KeyedCorrection {
  return { correction, keys: wordKeys(correction.originalClaim) };
}

/** The corrections whose wrong claim shares at least one key with the claim, in their stored order. */
export function candidateCorrections(claim: string, keyed: readonly KeyedCorrection[]): Correction[] {
  if (keyed.length === 0) return [];
  const claimKeys = wordKeys(claim);
  const out: Correction[] = [];
  for (const k of keyed) {
    for (const key of k.keys) {
      if (claimKeys.has(key)) {
        out.push(k.correction);
        break;
      }
    }
  }
  return out;
}
