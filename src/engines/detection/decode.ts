import { trimEndWhere } from '../text.js';
// Decoders for payloads embedded in the text. Written by hand (no Buffer, no atob) so the engine stays
// pure and runs unchanged in the browser extension.

export function utf8Decode(bytes: Uint8Array): string {
  // UTF-16 code units into a buffer, turned into a string in chunks: a string grown by one character per
  // byte cost most of decoding a 100 KB base64 payload (#15).
  const units = new Uint16Array(bytes.length * 2);
  let n = 0;
  let i = 0;
  while (i < bytes.length) {
    const b0 = bytes[i] as number;
    let cp = 0xfffd;
    let need = 0;
    if (b0 < 0x80) cp = b0;
    else if (b0 >= 0xc2 && b0 < 0xe0) {
      need = 1;
      cp = b0 & 0x1f;
    } else if (b0 >= 0xe0 && b0 < 0xf0) {
      need = 2;
      cp = b0 & 0x0f;
    } else if (b0 >= 0xf0 && b0 < 0xf5) {
      need = 3;
      cp = b0 & 0x07;
    }
    let ok = true;
    for (let k = 1; k <= need; k++) {
      const b = bytes[i + k];
      if (b === undefined || (b & 0xc0) !== 0x80) {
        ok = false;
        break;
      }
      cp = (cp << 6) | (b & 0x3f);
    }
    if (!ok || cp > 0x10ffff) {
      units[n++] = 0xfffd;
      i += 1;
      continue;
    }
    if (cp > 0xffff) {
      units[n++] = 0xd800 + ((cp - 0x10000) >> 10);
      units[n++] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
    } else units[n++] = cp;
    i += 1 + need;
  }
  let out = '';
  for (let k = 0; k < n; k += 8192) {
    out += String.fromCharCode.apply(null, units.subarray(k, Math.min(n, k + 8192)) as unknown as number[]);
  }
  return out;
}

const B64 = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) {
  B64['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.charCodeAt(i)] = i;
}
B64['-'.charCodeAt(0)] = 62;
B64['_'.charCodeAt(0)] = 63;

export function base64Bytes(s: string): Uint8Array | null {
  // Padding is stripped by a loop: /=+$/ tried from every '=' of a long run of them (each attempt failing at
  // the run's last non-'=' character) was quadratic; 50,000 '=' before one other character took 0.5 s.
  const clean = trimEndWhere(s, (c) => c === 61);
  if (clean.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < clean.length; i++) {
    const v = B64[clean.charCodeAt(i)] ?? -1;
    if (v < 0) return null;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out.subarray(0, o);
}

/** The value of each hex digit by char code (a parseInt of two characters per byte was most of decoding). */
const HEX_VALUE = new Uint8Array(128);
for (let i = 0; i < 16; i++) {
  HEX_VALUE['0123456789abcdef'.charCodeAt(i)] = i;
  HEX_VALUE['0123456789ABCDEF'.charCodeAt(i)] = i;
}

/** 1 for a hex digit's char code. */
const IS_HEX = new Uint8Array(128);
for (const c of '0123456789abcdefABCDEF') IS_HEX[c.charCodeAt(0)] = 1;

/** Whether the code unit is one /\s/ matches (the ASCII ones by code, the rest by the expression). */
const isSpaceCode = (c: number): boolean =>
  c === 32 || (c >= 9 && c <= 13) || (c >= 0xa0 && /\s/.test(String.fromCharCode(c)));

/**
 * The bytes of hex digits written with or without \x and 0x prefixes, spaces and colons; null when
 * anything else is left or the digits are odd in number. What removing /\\x|0x|[\s:]/gi and testing the
 * rest against /^[0-9a-f]*$/i answers, in one pass over char codes: the expression's replace of a 100 KB
 * run of "ab ab ab …" cost more than the decoding after it.
 */
export function hexBytes(s: string): Uint8Array | null {
  const n = s.length;
  // The digits kept (at most one per character), as values.
  const digits = new Uint8Array(n);
  let d = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    const next = i + 1 < n ? s.charCodeAt(i + 1) | 0x20 : 0;
    // The alternatives in the expression's order at each position: \x, 0x, then one space or colon.
    if ((c === 92 || c === 48) && next === 120) {
      i++;
      continue;
    }
    if (c === 58 || isSpaceCode(c)) continue;
    if (c >= 128 || IS_HEX[c] !== 1) return null;
    digits[d++] = HEX_VALUE[c] as number;
  }
  if (d % 2 !== 0) return null;
  const out = new Uint8Array(d / 2);
  for (let i = 0; i < out.length; i++)
    out[i] = ((digits[i * 2] as number) << 4) | (digits[i * 2 + 1] as number);
  return out;
}

/** Accepts decoded bytes only when they read as text: mostly letters and spaces, few controls. */
export function looksLikeText(s: string): boolean {
  if (s.length < 6) return false;
  // Text without a space is never taken (the last test below); asked first, as the loop reads every
  // character and tests most non-ASCII ones with an expression: 8 ms for the 50,000 letters base64
  // "1a1a…" decodes to.
  if (!/\s/.test(s)) return false;
  let good = 0;
  let letters = 0;
  let bad = 0;
  const n = s.length;
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    // ASCII is classified by code (what the expressions below answer for it): letters, then every printable
    // character is punctuation, a digit or a symbol; the expressions per character cost most of the check.
    if (c < 128 && c >= 32) {
      if (c === 127) continue;
      good++;
      if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) letters++;
      continue;
    }
    if (c === 0xfffd || (c < 32 && c !== 10 && c !== 13 && c !== 9)) {
      bad++;
      // Bad characters only add up: past the share allowed, the answer is known (random bytes, #15).
      if (bad / n >= 0.03) return false;
    } else if (/\p{L}/u.test(ch)) {
      letters++;
      good++;
    } else if (c === 32 || /[\p{P}\p{N}\p{S}\s]/u.test(ch)) good++;
  }
  return bad / n < 0.03 && good / n > 0.9 && letters / n > 0.55 && /\s/.test(s);
}

