import type { Fact } from './fact.js';
import { FACTS_DE } from './facts-de.js';
import { FACTS_EN } from './facts-en.js';
import { FACTS_FR } from './facts-fr.js';

export type Label = 'supported' | 'contradicted' | 'unsupported' | 'partially_supported';
export type Kind =
  | 'paraphrase'
  | 'number_swap'
  | 'date_swap'
  | 'entity_swap'
  | 'negation'
  | 'antonym_quantifier'
  | 'unsupported_addition'
  | 'partial';

export interface Case {
  id: string;
  fact: string;
  claim: string;
  sources: string[];
  /** Index in `sources` of the document that states the fact. */
  gold_source: number;
  label: Label;
  kind: Kind;
  lang: 'en' | 'fr' | 'de';
}

export const ALL_FACTS: Fact[] = [...FACTS_EN, ...FACTS_FR, ...FACTS_DE];

/** Facts at positions 1 and 3 modulo 5 within each language form the test part (8 of 20); the rest tune. */
export function splitOf(fact: Fact): 'tuning' | 'test' {
  const list = ALL_FACTS.filter((f) => f.lang === fact.lang);
  const i = list.indexOf(fact);
  return i % 5 === 1 || i % 5 === 3 ? 'test' : 'tuning';
}

// Small deterministic PRNG (mulberry32) so the generated files are reproducible.
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function swap(text: string, [from, to]: [string, string], what: string, id: string): string {
  // Whole tokens only: swapping "2" must not turn "2006" into "6006".
  const re = new RegExp(`(?<![\\p{L}\\d])${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\d])`, 'u');
  if (!re.test(text)) throw new Error(`${id}: ${what} "${from}" not in "${text}"`);
  return text.replace(re, to);
}

/** Sources for one fact: its document, its decoy and two other documents of the same language, shuffled. */
export function sourcesFor(fact: Fact, salt: number): { sources: string[]; gold: number } {
  const same = ALL_FACTS.filter((f) => f.lang === fact.lang && f !== fact);
  const next = rng(hash(fact.id) + salt);
  const others = [...same].sort(() => next() - 0.5).slice(0, 2);
  const docs = [fact.doc, fact.decoy, ...others.map((o) => o.doc)];
  const order = docs.map((d, i) => ({ d, i, k: next() })).sort((a, b) => a.k - b.k);
  return { sources: order.map((o) => o.d), gold: order.findIndex((o) => o.i === 0) };
}

export function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

export function casesFor(fact: Fact): Case[] {
  const variants: Array<[Kind, Label, string]> = [
    ['paraphrase', 'supported', fact.sup],
    ['paraphrase', 'supported', fact.alt],
    ['number_swap', 'contradicted', swap(fact.sup, fact.num, 'number', fact.id)],
    ['entity_swap', 'contradicted', swap(fact.sup, fact.ent, 'entity', fact.id)],
    ['negation', 'contradicted', fact.neg],
    ['antonym_quantifier', 'contradicted', fact.flip],
    ['unsupported_addition', 'unsupported', fact.add],
    ['partial', 'partially_supported', `${fact.sup} ${fact.add}`],
  ];
  if (fact.date[0]) variants.push(['date_swap', 'contradicted', swap(fact.sup, fact.date, 'date', fact.id)]);
  return variants.map(([kind, label, claim], i) => {
    const { sources, gold } = sourcesFor(fact, i);
    return {
      id: `${fact.id}-${i}`,
      fact: fact.id,
      claim,
      sources,
      gold_source: gold,
      label,
      kind,
      lang: fact.lang,
    };
  });
}
