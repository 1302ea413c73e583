// A cheap pre-filter: most patterns open with a group of literal words ("ignore|disregard|..."). A
// pattern whose opening words do not occur among the text's words cannot match, so it is not run. The
// words are read from the pattern source itself, so the filter can never drift from the patterns.

export interface Trigger {
  word: string;
  /** True when the source lets more letters follow (a stem such as "ignor(?:e|er)"). */
  prefix: boolean;
}

function skipClass(s: string, i: number): number {
  let k = i + 1;
  while (k < s.length && s[k] !== ']') k += s[k] === '\\' ? 2 : 1;
  return k;
}

/** Splits a group body at its top-level `|`. */
function splitAlternatives(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') i = skipClass(body, i);
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      out.push(body.slice(cur, i));
      cur = i + 1;
    }
  }
  out.push(body.slice(cur));
  return out;
}

/** Index of the `)` closing the group opened at `open`. */
function closeOf(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') i = skipClass(s, i);
    else if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** The words one of which must open any match, or null when they cannot be read off the source. */
export function triggersOf(source: string, depth = 0): Trigger[] | null {
  const top = splitAlternatives(source);
  if (top.length > 1) {
    const out: Trigger[] = [];
    for (const alt of top) {
      const t = triggersOf(alt, depth + 1);
      if (!t) return null;
      out.push(...t);
    }
    return out;
  }
  let s = source;
  while (s.startsWith(String.raw`\b`)) s = s.slice(2);
  // Look-arounds consume nothing: the words after them still open the match.
  while (/^\(\?<?[!=]/.test(s)) {
    const close = closeOf(s, 0);
    if (close < 0) return null;
    s = s.slice(close + 1);
  }
  if (depth > 4) return null;
  if (s.startsWith('(?:')) {
    const close = closeOf(s, 0);
    if (close < 0) return null;
    const after = s[close + 1];
    if (after === '?' || after === '*' || s.startsWith('{0', close + 1)) return null;
    const out: Trigger[] = [];
    for (const alt of splitAlternatives(s.slice(3, close))) {
      const t = triggersOf(alt, depth + 1);
      if (!t) return null;
      out.push(...t);
    }
    return out;
  }
  const m = /^[a-z]+/.exec(s);
  if (!m) return null;
  let word = m[0];
  const next = s[word.length];
  // Only a following space or word boundary proves the word ends here; anything else may extend it.
  const rest = s.slice(word.length);
  let prefix = !(rest.startsWith(String.raw`\s`) || rest.startsWith(String.raw`\b`) || rest.startsWith(' '));
  if (next === '?' || next === '*' || next === '{') {
    word = word.slice(0, -1);
    prefix = true;
  }
  if (!word) return null;
  return [{ word, prefix }];
}

export interface WordIndex {
  exact: Set<string>;
  prefixes: Set<string>;
}

const WORD = /[a-z]+/g;

export function wordIndex(text: string): WordIndex {
  const exact = new Set<string>();
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m !== null; m = WORD.exec(text)) exact.add(m[0]);
  const prefixes = new Set<string>();
  for (const w of exact) for (let k = 1; k <= Math.min(4, w.length); k++) prefixes.add(w.slice(0, k));
  return { exact, prefixes };
}

export function mayMatch(triggers: Trigger[] | null, ix: WordIndex): boolean {
  if (!triggers) return true;
  for (const t of triggers) {
    if (t.prefix ? ix.prefixes.has(t.word.slice(0, 4)) : ix.exact.has(t.word)) return true;
  }
  return false;
}