export interface Payload {
  source: 'base64' | 'hex' | 'url_encoding' | 'unicode_escape' | 'html_entities';
  start: number;
  end: number;
  text: string;
}

/** Maximal runs of one character class, optionally followed by up to `pad` '=' signs. */
interface RunClass {
  member: Uint8Array;
  pad: number;
}

const classOf = (chars: string, pad: number): RunClass => {
  const member = new Uint8Array(128);
  for (let i = 0; i < chars.length; i++) member[chars.charCodeAt(i)] = 1;
  return { member, pad };
};
const HEX_DIGITS = '0123456789abcdefABCDEF';
const BASE64_RUN = classOf(`ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-`, 2);
const HEX_RUN = classOf(HEX_DIGITS, 0);
const BASE64_MIN = 16;
const HEX_MIN = 16;

// Each candidate is a maximal run (greedy, no minimum length), so a scan is one pass over the text; the
// minimum length is checked afterwards. A pattern like [a-z]{16,} would rescan every shorter word from each
// of its letters. The two plain runs ([A-Za-z0-9+/_-]+={0,2} and [0-9a-fA-F]+) are read by a loop over
// char codes rather than a regular expression: in prose every word is such a run, and a match object per
// word cost more than the rest of the scan (#15). They yield the same runs in the same order.
const CANDIDATES: { source: Payload['source']; re: RegExp | RunClass; min: number }[] = [
  { source: 'base64', re: BASE64_RUN, min: BASE64_MIN },
  { source: 'hex', re: /(?:\\x[0-9a-fA-F]{2})+/g, min: 24 },
  { source: 'hex', re: /(?:[0-9a-fA-F]{2}[ :])+[0-9a-fA-F]{2}/g, min: 20 },
  { source: 'hex', re: HEX_RUN, min: HEX_MIN },
  { source: 'unicode_escape', re: /(?:\\u[0-9a-fA-F]{4})+/g, min: 24 },
  { source: 'html_entities', re: /(?:&#(?:x[0-9a-fA-F]{1,6}|[0-9]{1,7});)+/g, min: 16 },
];

/**
 * The maximal runs of BASE64_RUN (with its padding) and of HEX_RUN at least `min` long, as flat
 * [start, end) pairs in text order: what a scan of the text per class finds, in one pass (#15: a char loop
 * over every character per class was a tenth of the views of a long text). A hex digit is a base64
 * character and '=' is neither, so one loop keeps both runs; the padding after a base64 run is read
 * without moving the loop, as no run of either class starts on '='.
 */
function base64AndHexRuns(
  text: string,
  base64Min: number,
  hexMin: number,
): { base64: number[]; hex: number[] } {
  const base64: number[] = [];
  const hex: number[] = [];
  const inBase64 = BASE64_RUN.member;
  const inHex = HEX_RUN.member;
  const n = text.length;
  let b = -1;
  let h = -1;
  // One step past the end closes the runs still open.
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 128;
    const isHex = c < 128 && inHex[c] === 1;
    if (h >= 0 && !isHex) {
      if (i - h >= hexMin) hex.push(h, i);
      h = -1;
    } else if (h < 0 && isHex) h = i;
    const isBase64 = c < 128 && inBase64[c] === 1;
    if (b >= 0 && !isBase64) {
      let e = i;
      for (let k = 0; k < BASE64_RUN.pad && e < n && text.charCodeAt(e) === 61; k++) e++;
      if (e - b >= base64Min) base64.push(b, e);
      b = -1;
    } else if (b < 0 && isBase64) b = i;
  }
  return { base64, hex };
}

function decodeCandidate(source: Payload['source'], raw: string): string | null {
  switch (source) {
    case 'base64': {
      if (!/[0-9+/A-Z]/.test(raw) || !/[a-z]/.test(raw)) return null;
      const bytes = base64Bytes(raw);
      return bytes ? utf8Decode(bytes) : null;
    }
    case 'hex': {
      const bytes = hexBytes(raw);
      return bytes ? utf8Decode(bytes) : null;
    }
    case 'url_encoding': {
      // Three escapes are enough to try; counting all of a long run made an array of them.
      let count = 0;
      const percentEscape = /%[0-9a-fA-F]{2}/g;
      while (count < 3 && percentEscape.exec(raw) !== null) count++;
      if (count < 3) return null;
      try {
        return decodeURIComponent(raw.replace(/\+/g, ' '));
      } catch {
        return null;
      }
    }
    case 'unicode_escape':
      return raw.replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) =>
        String.fromCharCode(Number.parseInt(h, 16)),
      );
    case 'html_entities':
      return raw.replace(/&#(x?)([0-9a-fA-F]{1,7});/g, (_, x: string, d: string) => {
        const cp = Number.parseInt(d, x ? 16 : 10);
        return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
      });
  }
}

