// A second pre-filter, beside the opening words (triggers.ts): most patterns also need later words ("ignore …
// previous … instructions"), and a text that holds none of a pattern's possible closing words cannot match
// it, however often its opening word occurs. A hostile text repeating one opening word ("ignore ignore …",
// #15) otherwise costs every pattern that opens with it a failed attempt at every occurrence. The words
// are read from the pattern source itself, as the opening words are, so the filter cannot drift from the
// patterns; reading less than the source holds only makes the filter weaker, never wrong.

import { letterTrie } from '../letter-trie.js';

/** A node of the small regular-expression tree the analysis needs. */
type Node =
  | { t: 'char'; c: string }
  /** Consumes one character that is not a fixed letter (a class, an escape, a dot). */
  | { t: 'any' }
  /** Consumes nothing (\b, ^, $, look-arounds). */
  | { t: 'empty' }
  | { t: 'group'; alts: Node[][] }
  | { t: 'rep'; node: Node; min: number };

/** Parses `source` from `i` up to an unmatched `)` or the end: the alternatives and where it stopped. */
function parseAlts(s: string, i: number): { alts: Node[][]; end: number } {
  const alts: Node[][] = [];
  let seq: Node[] = [];
  while (i < s.length) {
    const c = s[i] as string;
    if (c === ')') break;
    if (c === '|') {
      alts.push(seq);
      seq = [];
      i++;
      continue;
    }
    let atom: Node;
    if (c === '(') {
      const look = /^\(\?<?[=!]/.test(s.slice(i, i + 4));
      let k = i + 1;
      if (s[k] === '?') {
        if (s[k + 1] === ':') k += 2;
        else if (s[k + 1] === '<' && s[k + 2] !== '=' && s[k + 2] !== '!') k = s.indexOf('>', k) + 1;
        else k += s[k + 1] === '<' ? 3 : 2;
      }
      const inner = parseAlts(s, k);
      if (s[inner.end] !== ')') throw new Error(`unbalanced group in ${s}`);
      atom = look ? { t: 'empty' } : { t: 'group', alts: inner.alts };
      i = inner.end + 1;
    } else if (c === '[') {
      let k = i + 1;
      if (s[k] === '^') k++;
      while (k < s.length && s[k] !== ']') k += s[k] === '\\' ? 2 : 1;
      atom = { t: 'any' };
      i = k + 1;
    } else if (c === '\\') {
      const e = s[i + 1] as string;
      atom =
        e === 'b' || e === 'B' ? { t: 'empty' } : /[a-zA-Z0-9]/.test(e) ? { t: 'any' } : { t: 'char', c: e };
      i += 2;
      // \xHH, \uHHHH, \cX and \p{…} spell one character (not a letter this analysis reads) in more code units.
      if (e === 'x') i += 2;
      else if (e === 'u') i += s[i] === '{' ? s.indexOf('}', i) - i + 1 : 4;
      else if (e === 'c') i += 1;
      else if ((e === 'p' || e === 'P') && s[i] === '{') i = s.indexOf('}', i) + 1;
    } else if (c === '^' || c === '$') {
      atom = { t: 'empty' };
      i++;
    } else if (c === '.') {
      atom = { t: 'any' };
      i++;
    } else {
      atom = { t: 'char', c };
      i++;
    }
    // A quantifier applies to the atom just read.
    const q = /^(?:([?*+])|\{(\d+)(?:,(\d*))?\})\??/.exec(s.slice(i, i + 16));
    if (q) {
      const min = q[1] ? (q[1] === '+' ? 1 : 0) : Number(q[2]);
      atom = { t: 'rep', node: atom, min };
      i += q[0].length;
    }
    seq.push(atom);
  }
  alts.push(seq);
  return { alts, end: i };
}

/** Single letters say nothing about a text and are not kept. */
const MIN_LITERAL = 2;

/** The required sets of one group: one set covering every alternative, or null when an alternative has none. */
function groupSet(alts: Node[][]): string[] | null {
  const out = new Set<string>();
  for (const alt of alts) {
    const best = bestSet(requiredSets(alt));
    if (!best) return null;
    for (const w of best) out.add(w);
  }
  return [...out];
}

/** The most telling of several required sets: the one whose shortest literal is longest, then the smallest. */
function bestSet(sets: string[][]): string[] | null {
  let best: string[] | null = null;
  let bestShort = 0;
  for (const set of sets) {
    const short = Math.min(...set.map((w) => w.length));
    if (!best || short > bestShort || (short === bestShort && set.length < best.length)) {
      best = set;
      bestShort = short;
    }
  }
  return best;
}

/**
 * Sets of literals (lower-case letters a–z) of which every match of `seq` contains at least one each, as a
 * substring: each run of fixed letters, and each mandatory group's set.
 */
function requiredSets(seq: Node[]): string[][] {
  const sets: string[][] = [];
  let run = '';
  const close = (): void => {
    if (run.length >= MIN_LITERAL) sets.push([run]);
    run = '';
  };
  for (const node of seq) {
    if (node.t === 'char' && node.c >= 'a' && node.c <= 'z') {
      run += node.c;
      continue;
    }
    close();
    const inner = node.t === 'rep' ? (node.min >= 1 ? node.node : null) : node;
    if (inner?.t === 'group') {
      const set = groupSet(inner.alts);
      if (set) sets.push(set);
    }
  }
  close();
  return sets;
}

/**
 * Sets of literals a text must contain, one of each set, for the expression to match anywhere in it (as
 * substrings of runs of a–z letters); an empty list when none can be read. Only letters a–z are read:
 * patterns run over normalised, lower-case text.
 */
export function requiredLiterals(source: string): string[][] {
  const { alts, end } = parseAlts(source, 0);
  if (end !== source.length) throw new Error(`unbalanced ) in ${source}`);
  if (alts.length > 1) {
    const set = groupSet(alts);
    return set ? [set] : [];
  }
  return requiredSets(alts[0] as Node[]);
}

/**
 * Which of many literals occur in a text: an Aho–Corasick automaton over a–z, one pass over the text (any
 * other character ends a run of letters, so a literal is only found inside one).
 */
export class LiteralScanner {
  /** next[state * 26 + letter]: the state after reading the letter (failure links folded in). */
  private readonly next: Int32Array;
  /** Literal ids ending at each state, and the nearest state down the failure chain that has some. */
  private readonly ends: (Int32Array | null)[];
  private readonly outLink: Int32Array;
  readonly literals: string[];
  constructor(literals: string[]) {
    this.literals = literals;
    const { next: goto, endOf, nodes } = letterTrie(literals);
    const ends: number[][] = Array.from({ length: nodes }, () => []);
    endOf.forEach((node, id) => {
      (ends[node] as number[]).push(id);
    });
    const states = ends.length;
    const next = Int32Array.from(goto);
    const fail = new Int32Array(states);
    const outLink = new Int32Array(states).fill(-1);
    // Breadth first: a state's failure link is known before its children's.
    const queue: number[] = [];
    for (let c = 0; c < 26; c++) {
      const child = next[c] as number;
      if (child < 0) next[c] = 0;
      else {
        fail[child] = 0;
        queue.push(child);
      }
    }
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q] as number;
      const f = fail[s] as number;
      outLink[s] = (ends[f] as number[]).length > 0 ? f : (outLink[f] as number);
      for (let c = 0; c < 26; c++) {
        const child = next[s * 26 + c] as number;
        if (child < 0) next[s * 26 + c] = next[f * 26 + c] as number;
        else {
          fail[child] = next[f * 26 + c] as number;
          queue.push(child);
        }
      }
    }
    this.next = next;
    this.ends = ends.map((e) => (e.length > 0 ? Int32Array.from(e) : null));
    this.outLink = outLink;
    this.reached = new Int32Array(states);
    this.foundScratch = { ids: new Int32Array(literals.length), n: 0 };
  }
  /**
   * Marks of the states reached, by scan: a state is reached in this scan when its mark is the scan's
   * number (no table to clear or allocate per text: short texts are most of the traffic).
   */
  private readonly reached: Int32Array;
  private scans = 0;
  /** present[id] = 1 for every literal that occurs in `text`. */
  scan(text: string): Uint8Array {
    const present = new Uint8Array(this.literals.length);
    const found = this.found(text);
    for (let k = 0; k < found.n; k++) present[found.ids[k] as number] = 1;
    return present;
  }
  /**
   * The ids of the literals that occur in `text`, each once, in a list shared by every call (valid until
   * the next): a short text holds a handful of the literals, and its callers then touch only those.
   */
  found(text: string): { ids: Int32Array; n: number } {
    const out = this.foundScratch;
    out.n = 0;
    const reached = this.reached;
    if (this.scans === 0x7fffffff) {
      reached.fill(0);
      this.scans = 0;
    }
    const mark = ++this.scans;
    const { next, ends, outLink } = this;
    let s = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i) - 97;
      if (c < 0 || c > 25) {
        s = 0;
        continue;
      }
      s = next[s * 26 + c] as number;
      // A state already reported has reported its whole failure chain too.
      for (let x = s; x > 0 && reached[x] !== mark; x = outLink[x] as number) {
        reached[x] = mark;
        const e = ends[x];
        // A state is reported once per scan, and each literal ends at one state only: no id twice.
        if (e) for (let k = 0; k < e.length; k++) out.ids[out.n++] = e[k] as number;
      }
    }
    return out;
  }
  /** Room for every literal at once (each is listed at most once per scan). */
  private readonly foundScratch: { ids: Int32Array; n: number };
}
