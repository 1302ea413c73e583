import type { TokenMap } from './token-map.js';
import { RecentByIdentity } from './recent.js';

// What models do to a token: change its case, escape its underscores for markdown ("TKN\_NAME\_…", or
// "\\_" once JSON-encoded), wrap it in brackets or quotes (left in place: they may be the user's own), or
// glue a grammatical ending on ("TKN_NAME_…s"). Tokens are matched only where no letter or digit precedes.
export const CANDIDATE_RE = /tkn(?:\\{0,2}_[a-z0-9]+)+/gi;
export const MAX_GLUED_LETTERS = 4;

/** Upper-case, unescaped form used to look tokens up whatever the model did to them. */
export function canonicalToken(raw: string): string {
  // Backslashes right before an underscore are dropped (Markdown escapes). A loop: the pattern /\\+_/g
  // retried from every backslash of a long run that no underscore follows was quadratic.
  if (!raw.includes('\\')) return raw.toUpperCase();
  let out = '';
  let i = 0;
  while (i < raw.length) {
    if (raw.charCodeAt(i) !== 92) {
      out += raw.charAt(i++);
      continue;
    }
    let j = i;
    while (j < raw.length && raw.charCodeAt(j) === 92) j++;
    if (raw.charCodeAt(j) !== 95) out += raw.slice(i, j);
    i = j;
  }
  return out.toUpperCase();
}

export interface TokenIndex {
  /** canonical token -> original value */
  values: Map<string, string>;
  /** every canonical prefix of every token, for the streaming hold-back */
  prefixes: Set<string>;
  maxLength: number;
  /** Length of the shortest canonical token: a shorter run cannot be one. */
  minLength: number;
  version: number;
}

// Shared by every index without prefixes; never written to.
const NO_PREFIXES = new Set<string>();

/** The lookup index of a map; `withPrefixes: false` leaves out what only the streaming hold-back reads. */
export function buildIndex(map: TokenMap, withPrefixes = true): TokenIndex {
  const values = new Map<string, string>();
  const prefixes = withPrefixes ? new Set<string>() : NO_PREFIXES;
  let maxLength = 0;
  let minLength = Number.POSITIVE_INFINITY;
  for (const [token, entry] of map.byToken) {
    const canonical = canonicalToken(token);
    values.set(canonical, entry.value);
    maxLength = Math.max(maxLength, canonical.length);
    minLength = Math.min(minLength, canonical.length);
    if (withPrefixes) for (let i = 1; i <= canonical.length; i++) prefixes.add(canonical.slice(0, i));
  }
  return { values, prefixes, maxLength, minLength, version: map.byToken.size };
}

function isAlnum(ch: string | undefined): boolean {
  return ch !== undefined && /[A-Za-z0-9]/.test(ch);
}

/**
 * How many characters before a candidate the boundary test reads: a \uXXXX escape and the backslashes that
 * may escape its own backslash.
 */
export const BOUNDARY_CONTEXT = 16;

/**
 * A token may start here unless a letter or digit precedes it (`before`: the text before it, of which the
 * last BOUNDARY_CONTEXT characters are read). In JSON text an escape stands for the character it encodes:
 * "\\n" and "\\t" end in a letter but are a line break and a tab, "\\u00e9" ends in a digit but is "é"
 * (JSON writers that escape everything outside ASCII write every accent, CJK character and emoji so), while
 * "\\u0041" is the letter A and "\\\\n" an escaped backslash followed by the letter n.
 */
export function boundaryBefore(before: string, json: boolean): boolean {
  const last = before[before.length - 1];
  if (!json) return !isAlnum(last);
  // Only a text ending in \uXXXX needs the escape read (the common case is one character compared).
  const unicode = before[before.length - 5] === 'u' ? /\\u([0-9a-fA-F]{4})$/.exec(before) : null;
  if (unicode && escaping(before, unicode.index))
    return !isAlnum(String.fromCharCode(Number.parseInt(unicode[1]!, 16)));
  if (!isAlnum(last)) return true;
  return /[nrtbf]/.test(last!) && before[before.length - 2] === '\\' && escaping(before, before.length - 2);
}

/**
 * What boundaryBefore reads before `at` in `text` (`prev`: what came before `text`): the last character
 * outside JSON, BOUNDARY_CONTEXT characters in it (an escape to decode). Sliced only as far as needed.
 */
