import type { Candidate } from '../types.js';
import { candidate, isWordChar } from './context.js';
import { matchesOf } from '../matches.js';

// The at sign as a trial found it written past the detector: URL-encoded (`%40`, from a link or a form
// post), full width (U+FF20, Japanese and Chinese input methods) and small (U+FE6B). A domain's dots may be
// full width (U+FF0E) or URL-encoded (`%2E`) too. The finding is the text as written, so the token replaces
// exactly those characters and rehydration gives them back unchanged.
const AT = '(?:@|%40|\\uFF20|\\uFE6B)';
const DOT = '(?:\\.|\\uFF0E|%2[Ee])';
const EMAIL_RE = new RegExp(
  `[A-Za-z0-9](?:[A-Za-z0-9._%+-]{0,63})${AT}[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:${DOT}[A-Za-z0-9-]{1,63})*${DOT}[A-Za-z]{2,24}\\b`,
  'g',
);
const NEXT_AT = /[@\uFF20\uFE6B]|%40/g;

// The local part is at most 64 characters, so a match starts at most that far before its '@'.
const MAX_LOCAL = 64;

function nextAt(text: string, from: number): number {
  NEXT_AT.lastIndex = from;
  const m = NEXT_AT.exec(text);
  return m === null ? -1 : m.index;
}

// In a URL-encoded address the local part ends at the last encoded character no address holds in its
// local part ("…%3Fto%3Dann%40example.com" is the address "ann@example.com" after "?to=").
const ENCODED_DELIMITER = /%(?!2[BbDdEe]|5[Ff])[0-9A-Fa-f]{2}/g;

function encodedLocalStart(value: string): number {
  let start = 0;
  ENCODED_DELIMITER.lastIndex = 0;
  const at = value.indexOf('%40');
  for (let m = ENCODED_DELIMITER.exec(value); m !== null && m.index < at; m = ENCODED_DELIMITER.exec(value)) {
    start = m.index + 3;
  }
  return start;
}

export function detectEmails(text: string): Candidate[] {
  const out: Candidate[] = [];
  let at = nextAt(text, 0);
  if (at < 0) return out;
  // Scanning resumes just before the next '@' rather than at every position of the prose in between.
  EMAIL_RE.lastIndex = Math.max(0, at - MAX_LOCAL);
  for (let m = EMAIL_RE.exec(text); m !== null; m = EMAIL_RE.exec(text)) {
    const end = m.index + m[0].length;
    const trimmed = m[0].includes('%40') && !m[0].includes('@') ? encodedLocalStart(m[0]) : 0;
    const start = m.index + trimmed;
    if (trimmed > 0 && /^[A-Za-z0-9]/.test(text[start] ?? '')) {
      out.push(candidate('EMAIL', 'PERSONAL', text, start, end, 0.97, 'email'));
    } else if (trimmed === 0 && !isWordChar(text[m.index - 1]) && text[m.index - 1] !== '.') {
      out.push(candidate('EMAIL', 'PERSONAL', text, m.index, end, 0.97, 'email'));
    }
    at = nextAt(text, end);
    if (at < 0) break;
    EMAIL_RE.lastIndex = Math.max(end, at - MAX_LOCAL);
  }
  return out;
}

// Addresses written to escape harvesters, as web pages and signatures print them: `ann (at) example.com`,
// `info[at]firma.de`, `ann [at] example [dot] com`, `ann AT example DOT com`, the French `arobase` and the
// Italian `chiocciola` (the names of the sign), dots spelled `dot`, `point`, `punkt`, `punto`. Precision
// first, since "at" is one of the commonest English words: a lower-case "at" between words is never read as
// the sign ("meet at noon", "visit us at example.com", "look at this dot com"); the sign must be bracketed,
// named (arobase, chiocciola) or an upper-case AT between spaces, and the domain must end in a label of
// letters. The upper-case AT also needs a spelled dot (`DOT`, `(dot)`) and a local part that is not all
// capitals ("VISIT US AT EXAMPLE.COM" is shouting, not an address). A real at sign with spelled dots
// (`ann@example(dot)com`) is read here too. The finding is the whole span as written.
const ci = (word: string): string =>
  [...word].map((ch) => (/[a-z]/.test(ch) ? `[${ch}${ch.toUpperCase()}]` : ch)).join('');
