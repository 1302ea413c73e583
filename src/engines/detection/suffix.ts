import { endOfKept } from '../text.js';
// Adversarial suffixes (GCG and similar optimisers) append a run of machine-made tokens to a plain
// request: brackets glued to words, stray LaTeX and markup fragments, camel-case splices. Ordinary prose
// has almost none of these; code and markup have many, but spread over the whole text. So the signal is a
// tail dense in odd tokens after a head that reads as prose. One pass over the tokens: linear time.

const BRACKETS = /[{}[\]()<>\\|$^~=@#*`_]/g;
const GLUED = /\p{L}[{}[\]()<>\\|$^~=@#`]|[{}[\]<>\\|$^~=@#*`]\p{L}/u;
// Regular structure is not noise: links, e-mail addresses, markup tags and attributes, hashtags,
// template placeholders, bracketed words, JSON keys.
const STRUCTURED = /:\/\/|^www\.|\w@\w+\.\w|<\/|="|\]->/;
const REGULAR = /^<\/?[A-Za-z][\w-]*|^#\w+$|\{\{\w+\}\}|^\[?\w+\]?$|^"?\w+"?[:,]?[}\]]*,?$/;
/** Tokens read at the end of the text. */
const TAIL_MAX = 20;

export interface SuffixFinding {
  /** Offsets of the odd tail in the original text. */
  start: number;
  end: number;
  /** Distinct odd tokens in the tail. */
  odd: number;
}

function count(s: string, re: RegExp): number {
  return s.match(re)?.length ?? 0;
}

/** True when the token holds any ASCII punctuation: every odd token does, so the rest skip the regexes. */
function hasPunctuation(token: string): boolean {
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if ((c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126))
      return true;
  }
  return false;
}

const isSpace = (c: number): boolean => c <= 32 || c === 0xa0 || c === 0x2028 || c === 0x2029 || c === 0x3000;

const LEADING = new Set(['"', "'", '(']);
const TRAILING = new Set(['.', ',', '!', '?', ';', ':', '"', "'", ')'].map((c) => c.charCodeAt(0)));
const isTrailing = (c: number): boolean => TRAILING.has(c);

/**
 * The token without its leading quotes/brackets and trailing punctuation, by two loops: the regex
 * /^["'(]+|[.,!?;:"')]+$/g tried its trailing alternative from every character of a long punctuation run
 * that did not reach the end, quadratic in the token.
 */
export function trimQuotes(token: string): string {
  let start = 0;
  while (start < token.length && LEADING.has(token.charAt(start))) start++;
  const end = endOfKept(token, isTrailing, start);
  return start === 0 && end === token.length ? token : token.slice(start, end);
}

export function isOddToken(token: string): boolean {
  if (!hasPunctuation(token)) return false;
  const core = trimQuotes(token);
  if (core.length < 3 || STRUCTURED.test(core) || REGULAR.test(core)) return false;
  const letters = count(core, /\p{L}/gu);
  const brackets = count(core, BRACKETS);
  const other = core.length - letters - count(core, /[0-9]/g);
  if (letters >= 2 && brackets >= 2) return true;
  if (letters >= 2 && GLUED.test(core.slice(1, -1)) && !/^\w+\(\)$/.test(core)) return true;
  if (letters === 0 && other >= 3 && !/^[-=_*.]{3,}$/.test(core)) return true;
  if (letters >= 2 && /[^\p{L}\p{N}\s]{3,}/u.test(core)) return true;
  // Tests with no open repetition before a required character: /\p{Ll}{2,}\p{Lu}/ tried from every letter of
  // a long lower-case run was quadratic in the token (0.25 s for 50,000 letters); two lower-case letters then
  // an upper-case one is the same condition. Likewise "[!?]{2,} then a letter" (the other alternative,
  // a letter before it, only adds a match the first already has).
  if (letters >= 6 && /\p{Ll}{2}\p{Lu}/u.test(core)) return true;
  return /[!?]{2}\p{L}/u.test(core);
}

/** Token spans [start, end) from token `from` (0-based) to the end; `count` is the total token count. */
function tokenSpans(text: string, from: number, count: number): [number, number][] {
  const out: [number, number][] = [];
  let k = count;
  let end = -1;
  // Walk backwards so that only the tokens needed are sliced.
  for (let i = text.length - 1; i >= -1 && k > from; i--) {
    const space = i < 0 || isSpace(text.charCodeAt(i));
    if (!space && end < 0) end = i + 1;
    else if (space && end >= 0) {
      out.push([i + 1, end]);
      end = -1;
      k--;
    }
  }
  return out.reverse();
}

function countTokens(text: string): number {
  let n = 0;
  let inToken = false;
  for (let i = 0; i < text.length; i++) {
    const space = isSpace(text.charCodeAt(i));
    if (!space && !inToken) n++;
    inToken = !space;
  }
  return n;
}

export function adversarialSuffix(text: string): SuffixFinding | null {
  // The tail is judged first because almost every text fails there; the head is read only when it passes.
  const n = countTokens(text);
  if (n < 8) return null;
  const tailLen = Math.min(TAIL_MAX, Math.ceil(n / 2));
  const cut = n - tailLen;
  if (cut < 5) return null;
  const tail = tokenSpans(text, cut, n);
  const odd = new Set<string>();
  let first = -1;
  for (const [s, e] of tail) {
    const w = text.slice(s, e);
    if (!isOddToken(w)) continue;
    odd.add(w);
    if (first < 0) first = s;
  }
  if (odd.size < 3 || odd.size / tailLen < 0.15 || first < 0) return null;
  let headOdd = 0;
  let ticks = 0;
  const head = tokenSpans(text, 0, n).slice(0, cut);
  for (const [s, e] of head) {
    const w = text.slice(s, e);
    // Code blocks and formulas in the head mean the whole text is technical, not a request plus noise.
    if (w.includes('```') || w.includes('\\frac') || w.includes('$$')) return null;
    if (w.includes('`')) ticks++;
    if (isOddToken(w)) headOdd++;
  }
  if (ticks >= 2 || headOdd / cut >= 0.05) return null;
  return { start: first, end: text.length, odd: odd.size };
}
