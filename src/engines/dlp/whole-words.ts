import type { Candidate } from './types.js';

// A letter or digit of any script. A token glued to one ("WinTKN_PASSWORD_…") is not found again by the
// rehydrator, which only reads a token where no letter or digit precedes it, and the part of the word left
// outside the token stays in clear. So no finding may start or end inside a word.
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;

function isWord(ch: string | undefined): boolean {
  return ch !== undefined && WORD_CHAR.test(ch);
}

/**
 * Widens every candidate that starts or ends inside a word, or right against one, to the whole word (issue 17: a password cut after
 * "Win" left those letters in clear and its token was never restored). Widening rather than dropping keeps
 * the value protected; the widened value is what gets tokenized and restored.
 */
export function toWholeWords(text: string, candidates: Candidate[]): Candidate[] {
  let changed = false;
  const out = candidates.map((c) => {
    let { start, end } = c;
    // Whatever the value's own first and last characters are, its token starts and ends with a letter: a
    // word character on either side would touch it ("is»Blue9…" gives "isTKN_…").
    while (start > 0 && isWord(text[start - 1])) start--;
    while (end < text.length && isWord(text[end])) end++;
    if (start === c.start && end === c.end) return c;
    changed = true;
    return { ...c, start, end, value: text.slice(start, end) };
  });
  return changed ? out : candidates;
}

/**
 * Two findings that touch ("a@b.ch+41 44 …") would give two tokens glued together, and the second would
 * follow a letter of the first, where the rehydrator does not read a token. They become one finding of the
 * more confident type, so both values are protected and come back together.
 */
export function mergeTouching(text: string, entities: Candidate[]): Candidate[] {
  let touching = false;
  for (let i = 1; i < entities.length; i++) {
    if (entities[i]!.start === entities[i - 1]!.end) touching = true;
  }
  if (!touching) return entities;
  const out: Candidate[] = [];
  for (const e of entities) {
    const last = out[out.length - 1];
    if (last === undefined || last.end !== e.start) {
      out.push(e);
      continue;
    }
    const lead = e.confidence > last.confidence ? e : last;
    out[out.length - 1] = { ...lead, start: last.start, end: e.end, value: text.slice(last.start, e.end) };
  }
  return out;
}
