import secureJson from 'secure-json-parse';
import { AppError } from '../errors/index.js';

const MAX_DEPTH = 64;
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Nesting depth of JSON text, counted outside strings, so a deeply nested body is refused before parsing. */
function exceedsDepth(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/**
 * Whether the text holds at most `max` opening brackets, strings included: then it cannot nest deeper
 * than `max`. Native indexOf finds them much faster than the character loop above walks the text, and
 * ordinary bodies (a conversation of a few dozen messages) never reach the loop.
 */
function fewBrackets(text: string, max: number): boolean {
  let count = 0;
  for (const bracket of ['{', '[']) {
    for (let i = text.indexOf(bracket); i !== -1; i = text.indexOf(bracket, i + 1)) {
      if (++count > max) return false;
    }
  }
  return true;
}

/**
 * Strict JSON for request bodies: invalid UTF-8 is refused rather than silently replaced, prototype keys
 * are refused rather than stripped, and nesting is bounded.
 */
export function parseJsonBody(raw: Buffer): unknown {
  if (raw.length === 0)
    throw new AppError('invalid_request', 'The request body is empty; send a JSON object.');
  let text: string;
  try {
    text = decoder.decode(raw);
  } catch {
    throw new AppError('invalid_request', 'The request body is not valid UTF-8.');
  }
  if (!fewBrackets(text, MAX_DEPTH) && exceedsDepth(text, MAX_DEPTH)) {
    throw new AppError('invalid_request', `The request body nests deeper than ${MAX_DEPTH} levels.`);
  }
  try {
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (err) {
    const msg = (err as Error).message ?? '';
    if (/prototype|constructor/i.test(msg)) {
      throw new AppError(
        'invalid_request',
        'The request body contains a forbidden key (__proto__ or constructor.prototype).',
      );
    }
    throw new AppError('invalid_request', 'The request body is not valid JSON.');
  }
}
