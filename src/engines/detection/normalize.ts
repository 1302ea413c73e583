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

class Builder {
  private parts: string[] = [];
  starts: Int32Array;
  ends: Int32Array;
  changed: Uint8Array;
  n = 0;
  anyChange = false;
  constructor(capacity: number) {
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
    this.changed = new Uint8Array(capacity);
  }
  private grow(need: number): void {
    const cap = Math.max(need, this.starts.length * 2);
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
      this.starts[this.n] = start;
      this.ends[this.n] = end;
      this.changed[this.n] = mark;
      this.n++;
    }
    this.parts.push(s);
    if (mark) this.anyChange = true;
  }
  /** An ASCII run maps one to one; lower-cased in bulk. */
  pushRun(run: string, start: number): void {
    if (this.n + run.length > this.starts.length) this.grow(this.n + run.length);
    for (let k = 0; k < run.length; k++) {
      this.starts[this.n] = start + k;
      this.ends[this.n] = start + k + 1;
      this.n++;
    }
    this.parts.push(run.toLowerCase());
  }
  build(source: string): View {
    return {
      source,
      text: this.parts.join(''),
      starts: this.starts.subarray(0, this.n),
      ends: this.ends.subarray(0, this.n),
      changed: this.anyChange ? this.changed.subarray(0, this.n) : null,
    };
  }
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;
const ASCII_RUN = /[\x00-\x7f]+/y;

/** Plain ASCII needs no folding beyond lower case, and its offsets map one to one. */
function asciiView(input: string): View {
  const n = input.length;
  const starts = new Int32Array(n);
  const ends = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    starts[i] = i;
    ends[i] = i + 1;
  }
  return { source: 'plain', text: input.toLowerCase(), starts, ends, changed: null };
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
  const b = new Builder(input.length + 16);
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
      ASCII_RUN.lastIndex = i;
      const run = (ASCII_RUN.exec(input) as RegExpExecArray)[0];
      if (run.length > 1) {
        b.pushRun(run, i);
        const lastCode = run.charCodeAt(run.length - 1);
        if (/[^a-zA-Z]/.test(run)) {
          if (isAsciiLetter(cp)) sawLatin = true;
          flushWord();
        }
        lastWasLetter = isAsciiLetter(lastCode);
        if (lastWasLetter) sawLatin = true;
        i += run.length;
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
      b.push(isLetter ? String.fromCharCode(cp | 0x20) : String.fromCharCode(cp), i, end, mark);
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
    const letter = /[a-z]/.test(f.out);
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

/** Replaces digits standing for letters inside words ("1gn0re" -> "ignore"); marks what changed. */
function foldLeet(view: View): void {
  const t = view.text;
  let out: string[] | null = null;
  let i = 0;
  while (i < t.length) {
    const c = t.charCodeAt(i);
    const alnum = isLower(c) || (c >= 48 && c <= 57);
    if (!alnum) {
      i++;
      continue;
    }
    let j = i;
    let letters = 0;
    let leet = 0;
    while (j < t.length) {
      const d = t.charCodeAt(j);
      if (isLower(d)) letters++;
      else if (d >= 48 && d <= 57) {
        if (leetLetter(t[j] as string) !== undefined) leet++;
      } else break;
      j++;
    }
    let digitStart = j;
    while (digitStart > i && /[0-9]/.test(t[digitStart - 1] as string)) digitStart--;
    const onlyTrailingNumber = j - digitStart >= 2 && !/[0-9]/.test(t.slice(i, digitStart));
    if (letters >= 1 && leet >= 1 && leet <= letters + 2 && !onlyTrailingNumber) {
      out ??= t.split('');
      if (!view.changed) view.changed = new Uint8Array(t.length);
      for (let k = i; k < j; k++) {
        const rep = leetLetter(t[k] as string);
        if (rep !== undefined) {
          out[k] = rep;
          view.changed[k] = (view.changed[k] as number) | CHANGED_LEET;
        }
      }
    }
    i = j;
  }
  if (out) view.text = out.join('');
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
