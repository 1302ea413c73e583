import { RE2JS } from 're2js';
import type { Candidate, CustomPattern } from './types.js';

const MAX_LENGTH = 512;
const ALLOWED_FLAGS = /^[imsu]*$/;
/**
 * Instructions of the compiled automaton. Matching is linear in the text, but the constant is the size of
 * the program: `[\s\S]{1000}` compiles to about a thousand states, and fifty such patterns over a 1 MB text
 * would be linear and still slow. Real identifiers (employee numbers, contract codes) need a few dozen.
 */
export const MAX_PROGRAM_SIZE = 2_000;

/** Type name of a custom pattern: upper-case letters, digits and underscores, as tokens require. */
export function customTypeName(name: string): string {
  return (
    name
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '_')
      // The replace above leaves no run of '_' longer than one: one at each end is all there is to trim (a
      // `_+$` tried from every '_' of a long run is quadratic; src/engines/regex-backtracking.test.ts keeps engines free of such shapes).
      .replace(/^_|_$/g, '')
  );
}

// What RE2 refuses, named the way an administrator who wrote a JavaScript or PCRE pattern would look for it.
const UNSUPPORTED: ReadonlyArray<[RegExp, string]> = [
  [/`\(\?[=!]/, 'lookahead (?= or (?! is not supported'],
  [/`\(\?<[=!]/, 'lookbehind (?<= or (?<! is not supported'],
  [/escape sequence: `\\(?:[1-9]|k)/, 'backreferences (\\1, \\k<name>) are not supported'],
  [/`\(\?>/, 'atomic groups (?> are not supported'],
  [/nested repetition operator: `[*+?}]\+/, 'possessive quantifiers (a++, a*+) are not supported'],
  [/repeat count/, 'repeat counts above 1000 (or nested to more than 1000) are not supported'],
];

function describeSyntaxError(message: string): string {
  for (const [shape, text] of UNSUPPORTED) if (shape.test(message)) return text;
  return message.replace(/^error parsing regexp: /, '');
}

function re2Flags(flags: string): number {
  let f = 0;
  if (flags.includes('i')) f |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) f |= RE2JS.MULTILINE;
  if (flags.includes('s')) f |= RE2JS.DOTALL;
  // "u" needs nothing: RE2 always matches code points.
  return f;
}

/**
 * \uXXXX and \u{X…} (JavaScript) become \x{…} (RE2). Only these: re2js's own translateRegExp also turns
 * an unknown escape such as \k into a literal letter, which would silently change what a pattern means.
 */
function translateUnicodeEscapes(regex: string): string {
  let out = '';
  for (let i = 0; i < regex.length; i++) {
    const ch = regex[i];
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const rest = regex.slice(i + 1);
    const m = /^u(?:([0-9a-fA-F]{4})|\{([0-9a-fA-F]{1,6})\})/.exec(rest);
    if (m) {
      out += `\\x{${m[1] ?? m[2]}}`;
      i += m[0].length;
    } else {
      out += ch + (regex[i + 1] ?? '');
      i++;
    }
  }
  return out;
}

type Compiled = { ok: true; re: RE2JS } | { ok: false; reason: string };

// Settings change rarely and every request of an organization uses the same patterns: compile each once.
const cache = new Map<string, Compiled>();
const CACHE_LIMIT = 1_000;

/**
 * Compiles with RE2 semantics (re2js: a pure-JavaScript port of RE2, so it runs in the browser extension
 * too). Matching time is linear in the text whatever the pattern: there is no backtracking to blow up.
 * JavaScript's \uXXXX and \u{…} escapes are translated; constructs that need backtracking are
 * refused with their name.
 */
export function compileCustomPattern(regex: string, flags = ''): Compiled {
  const key = `${flags}/${regex}`;
  const hit = cache.get(key);
  if (hit) return hit;
  let out: Compiled;
  try {
    const re = RE2JS.compile(translateUnicodeEscapes(regex), re2Flags(flags));
    const size = programSize(re);
    out =
      size > MAX_PROGRAM_SIZE
        ? { ok: false, reason: `the pattern is too large (${size} states; at most ${MAX_PROGRAM_SIZE})` }
        : { ok: true, re };
  } catch (err) {
    out = { ok: false, reason: describeSyntaxError((err as Error).message) };
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, out);
  return out;
}

function programSize(re: RE2JS): number {
  // re2js exposes the compiled program without typing it; a missing count is treated as small.
  const prog = (re.re2() as unknown as { prog?: { numInst?: () => number } }).prog;
  return prog?.numInst?.() ?? 0;
}

export function validateCustomPattern(p: CustomPattern): { ok: true } | { ok: false; reason: string } {
  if (typeof p.name !== 'string' || customTypeName(p.name) === '')
    return { ok: false, reason: 'name is empty' };
  if (typeof p.regex !== 'string' || p.regex.length === 0) return { ok: false, reason: 'regex is empty' };
  if (p.regex.length > MAX_LENGTH)
    return { ok: false, reason: `regex is longer than ${MAX_LENGTH} characters` };
  const flags = p.flags ?? '';
  if (!ALLOWED_FLAGS.test(flags)) return { ok: false, reason: 'flags may only contain i, m, s, u' };
  const compiled = compileCustomPattern(p.regex, flags);
  if (!compiled.ok) return { ok: false, reason: compiled.reason };
  if (compiled.re.test('')) return { ok: false, reason: 'regex matches the empty string' };
  return { ok: true };
}

export function detectCustom(text: string, patterns: CustomPattern[]): Candidate[] {
  const out: Candidate[] = [];
  for (const p of patterns) {
    if (!validateCustomPattern(p).ok) continue;
    const compiled = compileCustomPattern(p.regex, p.flags ?? '');
    if (!compiled.ok) continue;
    const type = customTypeName(p.name);
    // Offsets are UTF-16 indices, like those of the built-in detectors.
    const m = compiled.re.matcher(text);
    while (m.find()) {
      const start = m.start();
      const end = m.end();
      if (end <= start) continue;
      out.push({
        type,
        domain: p.domain,
        start,
        end,
        value: text.slice(start, end),
        confidence: 0.9,
        detector: `custom:${p.name}`,
      });
    }
  }
  return out;
}
