import type { AlignContext, Unit } from './align.js';
import { isNameLike } from './entities.js';
import { clausesOf, type Prepared } from './prepare.js';
import { fold, type Token } from './text.js';
import { actionIndexes, actionTerm, findPassive } from './voice.js';

/**
 * Who did what to whom. "Alice hired Bob" against the source's "Bob hired Alice" shares every word and
 * every name, so coverage, names and the word-pair signals all read it as stated. Here both sides are read
 * in active order (voice.ts, so "Bob was hired by Alice" is "Alice hired Bob"), and a pair of claim names
 * that stands on the two sides of a shared verb is compared with the evidence clause: the two names on
 * swapped sides of that verb is a role inversion, a contradiction.
 */

/** Names of a claim compared pairwise: a claim rarely has more, and the pairs stay a constant number. */
const MAX_NAMES = 8;
/** Terms of a claim in active order looked at: claims are sentences; a longer one is read to here. */
const MAX_TERMS = 64;

/**
 * Verbs whose two arguments can be exchanged without changing the fact ("Alice married Bob" = "Bob married
 * Alice"), as beginnings of the term a verb is compared under (an English stem or lemma such as "marri",
 * a French stem, a German stem without "ge-"), folded.
 */
const SYMMETRIC = [
  'marr meet partner collabor cooperat allied ally border neighb merg play fight fought faced face',
  'drew draw divorc befriend resembl equal rival duet compet negotiat debat',
  'epous mari rencontr affront allie fusionn bord joua joue ressembl',
  'heirat traf treff begegn grenz spiel fusion kooper',
]
  .join(' ')
  .split(' ')
  .map(fold);
/** Short terms compared whole: as beginnings they would take in other verbs ("mar" of "married", not "mark"). */
const SYMMETRIC_EXACT = new Set(['mar', 'wed', 'met', 'tie', 'tied']);
const symmetric = (term: string): boolean =>
  SYMMETRIC_EXACT.has(term) || SYMMETRIC.some((p) => term.startsWith(p));

/**
 * Words that mark an agent right after a participle: "a film directed by X" is a passive without its
 * auxiliary. German puts such an agent before its participle ("der von X gedrehte Film"), and "von" after a
 * verb is mostly something else ("im Finale von 2019"), so only English and French markers count.
 */
const AGENT_MARKERS = new Set(['by', 'par']);
/** Tokens after the verb looked at for the marker ("directed by", "written and directed by"). */
const MARKER_REACH = 4;

interface Seq {
  /** Active-order keys: a name's folded form, else the term (lemma) the word is compared under. */
  keys: string[];
  /** Whether each key is a name. */
  names: boolean[];
  /** Token index of each key, to look for an agent marker between two of them in the text's own order. */
  at: number[];
}

function nameTest(tokens: Token[], i: number, ctx: AlignContext): boolean {
  const t = tokens[i]!;
  if (!t.capital) return false;
  // The first word of a text is a name when the sources use it as one or never use it in lower case.
  const initial = i === 0 && (ctx.names.has(t.norm) || !ctx.lowerStems.has(t.stem));
  return isNameLike(tokens, i, ctx.lang, initial) || (i > 0 && ctx.names.has(t.norm));
}

function sequence(p: Prepared, ctx: AlignContext, limit: number): Seq {
  const seq: Seq = { keys: [], names: [], at: [] };
  for (const i of actionIndexes(p.text, p.tokens, ctx.lang)) {
    if (seq.keys.length >= limit) break;
    const t = p.tokens[i]!;
    const name = nameTest(p.tokens, i, ctx);
    seq.keys.push(name ? t.norm : actionTerm(t, ctx.lang));
    seq.names.push(name);
    seq.at.push(i);
  }
  return seq;
}

/**
 * Words after a verb that make its two arguments partners ("worked with", "starred alongside", "arbeitete
 * mit … zusammen"): exchanging them keeps the fact.
 */
const COMITATIVE = new Set([
  'with',
  'alongside',
  'together',
  'avec',
  'mit',
  'gemeinsam',
  'zusammen',
  'neben',
]);

/** Whether a comitative word follows the verb at token index v. */
function partnersAfter(tokens: Token[], v: number): boolean {
  for (let k = v + 1; k < tokens.length && k <= v + MARKER_REACH; k++)
    if (COMITATIVE.has(tokens[k]!.norm)) return true;
  return false;
}