export function contextBefore(text: string, at: number, prev: string, json: boolean): string {
  if (!json) return at > 0 ? (text[at - 1] as string) : prev.slice(-1);
  return at >= BOUNDARY_CONTEXT ? text.slice(at - BOUNDARY_CONTEXT, at) : prev + text.slice(0, at);
}

/** Whether the backslash at `at` starts an escape: an even number of backslashes precedes it. */
function escaping(text: string, at: number): boolean {
  let n = 0;
  while (at - 1 - n >= 0 && text[at - 1 - n] === '\\') n++;
  return n % 2 === 0;
}

export function escapeJsonString(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}

export interface Resolution {
  value: string;
  /** letters glued after the token, kept in the output */
  glued: string;
  /** characters of the candidate that the token and its glued letters cover */
  consumed: number;
}

/**
 * Finds the known token at the start of a candidate run. The token may be followed by up to four glued
 * letters ("…s", "…en"), and the run may continue after an underscore ("…_and" in snake_case or emphasis);
 * anything else (a digit, more letters) makes it a different, longer token. Tokens are prefix-free, so at
 * most one can match; the type is part of the token, so nothing is ever guessed across types.
 */
export function resolveCandidate(index: TokenIndex, raw: string): Resolution | null {
  const ends: number[] = [];
  for (let p = 0; p < raw.length; p++) {
    if (raw[p] === '_' || raw[p] === '\\') {
      if (ends[ends.length - 1] !== p) ends.push(p);
      while (raw[p] === '\\') p++;
    }
  }
  ends.push(raw.length);
  for (const q of ends) {
    for (let g = 0; g <= MAX_GLUED_LETTERS && g < q; g++) {
      // Canonical forms only drop characters: a run shorter than the shortest token is none of them.
      if (q - g < index.minLength) break;
      if (g > 0 && !/[a-z]/i.test(raw[q - g]!)) break;
      const value = index.values.get(canonicalToken(raw.slice(0, q - g)));
      if (value !== undefined) return { value, glued: raw.slice(q - g, q), consumed: q };
    }
  }
  return null;
}

export interface SegmentResult {
  text: string;
  restored: number;
  unknown: string[];
}

/** Rehydrates one segment; `prev` holds the (up to BOUNDARY_CONTEXT) characters that preceded it in the whole text. */
export function rehydrateSegment(
  text: string,
  index: TokenIndex,
  json: boolean,
  prev: string,
): SegmentResult {
  let out = '';
  let cursor = 0;
  let restored = 0;
  const unknown: string[] = [];
  const re = new RegExp(CANDIDATE_RE.source, 'gi');
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (!boundaryBefore(contextBefore(text, m.index, prev, json), json)) {
      re.lastIndex = m.index + 1;
      continue;
    }
    const hit = resolveCandidate(index, m[0]);
    if (!hit) {
      // A failed run may still contain a token after one of its underscores ("TKN_X_TKN_NAME_…").
      if (!unknown.includes(m[0]) && /^tkn(?:\\{0,2}_[a-z0-9]+){2,}$/i.test(m[0])) unknown.push(m[0]);
      re.lastIndex = m.index + 1;
      continue;
    }
    out += text.slice(cursor, m.index) + (json ? escapeJsonString(hit.value) : hit.value) + hit.glued;
    cursor = m.index + hit.consumed;
    // What follows the token ("_TKN_…") is scanned again: it may hold the next token.
    re.lastIndex = cursor;
    restored++;
  }
  return { text: out + text.slice(cursor), restored, unknown };
}

// Whole-text rehydration looks tokens up and never needs the streaming prefixes, which are most of what an
// index costs to build; a response body calls it once per string that holds a token, with the same map.
// Not a WeakMap: token maps are made per request (recent.ts says why that matters).
const valueIndexes = new RecentByIdentity<TokenMap, TokenIndex>(4);

function valueIndexOf(map: TokenMap): TokenIndex {
  const cached = valueIndexes.get(map);
  // A map only grows (a token is derived from its value), so its size says whether the index is current.
  if (cached && cached.version === map.byToken.size) return cached;
  const index = buildIndex(map, false);
  valueIndexes.set(map, index);
  return index;
}

export function rehydrate(
  text: string,
  map: TokenMap,
  options: { json?: boolean } = {},
): { text: string; restored: number; unknown: string[] } {
  return rehydrateSegment(text, valueIndexOf(map), options.json ?? false, '');
}
