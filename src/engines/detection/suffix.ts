// Adversarial suffixes (GCG and similar optimisers) append a run of machine-made tokens to a plain
// request: brackets glued to words, stray LaTeX and markup fragments, camel-case splices. Ordinary prose
// has almost none of these; code and markup have many, but spread over the whole text. So the signal is a
// tail dense in odd tokens after a head that reads as prose. One pass over the tokens: linear time.

const BRACKETS = /[{}[\]()<>\\|$^~=@#*`_]/g;
const GLUED = /\p{L}[{}[\]()<>\\|$^~=@#`]|[{}[\]<>\\|$^~=@#*`]\p{L}/u;
// Regular structure is not noise: links, e-mail addresses, markup tags and attributes, hashtags,
// template placeholders, bracketed words, JSON keys.
const STRUCTURED = /:\/\/|^www\.|\w@\w+\.\w|<\/|="|\]->/;
const REGULAR = /^<\/?[A-Za-z][\w-]*|^#\w+$|\{\{\w+\}\}|^\[?\w+\]?$|^"?\w+"?[:,]?[}\]]*,?$/;
/** Tokens read at the end of the text. */
const TAIL_MAX = 20;

export interface SuffixFinding {
  /** Offsets of the odd tail in the original text. */
  start: number;
  end: number;
  /** Distinct odd tokens in the tail. */
  odd: number;
}

function count(s: string, re: RegExp): number {
  return s.match(re)?.length ?? 0;
}

export function isOddToken(token: string): boolean {
  const core = token.replace(/^["'(]+|[.,!?;:"')]+$/g, '');
  if (core.length < 3 || STRUCTURED.test(core) || REGULAR.test(core)) return false;
  const letters = count(core, /\p{L}/gu);
  const brackets = count(core, BRACKETS);
  const other = core.length - letters - count(core, /[0-9]/g);
  if (letters >= 2 && brackets >= 2) return true;
  if (letters >= 2 && GLUED.test(core.slice(1, -1)) && !/^\w+\(\)$/.test(core)) return true;
  if (letters === 0 && other >= 3 && !/^[-=_*.]{3,}$/.test(core)) return true;
  if (letters >= 2 && /[^\p{L}\p{N}\s]{3,}/u.test(core)) return true;
  if (letters >= 6 && /\p{Ll}{2,}\p{Lu}/u.test(core)) return true;
  return /[!?]{2,}\p{L}|\p{L}[!?]{2,}\p{L}/u.test(core);
}

export function adversarialSuffix(text: string): SuffixFinding | null {
  const spans: [number, number][] = [];
  const re = /\S+/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) spans.push([m.index, m.index + m[0].length]);
  if (spans.length < 8) return null;
  const tailLen = Math.min(TAIL_MAX, Math.ceil(spans.length / 2));
  const cut = spans.length - tailLen;
  const word = (i: number): string =>
    text.slice((spans[i] as [number, number])[0], (spans[i] as [number, number])[1]);
  let headOdd = 0;
  let ticks = 0;
  for (let i = 0; i < cut; i++) {
    const w = word(i);
    // Code blocks and formulas in the head mean the whole text is technical, not a request plus noise.
    if (w.includes('```') || w.includes('\\frac') || w.includes('$$')) return null;
    if (w.includes('`')) ticks++;
    if (isOddToken(w)) headOdd++;
  }
  if (cut < 5 || ticks >= 2 || headOdd / cut >= 0.05) return null;
  const odd = new Set<string>();
  let first = -1;
  for (let i = cut; i < spans.length; i++) {
    const w = word(i);
    if (!isOddToken(w)) continue;
    odd.add(w);
    if (first < 0) first = i;
  }
  if (odd.size < 3 || odd.size / tailLen < 0.15 || first < 0) return null;
  return { start: (spans[first] as [number, number])[0], end: text.length, odd: odd.size };
}
