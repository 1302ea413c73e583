/**
 * What the protected chat stores of an answer that was cut off: the client went away, the upstream failed or
 * ended mid-answer, or the answer stopped at its length limit or a content filter (CUT_FINISH_REASONS).
 *
 * The stored answer is the upstream's own text (the user's data in it are tokens, never the values the
 * client was shown), and what the model wrote in clear is tokenized before it is stored. Detection only
 * recognizes a whole value, though: an answer cut inside an address, IBAN or phone number the model wrote
 * ("pay to IBAN DE89 3704 0044") would keep that part in clear, and in the history sent upstream again. So
 * a cut answer is stored up to the last point that no unfinished value runs across: the end of its last
 * token, line break or sentence end (".", "!" or "?" before a space). E-mail addresses, IBANs, card and
 * phone numbers and identifiers hold none of these. Names and addresses may hold a line break or an
 * abbreviation's full stop ("Hauptstr. 5"): cut after one, the part before it is kept (docs/gateway.md).
 */

/** What is stored in place of a cut answer of which nothing finished (the user's message is kept). */
export const CUT_ANSWER_NOTE = '[The answer was cut off before any of it finished.]';

/** Finish reasons of an answer that stopped before the model finished it. */
export const CUT_FINISH_REASONS: ReadonlySet<string> = new Set(['length', 'content_filter']);

// A token as the vault writes it (tokens.ts): its suffix is hex digits and one closing letter outside
// them, so a token cut short never matches (no prefix of a suffix ends in a closing letter).
const TOKEN = /TKN_[A-Z0-9_]+_[0-9a-f]{7,63}[ghjkmnpqrstvwxyz]/g;
// Not a full stop at the very end: the cut may have fallen just after one inside a value ("bob.smith@corp.").
const BREAK = /[.!?](?=\s)|\n/g;

/** The part of a cut answer that is stored: up to its last token, line break or sentence end. */
export function finishedPart(answer: string): string {
  let end = 0;
  for (const re of [TOKEN, BREAK]) {
    for (const m of answer.matchAll(re)) end = Math.max(end, m.index + m[0].length);
  }
  return answer.slice(0, end).trimEnd();
}