/** What /[A-Za-z0-9%._~+!*'(),;:@&=/?#-]/ matches, by char code (a regular expression per character before). */
const URL_CHAR = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789%._~+!*'(),;:@&=/?#-")
  URL_CHAR[c.charCodeAt(0)] = 1;
const isUrlChar = (text: string, i: number): boolean => {
  const c = text.charCodeAt(i);
  return c < 128 && URL_CHAR[c] === 1;
};
const PERCENT = /%[0-9a-fA-F]{2}/g;

/** URL-encoded runs: grown outwards from each %XX escape, so the scan stays linear. */
function urlRuns(text: string): { start: number; end: number }[] {
  const runs: { start: number; end: number }[] = [];
  let covered = -1;
  PERCENT.lastIndex = 0;
  for (let m = PERCENT.exec(text); m !== null; m = PERCENT.exec(text)) {
    if (m.index < covered) continue;
    let s = m.index;
    while (s > 0 && isUrlChar(text, s - 1)) s--;
    let e = m.index + 3;
    while (e < text.length && isUrlChar(text, e)) e++;
    runs.push({ start: s, end: e });
    covered = e;
  }
  return runs;
}

/** Finds encoded runs in the original text and decodes those that turn into readable text. */
export function findPayloads(text: string): Payload[] {
  const found: Payload[] = [];
  for (const { start, end } of urlRuns(text)) {
    const decoded = decodeCandidate('url_encoding', text.slice(start, end));
    if (decoded && looksLikeText(decoded)) found.push({ source: 'url_encoding', start, end, text: decoded });
  }
  const runs = base64AndHexRuns(text, BASE64_MIN, HEX_MIN);
  for (const { source, re, min } of CANDIDATES) {
    const take = (start: number, end: number): void => {
      const decoded = decodeCandidate(source, text.slice(start, end));
      if (decoded && looksLikeText(decoded)) found.push({ source, start, end, text: decoded });
    };
    if (!(re instanceof RegExp)) {
      const pairs = re === BASE64_RUN ? runs.base64 : runs.hex;
      for (let k = 0; k < pairs.length; k += 2) take(pairs[k] as number, pairs[k + 1] as number);
      continue;
    }
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (m[0].length >= min) take(m.index, m.index + m[0].length);
    }
  }
  return found;
}

export function rot13(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 97 && c <= 122) out += String.fromCharCode(((c - 97 + 13) % 26) + 97);
    else if (c >= 65 && c <= 90) out += String.fromCharCode(((c - 65 + 13) % 26) + 65);
    else out += s[i];
  }
  return out;
}
