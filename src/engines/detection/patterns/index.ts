import { ETHICS_BYPASS_PATTERNS } from './ethics-bypass.js';
import { EXTRACTION_PATTERNS } from './extraction.js';
import { FRAMING_PATTERNS } from './framing.js';
import { INDIRECT_PATTERNS } from './indirect.js';
import { JAILBREAK_PATTERNS } from './jailbreak.js';
import { OUTPUT_CONTROL_PATTERNS } from './output-control.js';
import { OVERRIDE_PATTERNS } from './override.js';
import { RESPONSE_STEERING_PATTERNS } from './response-steering.js';
import { ROUND2_PATTERNS } from './round2.js';
import { TASK_SWITCH_PATTERNS } from './task-switch.js';
import { PatternMatcher } from './guard.js';
import { LiteralScanner, requiredLiterals } from './required.js';
import { type Trigger, triggersOf } from './triggers.js';
import type { PatternDef } from './types.js';

export { PatternMatcher, TextMarks } from './guard.js';
export type { PatternDef } from './types.js';

export const PATTERNS: readonly PatternDef[] = [
  ...OVERRIDE_PATTERNS,
  ...EXTRACTION_PATTERNS,
  ...JAILBREAK_PATTERNS,
  ...FRAMING_PATTERNS,
  ...INDIRECT_PATTERNS,
  ...TASK_SWITCH_PATTERNS,
  ...OUTPUT_CONTROL_PATTERNS,
  ...ETHICS_BYPASS_PATTERNS,
  ...ROUND2_PATTERNS,
  ...RESPONSE_STEERING_PATTERNS,
];

export interface CompiledPattern {
  def: PatternDef;
  /** Position in PATTERNS (and in the plan's `all`). */
  index: number;
  /** Over normalised text. */
  re: RegExp;
  /** The same phrase with word gaps made optional, for letters that were spaced out and joined back. */
  compact: RegExp;
  /** `compact`, anchored (sticky): tried only where one of its opening words occurs in joined-up letters. */
  compactSticky: RegExp;
  /** The same, anchored (sticky): tried only where one of its opening words starts. */
  sticky: RegExp;
  /**
   * What the engine matches with: `re`/`sticky`, or `compact`/`compactSticky` for `compactMatch`, the
   * same matches, with an order's reported/mentioned checks read in code (guard.ts).
   */
  match: PatternMatcher;
  compactMatch: PatternMatcher;
  /** Opening words, one of which a text must contain for the pattern to be worth running; null = always run. */
  triggers: Trigger[] | null;
  /**
   * Sets of literal ids (into the plan's `literals`) a text must contain one of each for `re`, and for
   * `compact`, to match anywhere in it (required.ts); empty when none can be read.
   */
  required: Int32Array[];
  compactRequired: Int32Array[];
}

/**
 * Which patterns to try where. Most patterns open with literal words, so instead of running each over the
 * whole text, each word of the text looks up the patterns that can start with it and tries them there
 * (a sticky match). The cost then grows with the number of words, not with words times patterns.
 */
export interface PatternPlan {
  all: CompiledPattern[];
  /** Patterns without readable opening words: scanned over the whole text. */
  unanchored: CompiledPattern[];
  exact: Map<string, CompiledPattern[]>;
  /** Keyed by the first four letters (or fewer) of a stem; the full stem is checked on use. */
  prefix: Map<string, { word: string; pattern: CompiledPattern }[]>;
  /** Every opening word of every anchored pattern, for finding them anywhere in joined-up letters. */
  openings: OpeningTrie;
  /** Every required literal of every pattern, found in a text in one pass. */
  literals: LiteralScanner;
  /** mayMatchIn's tables: from a literal to the required sets it satisfies, plain and compact. */
  needs: { plain: SetNeeds; compact: SetNeeds; counted: Int32Array };
  /** Per pattern, the trie nodes of `openings` where one of its opening words ends. */
  openingNodes: Int32Array[];
}

/**
 * Per pattern, 1 when `text` holds a literal of each of its required sets (the pattern may match there), 0
 * when it cannot match anywhere in it; `compact` picks the sets of the joined-up-letter expressions.
 */
