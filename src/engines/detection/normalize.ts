import {
  FOLD_HOMOGLYPH,
  FOLD_WIDTH,
  foldCodePoint,
  isInvisible,
  isTag,
  leetLetter,
  variationByte,
} from './fold.js';
import { utf8Decode } from './decode.js';

/**
 * A normalised rendering of (part of) the input. `starts[i]`/`ends[i]` give the span of the ORIGINAL text
 * that produced character i, so a match found here maps back to original offsets.
 */
export interface View {
  source: string;
  text: string;
  starts: Int32Array;
  ends: Int32Array;
  /** Per-character marks of what normalisation undid there (CHANGED_* bits); null when nothing. */
  changed: Uint8Array | null;
}

export const CHANGED_LEET = 1;
export const CHANGED_HOMOGLYPH = 2;
export const CHANGED_INVISIBLE = 4;
export const CHANGED_WIDTH = 8;

export interface HiddenPayload {
  source: 'unicode_tags' | 'variation_selectors';
  text: string;
  start: number;
  end: number;
}

export interface Normalised {
  plain: View;
  hidden: HiddenPayload[];
  /** Obfuscation seen while folding, independent of whether any pattern matched. */
  signals: Set<string>;
}

/**
 * The code units of the view being built: one buffer shared by every builder, kept between calls up to
 * CODES_KEEP units, as they are read only by build() and one view is built at a time (normalise and
 * spacedView each finish theirs before another starts; a builder must not be left unbuilt while another
 * pushes). A new buffer per view was a fifth of the memory a long text allocated (#15).
 */
let codeScratch = new Uint16Array(1024);
const CODES_KEEP = 1 << 17;

/** A buffer of at least `capacity` code units (the shared one, or a larger one that becomes it). */
function codeBuffer(capacity: number): Uint16Array {
  if (codeScratch.length >= capacity) return codeScratch;
  const b = new Uint16Array(Math.max(capacity, codeScratch.length * 2));
  if (b.length <= CODES_KEEP) codeScratch = b;
  return b;
}

/**
 * The normalised text being built, one UTF-16 code unit at a time into a typed buffer, with the original
 * span and change marks of each unit. A string per character joined at the end cost more than the rest
 * of normalisation on texts with a non-ASCII character every few letters (homoglyphs, #15).
 */
export class ViewBuilder {
  private codes: Uint16Array;
  starts: Int32Array;
  ends: Int32Array;
  changed: Uint8Array;
  n = 0;
  anyChange = false;
  /** Whether a surrogate code unit was pushed (build then cannot use the UTF-16 decoder, see there). */
  private surrogates = false;
  constructor(capacity: number) {
    this.codes = codeBuffer(capacity);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
    this.changed = new Uint8Array(capacity);
  }
  private grow(need: number): void {
    const cap = Math.max(need, this.starts.length * 2);
    const u = codeBuffer(cap);
    u.set(this.codes.subarray(0, this.n));
    this.codes = u;
    const s = new Int32Array(cap);
    s.set(this.starts);
    this.starts = s;
    const e = new Int32Array(cap);
    e.set(this.ends);
    this.ends = e;
    const c = new Uint8Array(cap);
    c.set(this.changed);
    this.changed = c;
  }
  push(s: string, start: number, end: number, mark: number): void {
    if (this.n + s.length > this.starts.length) this.grow(this.n + s.length);
    for (let k = 0; k < s.length; k++) {
      const c = s.charCodeAt(k);
      if ((c & 0xf800) === 0xd800) this.surrogates = true;
      this.codes[this.n] = c;
      this.starts[this.n] = start;
      this.ends[this.n] = end;
      this.changed[this.n] = mark;
      this.n++;
    }
    if (mark) this.anyChange = true;
  }
  /** One character (a code unit) mapping to input[start, end). */
  pushCode(code: number, start: number, end: number, mark: number): void {
    if (this.n + 1 > this.starts.length) this.grow(this.n + 1);
    if ((code & 0xf800) === 0xd800) this.surrogates = true;
    this.codes[this.n] = code;
    this.starts[this.n] = start;
    this.ends[this.n] = end;
    this.changed[this.n] = mark;
    this.n++;
    if (mark) this.anyChange = true;
  }
  /**
   * Room for `more` code units past those pushed, for a caller that then writes them with `put` (no check
   * per unit: spacedView writes up to three per letter of a 100 KB run).
   */
  reserve(more: number): void {
    if (this.n + more > this.starts.length) this.grow(this.n + more);
  }
  /** pushCode for a code unit that is not a surrogate, with no change mark, into room `reserve` made. */
  put(code: number, start: number, end: number): void {
    const n = this.n;
    this.codes[n] = code;
    this.starts[n] = start;
    this.ends[n] = end;
    this.changed[n] = 0;
    this.n = n + 1;
  }
  /** An ASCII run of input[start, end) maps one to one; lower-cased on the way. */
  pushRun(input: string, start: number, end: number): void {
    const length = end - start;
    if (this.n + length > this.starts.length) this.grow(this.n + length);
    for (let k = start; k < end; k++) {
      const c = input.charCodeAt(k);
      this.codes[this.n] = c >= 65 && c <= 90 ? c | 0x20 : c;
      this.starts[this.n] = k;
      this.ends[this.n] = k + 1;
      this.n++;
    }
  }
  build(source: string): View {
    return {
      source,
      text: codesToString(this.codes, this.n, this.surrogates),
      starts: this.starts.subarray(0, this.n),
      ends: this.ends.subarray(0, this.n),
      changed: this.anyChange ? this.changed.subarray(0, this.n) : null,
    };
  }
}

