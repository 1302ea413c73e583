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
 * The first key that appears twice in one object of well-formed JSON text, or null. JSON.parse keeps the
 * last value, while a WAF or a logging proxy in front of us may read the first: the same body would mean
 * two things. One pass over the text; a key written with escapes is compared decoded ("a" and "\u0061").
 */
export function duplicateKey(text: string): string | null {
  const objects: Array<Set<string> | null> = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 123 /* { */) {
      objects.push(new Set());
      expectKey = true;
    } else if (c === 91 /* [ */) {
      objects.push(null);
      expectKey = false;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      objects.pop();
      expectKey = false;
    } else if (c === 44 /* , */) {
      expectKey = objects[objects.length - 1] != null;
    } else if (c === 34 /* " */) {
      let end = i + 1;
      let escaped = false;
      for (; end < text.length; end++) {
        const d = text.charCodeAt(end);
        if (d === 92 /* \ */) {
          escaped = true;
          end++;
        } else if (d === 34) break;
      }
      if (expectKey) {
        const raw = text.slice(i + 1, end);
        const key = escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        const seen = objects[objects.length - 1];
        if (seen?.has(key)) return key;
        seen?.add(key);
        expectKey = false;
      }
      i = end;
    }
  }
  return null;
}

/**
 * Strict JSON for request bodies: invalid UTF-8 is refused rather than silently replaced, prototype keys
 * are refused rather than stripped, nesting is bounded, a key repeated in one object is refused, and so is
 * a NUL character in any string (nulPlace).
 */
export function parseJsonBody(raw: Buffer): unknown {
  const text = jsonBodyText(raw);
  const value = parseJsonText(text);
  const place = nulPlace(text, value);
  if (place !== null) {
    throw new AppError(
      'invalid_request',
      `The request body has a NUL character (\\u0000) in ${place}: of the control characters, no field of this API accepts that one.`,
    );
  }
  return value;
}

/**
 * Where the parsed body holds U+0000 (in a string or a key), or null. PostgreSQL text cannot store it (a
 * query with one fails), and no field of the API needs it: not an id or e-mail, and not a text to analyse
 * either, where it carries no meaning. JSON can only write it as the escape \u0000 (a raw control character
 * is not valid JSON), so a body without that escape is answered without walking it.
 */
export function nulPlace(text: string, value: unknown): string | null {
  if (!text.includes('\\u0000')) return null;
  // Returns the place as the message says it: 'messages[0].content', a key of 'metadata', the body.
  const named = (path: string) => (path ? `'${path}'` : 'the body');
  const walk = (v: unknown, path: string): string | null => {
    if (typeof v === 'string') return v.includes('\0') ? named(path) : null;
    if (typeof v !== 'object' || v === null) return null;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const found = walk(v[i], `${path}[${i}]`);
        if (found !== null) return found;
      }
      return null;
    }
    for (const [k, child] of Object.entries(v)) {
      // A key is named when it looks like a field name; anything else is not echoed back.
      const plain = /^[A-Za-z0-9_-]{1,64}$/.test(k);
      if (!plain && k.includes('\0')) return path ? `a key of ${named(path)}` : 'a key of the body';
      const found = walk(child, plain ? (path ? `${path}.${k}` : k) : `${path}[…]`);
      if (found !== null) return found;
    }
    return null;
  };
  return walk(value, '');
}

/**
 * The text of a request body (parseJsonBody in two steps): a proxy that rewrites a few strings of a body
 * keeps the text to send it with only those strings changed (numbers beyond 2^53, spacing, escapes kept).
 */
export function jsonBodyText(raw: Buffer): string {
  if (raw.length === 0)
    throw new AppError('invalid_request', 'The request body is empty; send a JSON object.');
  try {
    return decoder.decode(raw);
  } catch {
    throw new AppError('invalid_request', 'The request body is not valid UTF-8.');
  }
}

/** The value of a request body's text, with parseJsonBody's checks. */
export function parseJsonText(text: string): unknown {
  if (!fewBrackets(text, MAX_DEPTH) && exceedsDepth(text, MAX_DEPTH)) {
    throw new AppError('invalid_request', `The request body nests deeper than ${MAX_DEPTH} levels.`);
  }
  // The decoder dropped the body's byte-order mark; secure-json-parse would drop another one, which
  // JSON.parse and the providers' parsers do not: the proxies send this text on, so it is refused here.
  if (text.charCodeAt(0) === 0xfeff)
    throw new AppError('invalid_request', 'The request body is not valid JSON.');
  let value: unknown;
  try {
    value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
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
  const dup = typeof value === 'object' && value !== null ? duplicateKey(text) : null;
  if (dup !== null) {
    // The key is named when it looks like a field name; anything else is not echoed back.
    const named = /^[A-Za-z0-9_.-]{1,64}$/.test(dup) ? ` '${dup}'` : '';
    throw new AppError(
      'invalid_request',
      `The request body repeats the key${named} in one object; each key may appear once.`,
    );
  }
  return value;
}