/** Whether an agent marker follows the verb at token index v: its next argument is the agent. */
function agentAfter(tokens: Token[], v: number): boolean {
  for (let k = v + 1; k < tokens.length && k <= v + MARKER_REACH; k++)
    if (AGENT_MARKERS.has(tokens[k]!.norm)) return true;
  return false;
}

/**
 * Forms of "to be" (and German passive auxiliaries): "X is a ligand for Y", "X was the architect of Y", "le
 * traitement a été administré à …" state no action of X on Y, and a passive without agent has its object
 * first. A name followed by such a form before its verb is not an agent.
 */
const COPULAS = new Set(
  'is are was were be been being am est sont etait etaient ete etre fut furent ist sind war waren wird wurde wurden werden worden'.split(
    ' ',
  ),
);
const MARKER_GAP = 4;

/** Whether a copula stands between token indexes from and to (exclusive), looking at most a few tokens. */
function copulaBetween(tokens: Token[], from: number, to: number): boolean {
  for (let k = from + 1; k < to && k <= from + MARKER_GAP; k++) if (COPULAS.has(tokens[k]!.norm)) return true;
  return false;
}

/**
 * The verb right after the run of names that holds position k of a sequence, as its position, or -1 when
 * the next term is a name, a number or absent, or a copula stands before it (not passive clauses only: a
 * passive's active order already puts its agent first).
 */
function verbAfter(seq: Seq, k: number, tokens: Token[], passive: boolean): number {
  let end = k;
  while (end + 1 < seq.keys.length && seq.names[end + 1]) end++;
  const v = end + 1;
  if (v >= seq.keys.length || /\d/.test(seq.keys[v]!)) return -1;
  if (!passive && copulaBetween(tokens, seq.at[end]!, seq.at[v]!)) return -1;
  return v;
}

/**
 * Claim names whose role the evidence unit inverts: a claim name a is followed by its verb v (after the
 * rest of its name) and another name b comes later, while a clause of the unit has b followed by v and a
 * after it, both read in active order. A passive without auxiliary ("a film directed by X"), a copula
 * ("X is a ligand of Y"), a verb whose arguments may be exchanged or one followed by "with" is left alone.
 */
export function roleInversions(claim: Prepared, unit: Unit, ctx: AlignContext): string[] {
  const c = sequence(claim, ctx, MAX_TERMS);
  const names: number[] = [];
  for (let k = 0; k < c.keys.length && names.length < MAX_NAMES; k++) if (c.names[k]) names.push(k);
  if (names.length < 2) return [];
  const claimPassive = findPassive(claim.text, claim.tokens, ctx.lang) !== null;
  // (a, v, b): a's position, its verb's, and each later name's.
  const triples: Array<[number, number, number]> = [];
  for (const pa of names) {
    if (pa > 0 && c.names[pa - 1]) continue;
    const pv = verbAfter(c, pa, claim.tokens, claimPassive);
    if (pv < 0 || symmetric(c.keys[pv]!) || partnersAfter(claim.tokens, c.at[pv]!)) continue;
    if (!claimPassive && agentAfter(claim.tokens, c.at[pv]!)) continue;
    for (const pb of names) if (pb > pv && c.keys[pb] !== c.keys[pa]) triples.push([pa, pv, pb]);
  }
  if (triples.length === 0) return [];
  const out = new Set<string>();
  for (const s of unit.sentences) {
    for (const clause of new Set([s, ...clausesOf(s)])) {
      const u = sequence(clause, ctx, Number.POSITIVE_INFINITY);
      const first = new Map<string, number>();
      u.keys.forEach((k, j) => {
        if (!first.has(k)) first.set(k, j);
      });
      const unitPassive = findPassive(clause.text, clause.tokens, ctx.lang) !== null;
      for (const [pa, pv, pb] of triples) {
        const qa = first.get(c.keys[pa]!);
        const qb = first.get(c.keys[pb]!);
        if (qa === undefined || qb === undefined || qb > qa) continue;
        const qv = verbAfter(u, qb, clause.tokens, unitPassive);
        if (qv < 0 || u.keys[qv] !== c.keys[pv] || qa <= qv) continue;
        if (!unitPassive && agentAfter(clause.tokens, u.at[qv]!)) continue;
        out.add(`role ${claim.tokens[c.at[pa]!]!.raw}`);
      }
    }
  }
  return [...out];
}
