import { type DateMention, extractDates } from './dates.js';
import {
  APPROX_CUES,
  LOWER_BOUND_CUES,
  NUMBER_WORDS,
  ORDINAL_WORDS,
  SCALE_WORDS,
  UNITS,
  UPPER_BOUND_CUES,
} from './lexicon.js';
import { fold } from './text.js';

export type NumberKind = 'cardinal' | 'ordinal' | 'year';

export interface NumberMention {
  /** Value in the base unit of `dim` (metres, kilograms, seconds, …); raw value when there is no unit. */
  value: number;
  dim: string | null;
  kind: NumberKind;
  approx: boolean;
  bound: 'lower' | 'upper' | null;
  raw: string;
  /** Factor of the unit as written (1 without unit), to tell a conversion from a restatement. */
  unitFactor: number;
  /** Offset of the mention in the text, for slot alignment by neighbouring words. */
  start: number;
}

/** "1,250" / "1.250" / "1 250" / "2,5" / "2.5" / "1,234.5" / "1.234,5" to a number. */
export function parseLocaleNumber(s: string): number {
  let t = s.replace(/[\u00a0\u202f' ]/g, '').replace('−', '-');
  const lastDot = t.lastIndexOf('.');
  const lastComma = t.lastIndexOf(',');
  if (lastDot >= 0 && lastComma >= 0) {
    const dec = lastDot > lastComma ? '.' : ',';
    const group = dec === '.' ? ',' : '.';
    t = t.split(group).join('').replace(dec, '.');
  } else if (lastDot >= 0 || lastComma >= 0) {
    const sep = lastDot >= 0 ? '.' : ',';
    const parts = t.split(sep);
    const grouping = parts.length > 2 || (parts[1]?.length === 3 && parts[0] !== '0' && parts[0] !== '-0');
    t = grouping ? parts.join('') : parts.join('.');
  }
  return Number(t);
}

const NUMERIC =
  /(?<![\p{L}\d.,])([-−]?\d{1,3}(?:(?:,|\.|\u00a0|\u202f| )\d{3})+(?:[.,]\d+)?|[-−]?\d+(?:[.,]\d+)?)(?![\d])/gu;
const ORDINAL_SUFFIX = /^(?:st|nd|rd|th|er|re|e|eme|ème)(?![\p{L}\d])/u;

function cueBefore(folded: string, cues: string[]): boolean {
  const tail = folded.trimEnd();
  return cues.some((c) => tail.endsWith(c) && !/[\p{L}]/u.test(tail.charAt(tail.length - c.length - 1)));
}

interface Tail {
  scale: number;
  unit: { dim: string; factor: number } | null;
  fahrenheit: boolean;
  consumed: number;
}

// Reads "million", "km", "per cent", "°C" … after a number.
function readTail(after: string): Tail {
  let rest = after;
  let consumed = 0;
  let scale = 1;
  const sm = /^\s*([\p{L}]+)\.?/u.exec(rest);
  if (sm) {
    const s = SCALE_WORDS.get(fold(sm[1]!));
    if (s) {
      scale = s;
      consumed += sm[0].length;
      rest = rest.slice(sm[0].length);
    }
  }
  const um = /^\s*(°\s?[CF]|per cent|pour cent|km\/h|db\(a\)|km²|m²|[%€$£]|[\p{L}]+)/iu.exec(rest);
  if (um) {
    const word = fold(um[1]!.replace(/\s+/g, ' '));
    if (word === '°f' || word === '° f')
      return { scale, unit: { dim: 'temp', factor: 1 }, fahrenheit: true, consumed };
    const u = UNITS.get(word.replace('° ', '°'));
    if (u) return { scale, unit: u, fahrenheit: false, consumed: consumed + um[0].length };
    // "de personnes" / "of people": no unit, but the scale stays.
  }
  return { scale, unit: null, fahrenheit: false, consumed };
}

// A currency sign or code and at most eight spaces before the number: only the last characters of the text
// before it are read (the expression ran over the whole prefix for every number: quadratic, #15). The window
// is one character longer than the longest match, so `\b` sees the character before a code.
const CURRENCY_BEFORE = /([€$£]|\b(?:eur|usd|gbp|chf))\s{0,8}$/iu;
const CURRENCY_WINDOW = 12;

function currencyBefore(before: string): { dim: string; factor: number } | null {
  const m = CURRENCY_BEFORE.exec(before.slice(-CURRENCY_WINDOW));
  if (!m) return null;
  return UNITS.get(fold(m[1]!)) ?? null;
}

function mention(
  value: number,
  tail: Tail,
  currency: { dim: string; factor: number } | null,
  before: string,
  raw: string,
  kind: NumberKind,
): NumberMention {
  const start = before.length;
  const foldedBefore = fold(before.slice(-24));
  const unit = tail.unit ?? currency;
  let v = value * tail.scale;
  if (tail.fahrenheit) v = ((v - 32) * 5) / 9;
  else if (unit) v *= unit.factor;
  const approx = cueBefore(foldedBefore, APPROX_CUES);
  const lower = cueBefore(foldedBefore, LOWER_BOUND_CUES);
  const upper = cueBefore(foldedBefore, UPPER_BOUND_CUES);
  return {
    value: v,
    dim: unit?.dim ?? (kind === 'year' ? 'year' : null),
    kind,
    approx,
    bound: lower ? 'lower' : upper ? 'upper' : null,
    raw,
    unitFactor: unit?.factor ?? 1,
    start,
  };
}

const ARTICLE_NUMBERS = new Set(['one', 'un', 'une', 'ein', 'eine', 'einen', 'eins'].map(fold));

const LETTERS_ONLY = /^\p{L}+$/u;

/** A number below 100 written as one German word: "zwölf", "einundzwanzig", "fünfundneunzig". */
function germanBelow100(w: string): number | undefined {
  if (w === '') return 0;
  const direct = NUMBER_WORDS.get(w);
  if (direct !== undefined) return direct < 100 ? direct : undefined;
  // Only a word of letters can match; checked first so that the lazy group stops at the first "und" (on a
  // word with a non-letter inside, every "und" would be tried and the rest read again: quadratic).
  if (!LETTERS_ONLY.test(w)) return undefined;
  const m = /^(\p{L}+?)und(\p{L}+)$/u.exec(w);
  if (!m) return undefined;
  const unit = NUMBER_WORDS.get(m[1]!);
  const tens = NUMBER_WORDS.get(m[2]!);
  if (unit === undefined || tens === undefined || unit < 1 || unit > 9 || tens < 20 || tens % 10 !== 0)
    return undefined;
  return unit + tens;
}

/**
 * German numbers are written as one word: "zweihundertfünfzig", "dreitausendvierhundert", "hundertzwanzig".
 * Every part must be a number word, so "Jahrhundert" or "Tausende" are not numbers.
 */
function germanCompound(w: string): number | undefined {
  const t = w.indexOf('tausend');
  let thousands = 0;
  let rest = w;
  if (t >= 0) {
    const head = w.slice(0, t);
    const h = head === '' ? 1 : germanBelow1000(head);
    if (h === undefined || h === 0) return undefined;
    thousands = h * 1000;
    rest = w.slice(t + 'tausend'.length);
  }
  const below = germanBelow1000(rest);
  return below === undefined ? undefined : thousands + below;
}

function germanBelow1000(w: string): number | undefined {
  const h = w.indexOf('hundert');
  if (h < 0) return germanBelow100(w);
  const head = w.slice(0, h);
  const n = head === '' ? 1 : germanBelow100(head);
  const tail = germanBelow100(w.slice(h + 'hundert'.length));
  if (n === undefined || n === 0 || n > 9 || tail === undefined) return undefined;
  return n * 100 + tail;
}

/**
 * Parts of a hyphenated number ("twenty-five", "quatre-vingt-dix", "vingt-et-un", "deux-cents") read as one
 * value; French "quatre-vingt" is four twenties.
 */
function composeParts(parts: string[]): number | undefined {
  let total = 0;
  let current = 0;
  for (const p of parts) {
    if (p === 'et') continue;
    const v = NUMBER_WORDS.get(p) ?? germanCompound(p);
    if (v === undefined) return undefined;
    if (v === 20 && p.startsWith('vingt') && current % 100 === 4) current += 76;
    else if (v === 100) current = (current || 1) * 100;
    else if (v >= 1000) {
      total += (current || 1) * v;
      current = 0;
    } else current += v;
  }
  return total + current;
}

function wordValue(w: string): number | undefined {
  const lw = fold(w);
  if (lw.includes('-')) return composeParts(lw.split('-'));
  const direct = NUMBER_WORDS.get(lw);
  if (direct !== undefined) return direct;
  return /hundert|tausend|und/.test(lw) ? germanCompound(lw) : undefined;
}

/**
 * A connector inside a written number: "one hundred and twenty", "vingt et un", "soixante et onze". Only after
 * hundreds (English) or a French ten before one or eleven, so "two and three" stays two numbers.
 */
const CONNECTORS = new Set(['and', 'et']);

function joinsNumber(gap: string, current: number, value: number, next: number): boolean {
  const m = /^\s+(and|et)\s+$/iu.exec(gap);
  if (!m) return false;
  if (fold(m[1]!) === 'and') return (current >= 100 || value > 0) && current % 100 === 0 && next < 100;
  return current >= 20 && current < 100 && current % 10 === 0 && (next === 1 || next === 11);
}

/**
 * Numbers with units, scale, approximation and bounds; dates are excluded (see dates.ts), bare years kept as
 * kind "year". At most `limit`, the first ones (numerals before number words), as `slice(0, limit)` of all.
 */
export function extractNumbers(
  text: string,
  dates: DateMention[] = extractDates(text),
  limit = Number.POSITIVE_INFINITY,
): NumberMention[] {
  // Built in one pass: re-slicing the whole text for every date was quadratic in the number of dates.
  let masked = text;
  if (dates.length > 0) {
    const parts: string[] = [];
    let at = 0;
    for (const d of [...dates].sort((a, b) => a.start - b.start)) {
      if (d.start < at) continue;
      parts.push(text.slice(at, d.start), ' '.repeat(d.end - d.start));
      at = d.end;
    }
    parts.push(text.slice(at));
    masked = parts.join('');
  }
  const out: NumberMention[] = [];
  for (const m of masked.matchAll(NUMERIC)) {
    if (out.length >= limit) return out;
    const idx = m.index ?? 0;
    const raw = m[1]!;
    const end = idx + m[0].length;
    const after = masked.slice(end);
    const before = masked.slice(0, idx);
    const ord = ORDINAL_SUFFIX.exec(after);
    if (ord || /^\.\s+\p{L}/u.test(after)) {
      out.push(
        mention(
          Number(raw),
          { scale: 1, unit: null, fahrenheit: false, consumed: 0 },
          null,
          before,
          raw,
          'ordinal',
        ),
      );
      continue;
    }
    const value = parseLocaleNumber(raw);
    if (!Number.isFinite(value)) continue;
    const tail = readTail(after);
    const currency = currencyBefore(before);
    const isYear =
      /^\d{4}$/.test(raw) && value >= 1500 && value <= 2100 && !tail.unit && tail.scale === 1 && !currency;
    out.push(mention(value, tail, currency, before, raw, isYear ? 'year' : 'cardinal'));
  }
  // Number words: "twenty-five", "trois millions", "zwei Wochen"; articles only count before a unit or scale.
  const wordRe = /[\p{L}]+(?:-[\p{L}]+)*/gu;
  let run: { value: number; current: number; start: number; end: number; words: number } | null = null;
  const flush = () => {
    if (!run || out.length >= limit) return;
    const r = run;
    run = null;
    const after = masked.slice(r.end);
    const tail = readTail(after);
    const raw = masked.slice(r.start, r.end);
    if (r.words === 1 && ARTICLE_NUMBERS.has(fold(raw)) && !tail.unit && tail.scale === 1) return;
    out.push(
      mention(
        r.value + r.current,
        tail,
        currencyBefore(masked.slice(0, r.start)),
        masked.slice(0, r.start),
        raw,
        'cardinal',
      ),
    );
  };
  for (const m of masked.matchAll(wordRe)) {
    if (out.length >= limit) break;
    const w = m[0];
    const idx = m.index ?? 0;
    const ordinal = ORDINAL_WORDS.get(fold(w));
    const gap: string = run ? masked.slice(run.end, idx) : '';
    // "cents" is French "hundreds" only right after two to nine ("quatre cents"); otherwise it is money
    // ("twenty cents", "5 cents") and no number word.
    const v: number | undefined =
      fold(w) === 'cents' && !(run && run.current >= 2 && run.current <= 9 && /^\s*$/.test(gap))
        ? undefined
        : wordValue(w);
    if (v !== undefined && (!run || /^\s*$/.test(gap) || joinsNumber(gap, run.current, run.value, v))) {
      if (!run) run = { value: 0, current: 0, start: idx, end: idx, words: 0 };
      if (v === 100) run.current = (run.current || 1) * 100;
      else if (v >= 1000) {
        run.value += (run.current || 1) * v;
        run.current = 0;
      } else run.current += v;
      run.end = idx + w.length;
      run.words++;
      continue;
    }
    // A connector may continue the run ("hundred and twenty"); the next word decides (joinsNumber).
    if (run && v === undefined && CONNECTORS.has(fold(w)) && /^\s*$/.test(gap)) continue;
    flush();
    if (v !== undefined) {
      run = { value: 0, current: v, start: idx, end: idx + w.length, words: 1 };
      continue;
    }
    if (ordinal !== undefined && fold(w) !== 'second') {
      out.push(
        mention(
          ordinal,
          { scale: 1, unit: null, fahrenheit: false, consumed: 0 },
          null,
          masked.slice(0, idx),
          w,
          'ordinal',
        ),
      );
    }
    // As in germanBelow100: letters only first, so that the lazy group stops at the first "jährig".
    const jm = LETTERS_ONLY.test(w) ? /^(\p{L}+?)(jährig|jahrig)\p{L}*$/iu.exec(w) : null;
    if (jm) {
      const jv = wordValue(jm[1]!);
      if (jv !== undefined)
        out.push({
          value: jv * 31557600,
          dim: 'time',
          kind: 'cardinal',
          approx: false,
          bound: null,
          raw: w,
          unitFactor: 31557600,
          start: idx,
        });
    }
  }
  flush();
  return out;
}

const BASE_TOLERANCE = 1e-6;

/** Whether two mentions can be compared at all (a count and a year, or kilograms and euros, cannot). */
export function comparable(a: NumberMention, b: NumberMention): boolean {
  if (a.kind === 'ordinal' || b.kind === 'ordinal') return a.kind === b.kind;
  // A bare count and a year are compared by value only, in relateNumbers ("2000 employees" reads as a year);
  // a bare count and a measured quantity are not compared at all ("10 books" vs "three weeks").
  return a.dim === b.dim;
}

function close(a: number, b: number, tol: number): boolean {
  if (a === b) return true;
  const scale = Math.max(Math.abs(a), Math.abs(b), 1e-12);
  return Math.abs(a - b) / scale <= tol;
}

export type NumberRelation = 'match' | 'conflict' | 'unrelated';

/** Compares a claim number with an evidence number of the same kind and dimension. */
export function relateNumbers(claim: NumberMention, ev: NumberMention): NumberRelation {
  if (!comparable(claim, ev)) {
    if ((claim.kind === 'year') !== (ev.kind === 'year') && claim.value === ev.value) return 'match';
    return 'unrelated';
  }
  const converted = claim.dim !== null && claim.dim !== 'year' && claim.unitFactor !== ev.unitFactor;
  // Months have no fixed length (3 months ≈ 12-13 weeks), and conversions are rounded in prose.
  const tol =
    claim.approx || ev.approx || (converted && claim.dim === 'time')
      ? 0.1
      : converted
        ? 0.03
        : BASE_TOLERANCE;
  const c = claim.value;
  const e = ev.value;
  if (claim.bound && ev.bound) {
    // "up to 15" and "up to 10" state different limits, although one implies the other.
    return claim.bound === ev.bound && close(c, e, tol) ? 'match' : 'conflict';
  }
  if (claim.bound === 'lower') return e > c || close(c, e, tol) ? 'match' : 'conflict';
  if (claim.bound === 'upper') return e < c || close(c, e, tol) ? 'match' : 'conflict';
  return close(c, e, tol) ? 'match' : 'conflict';
}
