import { AGREEMENT_PROHIBITIONS, ALL_ANTONYMS, ANTONYMS, NEGATION_WORDS, SCALES } from './lexicon.js';
import type { Token } from './text.js';

// French partners that are negation cues on their own ("jamais", "aucun"); "ne … jamais" counts once.
const FRENCH_CUE_PARTNERS = new Set(['jamais', 'aucun', 'aucune', 'rien', 'nullement']);

/** Negation events of a prepared text, with the agreement's prohibition forms when `agreement` is on. */
export function negationsOf(p: { negations: number; tokens: readonly Token[] }, agreement: boolean): number {
  if (!agreement) return p.negations;
  let n = p.negations;
  for (const t of p.tokens) if (AGREEMENT_PROHIBITIONS.has(t.norm)) n++;
  return n;
}

/** Whether a token is a negation cue (with the agreement's prohibition forms). */
export const isNegationCue = (norm: string): boolean =>
  NEGATION_WORDS.has(norm) || AGREEMENT_PROHIBITIONS.has(norm);

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

/**
 * What one token list holds, worked out once per list: a prepared text's tokens never change, and the same
 * evidence clause is compared with many claims (a claim with eight candidates each). Antonym patterns are
 * looked up on demand (most pairs are never asked of an evidence clause), scale classes all at once.
 */
interface PatternMemo {
  tokens: Token[];
  joined: string;
  norms: Set<string>;
  /** Per antonym pair i, its first pattern at 2i and its second at 2i + 1: 1 held, 0 not, -1 not asked yet. */
  antonyms: Int8Array;
  classes?: Map<string, string>;
}

const MEMOS = new WeakMap<Token[], PatternMemo>();

function memoOf(tokens: Token[]): PatternMemo {
  let m = MEMOS.get(tokens);
  if (!m) {
    m = {
      tokens,
      joined: ` ${tokens.map((t) => t.norm).join(' ')} `,
      norms: new Set(tokens.map((t) => t.norm)),
      antonyms: new Int8Array(ALL_ANTONYMS.length * 2).fill(-1),
    };
    MEMOS.set(tokens, m);
  }
  return m;
}

function hasPattern(m: PatternMemo, p: string): boolean {
  if (p.includes(' ')) return m.joined.includes(` ${p}`);
  if (p.length <= 4)
    return m.norms.has(p) || m.norms.has(`${p}s`) || m.norms.has(`${p}d`) || m.norms.has(`${p}ed`);
  return m.tokens.some((t) => t.norm.startsWith(p));
}

function antonymHit(m: PatternMemo, slot: number): number {
  let v = m.antonyms[slot]!;
  if (v < 0) {
    v = hasPattern(m, ALL_ANTONYMS[slot >> 1]![slot & 1]!) ? 1 : 0;
    m.antonyms[slot] = v;
  }
  return v;
}

/** An antonym pair split between claim and evidence: the claim's side and the evidence's side. */
export interface AntonymSplit {
  label: string;
  claimPattern: string;
  evidencePattern: string;
}

/**
 * The first antonym pair split between claim and evidence ("increased" vs "decreased"), or null. `more`:
 * also the pairs of the agreement (lexicon.ts AGREEMENT_PAIRS; CheckOptions.agreement).
 */
export function antonymSplit(claim: Token[], evidence: Token[], more = false): AntonymSplit | null {
  const c = memoOf(claim);
  let e: PatternMemo | undefined;
  const n = more ? ALL_ANTONYMS.length : ANTONYMS.length;
  for (let i = 0; i < n; i++) {
    const ca = antonymHit(c, 2 * i);
    const cb = antonymHit(c, 2 * i + 1);
    if (ca === cb) continue;
    e ??= memoOf(evidence);
    const ea = antonymHit(e, 2 * i);
    const eb = antonymHit(e, 2 * i + 1);
    const [a, b] = ALL_ANTONYMS[i]!;
    if (ca && eb && !ea) return { label: `${a}/${b}`, claimPattern: a, evidencePattern: b };
    if (cb && ea && !eb) return { label: `${b}/${a}`, claimPattern: b, evidencePattern: a };
  }
  return null;
}

/** An antonym pair split between claim and evidence ("increased" vs "decreased"), as "claim/evidence". */
export function antonymConflict(claim: Token[], evidence: Token[]): string | null {
  return antonymSplit(claim, evidence)?.label ?? null;
}

/** The tokens a pattern of ALL_ANTONYMS matches (the same test as hasPattern; a phrase matches none). */
export function patternTokens(tokens: readonly Token[], p: string): Token[] {
  if (p.includes(' ')) return [];
  if (p.length <= 4) {
    const forms = new Set([p, `${p}s`, `${p}d`, `${p}ed`]);
    return tokens.filter((t) => forms.has(t.norm));
  }
  return tokens.filter((t) => t.norm.startsWith(p));
}

/**
 * Negative prefixes that make an antonym of a word ("unknown", "impossible", "illegal", "unmöglich",
 * "inconnu", "disagree", "non-binding"). Only asked for a claim word the evidence does not state, when
 * claim and evidence differ in negation (align.ts): "is not known" against "is unknown".
 */
const NEGATIVE_PREFIXES = ['un', 'in', 'im', 'il', 'ir', 'dis', 'non'];
/** Shortest word a prefix is stripped to: "in" + "form" is no antonym of "form". */
const MIN_ROOT = 5;

/** Whether one word is the other with a negative prefix ("known"/"unknown", "possible"/"impossible"). */
export function prefixAntonyms(a: string, b: string): boolean {
  const [s, l] = a.length <= b.length ? [a, b] : [b, a];
  if (s.length < MIN_ROOT || !l.endsWith(s)) return false;
  const head = l.slice(0, l.length - s.length);
  return NEGATIVE_PREFIXES.includes(head);
}

function classesOf(tokens: Token[]): Map<string, string> {
  const m = memoOf(tokens);
  if (m.classes) return m.classes;
  const found = new Map<string, string>();
  for (const s of SCALES) {
    for (const p of s.phrases) {
      const hit = p.includes(' ') ? m.joined.includes(` ${p} `) : m.norms.has(p);
      if (hit) found.set(`${s.scale}:${s.cls}`, s.cls);
    }
  }
  m.classes = found;
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