export function mayMatchIn(text: string, plan: PatternPlan, compact: boolean): Uint8Array {
  const found = plan.literals.found(text);
  const need = compact ? plan.needs.compact : plan.needs.plain;
  // Counted from the literals the text holds (a handful in a short text), not by reading every pattern's
  // sets: a set counts once however many of its literals occur, and a pattern may match when all of its
  // sets counted. The same answer as checking each set, at a cost that follows the text.
  // The stamps live in an Int32Array: past 2^31 a stored stamp would wrap and never equal the next one,
  // and every set would count again per literal (patterns silently dropped), so start over at the top.
  if (need.stamp === STAMP_MAX) {
    need.seen.fill(0);
    need.stamp = 0;
  }
  const stamp = ++need.stamp;
  const counted = plan.needs.counted;
  counted.fill(0);
  for (let k = 0; k < found.n; k++) {
    const sets = need.setsOf[found.ids[k] as number] as Int32Array;
    for (let j = 0; j < sets.length; j++) {
      const set = sets[j] as number;
      if (need.seen[set] === stamp) continue;
      need.seen[set] = stamp;
      const p = need.owner[set] as number;
      counted[p] = (counted[p] as number) + 1;
    }
  }
  const ok = new Uint8Array(plan.all.length);
  for (let p = 0; p < ok.length; p++) ok[p] = counted[p] === need.count[p] ? 1 : 0;
  return ok;
}

/** The largest stamp an Int32Array holds; exported for the test that crosses it. */
export const STAMP_MAX = 0x7fffffff;

/** What mayMatchIn counts with, for the sets of one kind of expression (plain or compact). */
interface SetNeeds {
  /** Per literal id, the sets (numbered over every pattern) it is one of the literals of. */
  setsOf: Int32Array[];
  /** Per set, the index of its pattern. */
  owner: Int32Array;
  /** Per pattern, how many sets it has (0: nothing required, it may match anywhere). */
  count: Int32Array;
  /** Per set, the stamp of the last call that counted it (no table to clear per call). */
  seen: Int32Array;
  stamp: number;
}

function setNeeds(
  all: CompiledPattern[],
  literalCount: number,
  setsOfPattern: (p: CompiledPattern) => Int32Array[],
): SetNeeds {
  const lists: number[][] = Array.from({ length: literalCount }, () => []);
  const owner: number[] = [];
  const count = new Int32Array(all.length);
  for (const p of all) {
    const sets = setsOfPattern(p);
    count[p.index] = sets.length;
    for (const set of sets) {
      const id = owner.length;
      owner.push(p.index);
      // A literal listed twice in one set still counts the set once (the stamp), so no dedupe is needed.
      for (let k = 0; k < set.length; k++) (lists[set[k] as number] as number[]).push(id);
    }
  }
  return {
    setsOf: lists.map((l) => Int32Array.from(l)),
    owner: Int32Array.from(owner),
    count,
    seen: new Int32Array(owner.length),
    stamp: 0,
  };
}

/**
 * The opening words of the anchored patterns (`triggers`) in a trie over a–z. Joined-up letters
 * ("ignoreall…") have no word starts, so the words are looked for at every position: a walk from each
 * position stops at the first letter no opening word continues with, a few steps on any text.
 */
export interface OpeningTrie {
  /** next[node * 26 + letter] = child node, or -1. Node 0 is the root. */
  next: Int32Array;
  /** Indexes into `all` of the patterns an opening word ending at this node opens; null when none. */
  patterns: (Int32Array | null)[];
}

function openingTrie(all: CompiledPattern[]): OpeningTrie {
  let next = new Int32Array(26 * 64).fill(-1);
  const ends: (Set<number> | null)[] = [null];
  all.forEach((p, index) => {
    for (const t of p.triggers ?? []) {
      let node = 0;
      for (let k = 0; k < t.word.length; k++) {
        const slot = node * 26 + t.word.charCodeAt(k) - 97;
        let child = next[slot] as number;
        if (child < 0) {
          child = ends.length;
          ends.push(null);
          if ((child + 1) * 26 > next.length) {
            const bigger = new Int32Array(next.length * 2).fill(-1);
            bigger.set(next);
            next = bigger;
          }
          next[slot] = child;
        }
        node = child;
      }
      const set = ends[node] ?? new Set<number>();
      set.add(index);
      ends[node] = set;
    }
  });
  return {
    next: next.subarray(0, ends.length * 26),
    patterns: ends.map((set) => (set ? Int32Array.from([...set].sort((a, b) => a - b)) : null)),
  };
}

