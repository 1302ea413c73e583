import type { Candidate } from '../types.js';
import { candidate, isWordChar } from './context.js';

const EMAIL_RE =
  /[A-Za-z0-9](?:[A-Za-z0-9._%+-]{0,63})@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9-]{1,63})*\.[A-Za-z]{2,24}\b/g;

// The local part is at most 64 characters, so a match starts at most that far before its '@'.
const MAX_LOCAL = 64;

export function detectEmails(text: string): Candidate[] {
  const out: Candidate[] = [];
  let at = text.indexOf('@');
  if (at < 0) return out;
  // Scanning resumes just before the next '@' rather than at every position of the prose in between.
  EMAIL_RE.lastIndex = Math.max(0, at - MAX_LOCAL);
  for (let m = EMAIL_RE.exec(text); m !== null; m = EMAIL_RE.exec(text)) {
    const end = m.index + m[0].length;
    if (!isWordChar(text[m.index - 1]) && text[m.index - 1] !== '.') {
      out.push(candidate('EMAIL', 'PERSONAL', text, m.index, end, 0.97, 'email'));
    }
    at = text.indexOf('@', end);
    if (at < 0) break;
    EMAIL_RE.lastIndex = Math.max(end, at - MAX_LOCAL);
  }
  return out;
}