const OPEN = '[(\\[{<]';
const CLOSE = '[)\\]}>]';
const DOT_WORDS = `(?:${['dot', 'point', 'punkt', 'punto'].map(ci).join('|')})`;
const BRACKETED_DOT = `\\s{0,2}${OPEN}\\s{0,2}${DOT_WORDS}\\s{0,2}${CLOSE}\\s{0,2}`;
const NAMED_AT = `(?:${ci('arobase')}|${ci('chiocciola')})`;
const STRONG_AT = new RegExp(
  `${OPEN}\\s{0,2}(?:${ci('at')}|${NAMED_AT})\\s{0,2}${CLOSE}|\\b${NAMED_AT}\\b|@`,
  'g',
);
const CAPS_AT = /(?<=\s)AT(?=\s)/g;
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const TLD = '[A-Za-z]{2,24}(?![A-Za-z0-9-]|[.@][A-Za-z0-9])';
// After a bracketed or named sign a dot may also be a bare spelled word ("example dot com", "exemple point
// fr"); after an upper-case AT only the upper-case DOT or a bracketed one.
const STRONG_SEP = `(?:\\.|${BRACKETED_DOT}|\\s${DOT_WORDS}\\s)`;
const CAPS_SEP = `(?:\\.|${BRACKETED_DOT}|\\sDOT\\s)`;
const STRONG_DOMAIN = new RegExp(`\\s{0,2}${LABEL}(?:${STRONG_SEP}${LABEL}){0,8}${STRONG_SEP}${TLD}`, 'y');
const CAPS_DOMAIN = new RegExp(`\\s{0,2}${LABEL}(?:${CAPS_SEP}${LABEL}){0,8}${CAPS_SEP}${TLD}`, 'y');
// The local part before the sign, with bracketed dots too ("john (dot) doe (at) …"). Read in a bounded window
// before each sign, so the scan stays linear.
const LOCAL_WORD = '[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}';
const LOCAL = new RegExp(
  `(?:^|[^A-Za-z0-9._%+-])((?:${LOCAL_WORD}${BRACKETED_DOT}){0,3}${LOCAL_WORD})\\s{0,2}$`,
);
const LOCAL_WINDOW = 3 * 80;
const SPELLED_DOT = /[^A-Za-z0-9.-]/;

function obfuscatedAt(
  text: string,
  at: number,
  atEnd: number,
  domainRe: RegExp,
  caps: boolean,
  sign: string,
  out: Candidate[],
): void {
  const from = Math.max(0, at - LOCAL_WINDOW);
  const local = LOCAL.exec(text.slice(from, at));
  if (local === null) return;
  domainRe.lastIndex = atEnd;
  const domain = domainRe.exec(text);
  if (domain === null) return;
  // A real at sign with literal dots is an ordinary address (detectEmails); an upper-case AT needs a spelled dot.
  const spelled = SPELLED_DOT.test(domain[0].trim());
  if ((sign === '@' || caps) && !spelled) return;
  if (caps && !/[a-z0-9._%+-]/.test(local[1]!)) return;
  // The match may begin with the character before the local part.
  const start = from + local.index + local[0].indexOf(local[1]!);
  out.push(candidate('EMAIL', 'PERSONAL', text, start, atEnd + domain[0].length, caps ? 0.85 : 0.9, 'email'));
}

// Most texts hold none of the signs' spellings: one test each, and no scan (a chat turn with an ordinary
// address would otherwise read its '@' here too, for nothing).
const MAYBE_SPELLED =
  /[([{<]\s{0,2}(?:at|dot|point|punkt|punto|arobase|chiocciola)\s{0,2}[)\]}>]|arobase|chiocciola|\s(?:dot|point|punkt|punto)\s/i;
const MAYBE_CAPS = /\sAT\s/;

export function detectObfuscatedEmails(text: string): Candidate[] {
  const out: Candidate[] = [];
  if (!MAYBE_SPELLED.test(text) && !MAYBE_CAPS.test(text)) return out;
  for (const m of matchesOf(STRONG_AT, text)) {
    obfuscatedAt(text, m.index, m.index + m[0].length, STRONG_DOMAIN, false, m[0], out);
  }
  for (const m of matchesOf(CAPS_AT, text))
    obfuscatedAt(text, m.index, m.index + 2, CAPS_DOMAIN, true, m[0], out);
  return out;
}
