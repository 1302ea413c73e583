import { ANTONYMS, NEGATION_WORDS, SCALES } from './lexicon.js';
import type { Token } from './text.js';

// French partners that are negation cues on their own ("jamais", "aucun"); "ne … jamais" counts once.
const FRENCH_CUE_PARTNERS = new Set(['jamais', 'aucun', 'aucune', 'rien', 'nullement']);

/** Number of negation events: "ne … pas" counts once, English "n't" counts, "pas" alone counts. */
export function negationCount(text: string, tokens: Token[]): number {
  let n = 0;
  let ne = 0;
  let cuePartners = 0;
  let pas = 0;
  for (const t of tokens) {
    if (t.norm === 'ne' || (t.norm === 'n' && /^n['’]/iu.test(text.slice(t.start, t.start + 2)))) ne++;
    else if (t.norm === 'pas') pas++;
    if (FRENCH_CUE_PARTNERS.has(t.norm)) cuePartners++;
    if (NEGATION_WORDS.has(t.norm)) n++;
  }
  n += ne > 0 ? Math.max(0, ne - cuePartners) : pas;
  n += (text.match(/n['’]t\b/giu) ?? []).length;
  return n;
}

function hasPattern(tokens: Token[], joined: string, p: string): boolean {
  if (p.includes(' ')) return joined.includes(` ${p}`);
  if (p.length <= 4)
    return tokens.some(
      (t) => t.norm === p || t.norm === `${p}s` || t.norm === `${p}d` || t.norm === `${p}ed`,
    );
  return tokens.some((t) => t.norm.startsWith(p));
}

const joinNorms = (tokens: Token[]): string => ` ${tokens.map((t) => t.norm).join(' ')} `;

/** An antonym pair split between claim and evidence ("increased" vs "decreased"). */
export function antonymConflict(claim: Token[], evidence: Token[]): string | null {
  const cj = joinNorms(claim);
  const ej = joinNorms(evidence);
  for (const [a, b] of ANTONYMS) {
    const ca = hasPattern(claim, cj, a);
    const cb = hasPattern(claim, cj, b);
    if (ca === cb) continue;
    const ea = hasPattern(evidence, ej, a);
    const eb = hasPattern(evidence, ej, b);
    if (ca && eb && !ea) return `${a}/${b}`;
    if (cb && ea && !eb) return `${b}/${a}`;
  }
  return null;
}

function classesOf(tokens: Token[]): Map<string, string> {
  const joined = joinNorms(tokens);
  const found = new Map<string, string>();
  for (const s of SCALES) {
    for (const p of s.phrases) {
      const hit = p.includes(' ') ? joined.includes(` ${p} `) : tokens.some((t) => t.norm === p);
      if (hit) found.set(`${s.scale}:${s.cls}`, s.cls);
    }
  }
  return found;
}

// Claim class → evidence classes that conflict with it. "some" in a claim is implied by "all" in the source.
const CONFLICTS: Record<string, string[]> = {
  'quantity:all': ['quantity:some', 'quantity:most'],
  'quantity:most': ['quantity:some'],
  'frequency:often': ['frequency:rarely'],
  'frequency:rarely': ['frequency:often'],
  'modality:must': ['modality:may'],
  'modality:may': ['modality:must'],
};

/** A quantifier, frequency or modality word in the claim that the evidence states differently. */
export function scaleConflict(claim: Token[], evidence: Token[]): string | null {
  const c = classesOf(claim);
  const e = classesOf(evidence);
  for (const key of c.keys()) {
    for (const other of CONFLICTS[key] ?? []) {
      if (e.has(other) && !e.has(key) && !c.has(other)) return `${key}→${other}`;
    }
  }
  return null;
}