/**
 * A UTF-16LE decoder, when the platform has one and stores a Uint16Array little-endian (else null): it
 * makes the text of a view from its code units in one native call, four times faster than
 * String.fromCharCode over chunks, whose argument lists were most of the garbage of normalising a long
 * non-ASCII text (#15). It is the same string for any units without surrogates (a lone surrogate would
 * become U+FFFD: the builder falls back to fromCharCode when it holds any); ignoreBOM keeps U+FEFF.
 */
/**
 * The string of the first `n` code units of `codes`; `surrogates` tells whether any is a surrogate (the
 * UTF-16 decoder would turn a lone one into U+FFFD, so such units take String.fromCharCode).
 */
function codesToString(codes: Uint16Array, n: number, surrogates: boolean): string {
  const decoder = surrogates ? null : utf16Decoder();
  if (decoder) return decoder.decode(new Uint8Array(codes.buffer, codes.byteOffset, n * 2));
  let text = '';
  for (let i = 0; i < n; i += 8192) {
    text += String.fromCharCode.apply(null, codes.subarray(i, Math.min(n, i + 8192)) as unknown as number[]);
  }
  return text;
}

let decoder: { decode(bytes: Uint8Array): string } | null | undefined;
function utf16Decoder(): { decode(bytes: Uint8Array): string } | null {
  if (decoder === undefined) {
    const littleEndian = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;
    decoder =
      littleEndian && typeof TextDecoder !== 'undefined'
        ? new TextDecoder('utf-16le', { ignoreBOM: true })
        : null;
  }
  return decoder;
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;

/**
 * identity[i] = i, shared by every ASCII view (read only: views are never written to; remap in views.ts
 * makes new arrays): two arrays of the text's length per call were a large share of the garbage a long
 * text made. Kept up to 128 K characters; longer texts get their own.
 */
let identity = new Int32Array(0);
const IDENTITY_MAX = 1 << 17;

function identityOf(n: number): Int32Array {
  if (identity.length >= n + 1) return identity;
  const out = new Int32Array(n + 1);
  for (let i = 0; i <= n; i++) out[i] = i;
  if (n + 1 <= IDENTITY_MAX) identity = out;
  return out;
}

/** Plain ASCII needs no folding beyond lower case, and its offsets map one to one. */
function asciiView(input: string): View {
  const n = input.length;
  const ids = identityOf(n);
  return {
    source: 'plain',
    text: input.toLowerCase(),
    starts: ids.subarray(0, n),
    ends: ids.subarray(1, n + 1),
    changed: null,
  };
}

/** Whether a folded character contains a letter a–z. */
function hasAsciiLower(s: string): boolean {
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c >= 97 && c <= 122) return true;
  }
  return false;
}

function isAsciiLetter(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
}

/**
 * NFKC, invisible and tag removal, homoglyph folding, accent stripping and lower-casing, then leetspeak
 * inside words. Whitespace is kept as is so spaced-out letters can still be told apart from words.
 */
