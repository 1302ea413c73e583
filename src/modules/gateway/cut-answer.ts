/**
 * What the protected chat stores of an answer that was cut off: the client went away, the upstream failed or
 * ended mid-answer, or the answer stopped for any reason but a finished one (isCutFinish).
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

/** The finish reasons of an answer the model finished: every other reason means it was cut. */
// `eos` is Together's word for a natural end (the OpenAI-like adapter passes finish reasons through).
const FINISHED_REASONS: ReadonlySet<string> = new Set(['stop', 'eos', 'tool_calls', 'function_call']);

/**
 * Whether an answer that ended with `reason` was cut. Fail closed: a reason not known to mean "finished"
 * counts as cut, so a provider's own word for a natural end must be listed here (`eos`). The adapters map their providers' incomplete ends to `length` or `content_filter`, but the
 * OpenAI-like providers pass their own words through (Mistral's `model_length` and `error`), and a reason a
 * provider adds later would otherwise let a value cut inside it be stored in clear. No reason at all is
 * not a cut: a stream that ended without its finish event already fails as ended early, and some
 * OpenAI-like servers leave the field empty on a whole answer.
 */
export function isCutFinish(reason: string | null | undefined): boolean {
  return typeof reason === 'string' && reason !== '' && !FINISHED_REASONS.has(reason);
}

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