let compiled: CompiledPattern[] | null = null;

// Filler-word gaps, e.g. (?:[\w'-]{1,20}[,;:]?\s+){0,3}. Joined-up letters have no spaces left, so with
// optional spaces such a gap could split one long run of letters in countless ways. It becomes one bounded
// character run instead, which a regex engine can only try in as many ways as it is long.
const FILLER_GAP = /\(\?:\[\\w'-\]\{1,\d+\}(?:\[,;:\]\?)?\\s\+\)\{0,\d+\}/g;

export function compactSource(source: string): string {
  return source
    .replace(FILLER_GAP, (gap) => {
      const n = Number(/\{0,(\d+)\}$/.exec(gap)?.[1] ?? 1);
      return `[\\w'\\s,;:-]{0,${Math.min(64, n * 16)}}`;
    })
    .replaceAll(String.raw`\s+`, String.raw`\s*`)
    .replaceAll(String.raw`\b`, '');
}

let literalIds: Map<string, number> | null = null;

const idsOf = (sets: string[][]): Int32Array[] => {
  literalIds ??= new Map();
  const ids = literalIds;
  return sets.map((set) =>
    Int32Array.from(set, (w) => {
      let id = ids.get(w);
      if (id === undefined) {
        id = ids.size;
        ids.set(w, id);
      }
      return id;
    }),
  );
};

export function compiledPatterns(): CompiledPattern[] {
  compiled ??= PATTERNS.map((def, index) => ({
    def,
    index,
    re: new RegExp(def.source, 'g'),
    compact: new RegExp(compactSource(def.source), 'g'),
    compactSticky: new RegExp(compactSource(def.source), 'y'),
    sticky: new RegExp(def.source, 'y'),
    match: new PatternMatcher(def, (s) => s, 0),
    compactMatch: new PatternMatcher(def, compactSource, 1),
    triggers: triggersOf(def.source),
    required: idsOf(requiredLiterals(def.source)),
    compactRequired: idsOf(requiredLiterals(compactSource(def.source))),
  }));
  return compiled;
}

let plan: PatternPlan | null = null;

export function patternPlan(): PatternPlan {
  if (plan) return plan;
  const all = compiledPatterns();
  const unanchored: CompiledPattern[] = [];
  const exact = new Map<string, CompiledPattern[]>();
  const prefix = new Map<string, { word: string; pattern: CompiledPattern }[]>();
  for (const p of all) {
    if (!p.triggers) {
      unanchored.push(p);
      continue;
    }
    const seenExact = new Set<string>();
    const seenPrefix = new Set<string>();
    for (const t of p.triggers) {
      if (t.prefix) {
        if (seenPrefix.has(t.word)) continue;
        seenPrefix.add(t.word);
        const key = t.word.slice(0, 4);
        prefix.set(key, [...(prefix.get(key) ?? []), { word: t.word, pattern: p }]);
      } else {
        if (seenExact.has(t.word)) continue;
        seenExact.add(t.word);
        exact.set(t.word, [...(exact.get(t.word) ?? []), p]);
      }
    }
  }
  const literals = new LiteralScanner([...(literalIds ?? new Map<string, number>()).keys()]);
  const count = literals.literals.length;
  const openings = openingTrie(all);
  const openingNodes: number[][] = all.map(() => []);
  openings.patterns.forEach((opened, node) => {
    if (opened) for (const i of opened) (openingNodes[i] as number[]).push(node);
  });
  plan = {
    all,
    unanchored,
    exact,
    prefix,
    openings,
    literals,
    needs: {
      plain: setNeeds(all, count, (p) => p.required),
      compact: setNeeds(all, count, (p) => p.compactRequired),
      counted: new Int32Array(all.length),
    },
    openingNodes: openingNodes.map((nodes) => Int32Array.from(nodes)),
  };
  return plan;
}