export function normalise(input: string): Normalised {
  if (ASCII_ONLY.test(input)) {
    const view = asciiView(input);
    foldLeet(view);
    return { plain: view, hidden: [], signals: new Set() };
  }
  const b = new ViewBuilder(input.length + 16);
  const signals = new Set<string>();
  const hidden: HiddenPayload[] = [];
  let tagText = '';
  let tagStart = -1;
  let tagEnd = -1;
  const vsBytes: number[] = [];
  let vsStart = -1;
  let vsEnd = -1;
  let pendingInvisible = false;
  let lastWasLetter = false;
  let sawHomoglyph = false;
  let sawLatin = false;
  const flushVs = (): void => {
    if (vsBytes.length >= 4) {
      const text = utf8Decode(Uint8Array.from(vsBytes));
      if (/[a-z]{2}/i.test(text)) {
        hidden.push({ source: 'variation_selectors', text, start: vsStart, end: vsEnd });
        signals.add('variation_selectors');
      }
    }
    vsBytes.length = 0;
  };
  const flushWord = (): void => {
    if (sawHomoglyph && sawLatin) signals.add('homoglyph');
    sawHomoglyph = false;
    sawLatin = false;
  };

  for (let i = 0; i < input.length; ) {
    const cp = input.codePointAt(i) as number;
    const len = cp > 0xffff ? 2 : 1;
    const end = i + len;
    if (cp < 0x80 && !pendingInvisible && vsBytes.length === 0) {
      let runEnd = i + 1;
      let nonLetter = !isAsciiLetter(cp);
      for (; runEnd < input.length; runEnd++) {
        const c = input.charCodeAt(runEnd);
        if (c >= 0x80) break;
        if (!isAsciiLetter(c)) nonLetter = true;
      }
      if (runEnd - i > 1) {
        b.pushRun(input, i, runEnd);
        const lastCode = input.charCodeAt(runEnd - 1);
        if (nonLetter) {
          if (isAsciiLetter(cp)) sawLatin = true;
          flushWord();
        }
        lastWasLetter = isAsciiLetter(lastCode);
        if (lastWasLetter) sawLatin = true;
        i = runEnd;
        continue;
      }
    }
    if (cp < 0x80) {
      const isLetter = isAsciiLetter(cp);
      if (isLetter) sawLatin = true;
      else flushWord();
      let mark = 0;
      if (pendingInvisible && isLetter && lastWasLetter) {
        mark = CHANGED_INVISIBLE;
        signals.add('zero_width');
      }
      pendingInvisible = false;
      b.pushCode(isLetter ? cp | 0x20 : cp, i, end, mark);
      lastWasLetter = isLetter;
      if (vsBytes.length) flushVs();
      i = end;
      continue;
    }
    if (isTag(cp)) {
      if (tagStart < 0) tagStart = i;
      tagEnd = end;
      if (cp >= 0xe0020 && cp <= 0xe007e) tagText += String.fromCharCode(cp - 0xe0000);
      i = end;
      continue;
    }
    const vb = variationByte(cp);
    if (vb >= 0) {
      if (vsBytes.length === 0) vsStart = i;
      vsBytes.push(vb);
      vsEnd = end;
      i = end;
      continue;
    }
    if (vsBytes.length) flushVs();
    if (isInvisible(cp)) {
      pendingInvisible = true;
      i = end;
      continue;
    }
    const f = foldCodePoint(cp);
    let mark = 0;
    if (f.kind & FOLD_HOMOGLYPH) {
      mark |= CHANGED_HOMOGLYPH;
      sawHomoglyph = true;
    }
    if (f.kind & FOLD_WIDTH) mark |= CHANGED_WIDTH;
    const letter = hasAsciiLower(f.out);
    if (pendingInvisible && letter && lastWasLetter) {
      mark |= CHANGED_INVISIBLE;
      signals.add('zero_width');
    }
    pendingInvisible = false;
    if (!letter && f.out !== '') flushWord();
    b.push(f.out, i, end, mark);
    lastWasLetter = letter;
    i = end;
  }
  flushWord();
  if (vsBytes.length) flushVs();
  // Subdivision flags (England, Scotland, Wales) are a black flag followed by a short tag run; real
  // smuggling carries words. The look-behind tries each run of letters once, from its start: tried from
  // every letter, a long run without a separator cost its square (#15).
  if (tagText.length >= 8 && /(?<![a-z])[a-z]{2,}[^a-z]+[a-z]{2,}/i.test(tagText)) {
    hidden.push({ source: 'unicode_tags', text: tagText, start: tagStart, end: tagEnd });
    signals.add('unicode_tags');
  }

  const view = b.build('plain');
  foldLeet(view);
  return { plain: view, hidden, signals };
}

