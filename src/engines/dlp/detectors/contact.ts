import type { Candidate } from '../types.js';
import { candidate, isWordChar } from './context.js';

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
