import type { Candidate, CustomPattern } from './types.js';

const MAX_LENGTH = 512;
const ALLOWED_FLAGS = /^[imsu]*$/;

/** Type name of a custom pattern: upper-case letters, digits and underscores, as tokens require. */
export function customTypeName(name: string): string {
  return name
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

// Catastrophic backtracking needs a quantified group whose body can itself repeat or branch. Flag those
// shapes statically instead of timing a regex, which would be non-deterministic.
function redosReason(source: string): string | null {
  if (/\\[1-9]|\\k</.test(source)) return 'backreferences are not allowed';
  if (/\(\?<[=!]/.test(source)) return 'lookbehind is not allowed';
  const stack: Array<{ quantified: boolean; alternation: boolean }> = [];
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    if (ch === '[') inClass = true;
    else if (ch === '(') stack.push({ quantified: false, alternation: false });
    else if (ch === '|' && stack.length > 0) stack[stack.length - 1]!.alternation = true;
    else if (ch === ')') {
      const group = stack.pop();
      const next = source[i + 1];
      const quantifiedAfter =
        next === '*' || next === '+' || (next === '{' && /^\{\d*,\d*\}/.test(source.slice(i + 1)));
      if (group && quantifiedAfter && (group.quantified || group.alternation)) {
        return 'nested quantifier or quantified alternation (catastrophic backtracking)';
      }
      if (group?.quantified || quantifiedAfter) {
        const parent = stack[stack.length - 1];
        if (parent) parent.quantified = true;
      }
    } else if ((ch === '*' || ch === '+' || ch === '{') && stack.length > 0) {
      stack[stack.length - 1]!.quantified = true;
    }
  }
  return null;
}

export function validateCustomPattern(p: CustomPattern): { ok: true } | { ok: false; reason: string } {
  if (typeof p.name !== 'string' || customTypeName(p.name) === '')
    return { ok: false, reason: 'name is empty' };
  if (typeof p.regex !== 'string' || p.regex.length === 0) return { ok: false, reason: 'regex is empty' };
  if (p.regex.length > MAX_LENGTH)
    return { ok: false, reason: `regex is longer than ${MAX_LENGTH} characters` };
  const flags = p.flags ?? '';
  if (!ALLOWED_FLAGS.test(flags)) return { ok: false, reason: 'flags may only contain i, m, s, u' };
  let re: RegExp;
  try {
    re = new RegExp(p.regex, flags);
  } catch (err) {
    return { ok: false, reason: `invalid regex: ${(err as Error).message}` };
  }
  if (re.test('')) return { ok: false, reason: 'regex matches the empty string' };
  const redos = redosReason(p.regex);
  if (redos) return { ok: false, reason: redos };
  return { ok: true };
}

export function detectCustom(text: string, patterns: CustomPattern[]): Candidate[] {
  const out: Candidate[] = [];
  for (const p of patterns) {
    if (!validateCustomPattern(p).ok) continue;
    const type = customTypeName(p.name);
    const re = new RegExp(p.regex, `${(p.flags ?? '').replace(/g/g, '')}g`);
    for (const m of text.matchAll(re)) {
      if (m[0].length === 0) continue;
      out.push({
        type,
        domain: p.domain,
        start: m.index,
        end: m.index + m[0].length,
        value: m[0],
        confidence: 0.9,
        detector: `custom:${p.name}`,
      });
    }
  }
  return out;
}