function isLower(code: number): boolean {
  return code >= 97 && code <= 122;
}

/** LEET_CODE[digit code] = the code of the letter the digit stands for, 0 when none (leetLetter by code). */
const LEET_CODE = new Uint8Array(58);
for (let d = 48; d <= 57; d++) LEET_CODE[d] = leetLetter(String.fromCharCode(d))?.charCodeAt(0) ?? 0;

/**
 * Positions of the digits foldLeet replaces in the current call, kept between calls up to LEET_KEEP (one
 * view is folded at a time).
 */
let leetAt = new Int32Array(256);
const LEET_KEEP = 1 << 14;
/** Up to this many replacements the new text is joined from slices; past it, written as code units. */
const LEET_SLICES_MAX = 32;

/**
 * Replaces digits standing for letters inside words ("1gn0re" -> "ignore"); marks what changed. One pass
 * over char codes finds the digits to replace; the new text is made only when something changed: from
 * slices around a few of them, or, for many, by writing the replacements into a copy of the code units
 * (a slice and a one-character string per digit, joined, was most of normalising "1a1a…": 50,000 of
 * them in 100 KB).
 */
function foldLeet(view: View): void {
  const t = view.text;
  const len = t.length;
  let count = 0;
  let i = 0;
  while (i < len) {
    const c = t.charCodeAt(i);
    if (!(isLower(c) || (c >= 48 && c <= 57))) {
      i++;
      continue;
    }
    // A run of letters and digits: its letters, its digits that stand for letters, all its digits and the
    // digits that close it (a trailing number).
    let j = i;
    let letters = 0;
    let leet = 0;
    let digits = 0;
    let trailing = 0;
    while (j < len) {
      const d = t.charCodeAt(j);
      if (isLower(d)) {
        letters++;
        trailing = 0;
      } else if (d >= 48 && d <= 57) {
        if (LEET_CODE[d] !== 0) leet++;
        digits++;
        trailing++;
      } else break;
      j++;
    }
    const onlyTrailingNumber = trailing >= 2 && digits === trailing;
    if (letters >= 1 && leet >= 1 && leet <= letters + 2 && !onlyTrailingNumber) {
      if (!view.changed) view.changed = new Uint8Array(len);
      for (let k = i; k < j; k++) {
        const d = t.charCodeAt(k);
        const rep = d >= 48 && d <= 57 ? (LEET_CODE[d] as number) : 0;
        if (rep !== 0) {
          if (count === leetAt.length) {
            const bigger = new Int32Array(count * 2);
            bigger.set(leetAt);
            leetAt = bigger;
          }
          leetAt[count++] = k;
          view.changed[k] = (view.changed[k] as number) | CHANGED_LEET;
        }
      }
    }
    i = j;
  }
  if (count === 0) return;
  if (count <= LEET_SLICES_MAX) {
    const parts: string[] = [];
    let copied = 0;
    for (let r = 0; r < count; r++) {
      const k = leetAt[r] as number;
      parts.push(t.slice(copied, k), String.fromCharCode(LEET_CODE[t.charCodeAt(k)] as number));
      copied = k + 1;
    }
    parts.push(t.slice(copied));
    view.text = parts.join('');
  } else {
    // The shared code buffer is free here: the view's own text was made from it already.
    const codes = codeBuffer(len);
    let surrogates = false;
    for (let k = 0; k < len; k++) {
      const c = t.charCodeAt(k);
      if ((c & 0xf800) === 0xd800) surrogates = true;
      codes[k] = c;
    }
    for (let r = 0; r < count; r++) {
      const k = leetAt[r] as number;
      codes[k] = LEET_CODE[codes[k] as number] as number;
    }
    view.text = codesToString(codes, len, surrogates);
  }
  if (leetAt.length > LEET_KEEP) leetAt = new Int32Array(256);
}

/** A view whose every character maps to one original span: decoded payloads, hidden tag text. */
export function spanView(source: string, text: string, start: number, end: number): View {
  const n = text.length;
  return {
    source,
    text,
    starts: new Int32Array(n).fill(start),
    ends: new Int32Array(n).fill(end),
    changed: null,
  };
}

export function isWidthSignal(view: View): boolean {
  if (!view.changed) return false;
  let n = 0;
  for (let i = 0; i < view.changed.length; i++) if ((view.changed[i] as number) & CHANGED_WIDTH) n++;
  return n >= 4;
}
