import { datesCompatible, dateCovers } from './dates.js';
import { sharesRoot } from './derivation.js';
import { GERMAN_DETERMINERS, isNameLike } from './entities.js';
import { type NumberMention, relateNumbers } from './numbers.js';
import {
  type AntonymSplit,
  antonymSplit,
  isNegationCue,
  negationsOf,
  patternTokens,
  prefixAntonyms,
  scaleConflict,
} from './polarity.js';
import { clausesOf, type Prepared } from './prepare.js';
import { canonical, TermIndex, termsMatch } from './terms.js';
import { isStopword, type Token } from './text.js';
import { lexAntonyms } from './wordnet.js';

/**
 * Everything one source says, for slots stated in another sentence than the one retrieved. Words are indexed
 * and slots deduplicated and capped (see sourceInfo in index.ts), so that a lookup does not grow with the
 * source: each clause of the claim looks here, and a scan of the source per lookup was claim × source (#15).
 */
export interface SourceInfo {
  terms: TermIndex;
  /** Folded tokens, with prefixes from three characters ("Matt" names "Matthew"). */
  tokens: TermIndex;
  numbers: NumberMention[];
  dates: Prepared['dates'];
}

/** A retrieval unit: one source sentence or a window of consecutive sentences. */
export interface Unit {
  source: number;
  text: string;
  sentences: Prepared[];
  terms: string[];
  numbers: NumberMention[];
  whole: SourceInfo;
}

/**
 * Credit for a claim name found elsewhere in the same source: the subject is often named once, then "it".
 * Only names get it, so a sentence cannot borrow the predicate of another sentence.
 */
const SOURCE_CREDIT = 0.7;

export interface Alignment {
  /** Weighted share of the claim (content words and slots) the evidence states. */
  coverage: number;
  /** Slot disagreements: the evidence says otherwise. */
  conflicts: string[];
  /** Claim slots (numbers, dates, names) the evidence does not state. */
  missing: string[];
  /**
   * Claim words the evidence states as the negated opposite ("not open" / "closed", "costs nothing" /
   * "free", "nicht erlaubt" / "verboten"), with the claim's own negation words: credited as stated.
   */
  flipped: string[];
  /** Claim words the evidence states by another word of their family (French/German, derivation.ts). */
  derived: string[];
  /**
   * Disagreements that may concern another event (a different year, the only other number): contradictions
   * when the rest of the claim matches closely, otherwise missing details.
   */
  weak: string[];
}

export interface AlignContext {
  idf: (term: string) => number;
  lang: string;
  /** Folded tokens that look like names somewhere in the sources. */
  names: ReadonlySet<string>;
  /** Stems the sources use in lower case: a capitalised claim word with such a stem is a common word. */
  lowerStems: ReadonlySet<string>;
  /** Negation × antonym agreement and French/German word families (CheckOptions.agreement; off by default). */
  agreement?: boolean;
}

function hasTerm(terms: readonly string[], t: string): boolean {
  for (const u of terms) if (termsMatch(t, u)) return true;
  return false;
}

/** IDF-weighted share of the claim's content words found in the evidence (partly, in the rest of its source). */
export function coverage(
  claim: Prepared,
  evidenceTerms: readonly string[],
  idf: (t: string) => number,
  sourceTerms?: TermIndex,
  credited?: ReadonlySet<string>,
): number {
  let total = 0;
  let found = 0;
  for (const w of new Set(claim.words)) {
    const weight = Math.max(0.2, idf(w));
    total += weight;
    if (hasTerm(evidenceTerms, w) || credited?.has(w)) found += weight;
    else if (sourceTerms?.matches(w)) {
      found += weight * (claim.capitalised.has(w) ? SOURCE_CREDIT : ALIGN.lowerCaseSourceCredit);
    }
  }
  return total === 0 ? 1 : found / total;
}

// Words next to a number name its slot ("1,250 employees", "founded in 2011").
function slotWords(p: Prepared, start: number): string[] {
  const before = p.tokens.filter((t) => t.start < start && !isStopword(t.norm)).slice(-2);
  const after = p.tokens.filter((t) => t.start > start && !isStopword(t.norm)).slice(0, 2);
  return [...before, ...after].map(canonical);
}

function numberOwner(unit: Unit, n: NumberMention): Prepared | undefined {
  return unit.sentences.find((s) => s.numbers.includes(n));
}

interface SlotTally {
  total: number;
  found: number;
}

/**
 * Coverage mixes words and slots: the words count as WORD_WEIGHT in all, each number or date as SLOT_WEIGHT,
 * credited in full when the evidence states it and SOURCE_CREDIT when only another sentence of its source does.
 */
const WORD_WEIGHT = 4;
const SLOT_WEIGHT = 1;
/** A disagreeing slot still shows the evidence talks about the same thing; it counts this much for alignment. */
export const ALIGN = { conflict: 1, lowerCaseSourceCredit: 0.35 };

function compareNumbers(claim: Prepared, unit: Unit, out: Alignment, slots: SlotTally): void {
  const evYears = new Set<number>();
  for (const s of unit.sentences) for (const d of s.dates) if (d.y !== undefined) evYears.add(d.y);
  for (const c of claim.numbers) {
    let matched = false;
    const conflicts: NumberMention[] = [];
    const cw = slotWords(claim, c.start);
    const sameSlot = (e: NumberMention): boolean => {
      const owner = numberOwner(unit, e);
      return cw.some((w) => hasTerm(owner ? slotWords(owner, e.start) : [], w));
    };
    for (const e of unit.numbers) {
      const r = relateNumbers(c, e);
      // A bound ("at least 10") is met by any larger number; only one in the same slot counts.
      if (
        r === 'match' &&
        ((c.bound === null && c.kind !== 'ordinal') || e.value === c.value || sameSlot(e))
      ) {
        if (c.kind !== 'ordinal' || sameSlot(e)) matched = true;
      } else if (r === 'conflict' && (c.kind !== 'ordinal' || sameSlot(e))) conflicts.push(e);
    }
    if (c.kind === 'year' && evYears.has(c.value)) matched = true;
    if (c.kind !== 'ordinal') slots.total += SLOT_WEIGHT;
    if (matched) {
      if (c.kind !== 'ordinal') slots.found += SLOT_WEIGHT;
      continue;
    }
    if (c.kind !== 'ordinal' && c.bound === null && inSource(c, unit.whole)) {
      slots.found += SLOT_WEIGHT * SOURCE_CREDIT;
      continue;
    }
    if (c.kind === 'year' && evYears.size > 0 && conflicts.length === 0) {
      out.weak.push(`year ${c.raw}`);
      slots.found += SLOT_WEIGHT * ALIGN.conflict;
      continue;
    }
    if (conflicts.length > 0) {
      const onlyPair = conflicts.length === 1 && claim.numbers.filter((x) => x.kind === c.kind).length === 1;
      if (conflicts.some(sameSlot) || c.kind === 'ordinal') out.conflicts.push(`number ${c.raw}`);
      else if (onlyPair || c.kind === 'year') out.weak.push(`number ${c.raw}`);
      else {
        out.missing.push(`number ${c.raw}`);
        continue;
      }
      // The evidence speaks about this slot, so it is aligned with the claim even though it disagrees.
      if (c.kind !== 'ordinal') slots.found += SLOT_WEIGHT * ALIGN.conflict;
      continue;
    }
    if (c.kind !== 'ordinal') out.missing.push(`number ${c.raw}`);
  }
}

function inSource(c: NumberMention, whole: SourceInfo): boolean {
  if (whole.numbers.some((e) => relateNumbers(c, e) === 'match')) return true;
  return c.kind === 'year' && whole.dates.some((d) => d.y === c.value);
}

function compareDates(claim: Prepared, unit: Unit, out: Alignment, slots: SlotTally): void {
  const evDates = unit.sentences.flatMap((s) => s.dates);
  const evYears = unit.numbers.filter((n) => n.kind === 'year').map((n) => n.value);
  for (const c of claim.dates) {
    slots.total += SLOT_WEIGHT;
    if (evDates.some((e) => dateCovers(e, c))) {
      slots.found += SLOT_WEIGHT;
      continue;
    }
    if (unit.whole.dates.some((e) => dateCovers(e, c))) {
      slots.found += SLOT_WEIGHT * SOURCE_CREDIT;
      continue;
    }
    if (evDates.length > 0 && !evDates.some((e) => datesCompatible(e, c))) {
      out.weak.push('date');
      slots.found += SLOT_WEIGHT * ALIGN.conflict;
      continue;
    }
    if (c.y !== undefined && evDates.length === 0 && evYears.length > 0 && !evYears.includes(c.y)) {
      out.weak.push('date');
      slots.found += SLOT_WEIGHT * ALIGN.conflict;
      continue;
    }
    out.missing.push('date');
  }
}

/**
 * Names of the claim its source does not contain. `swaps`: the evidence holds another name right where the
 * claim's name stands (same neighbour word). `replaced`: the evidence holds some other name.
 */
function compareNames(
  claim: Prepared,
  unit: Unit,
  ctx: AlignContext,
): { missing: string[]; replaced: string[]; swaps: string[] } {
  const ct = claim.tokens;
  const claimNorms = new Set(ct.map((t) => t.norm));
  let isClaimWord: ((u: string) => boolean) | undefined;
  /** Per derived word found (derivedInSource): whether the evidence has it beside another name. */
  let inNameRun: Map<string, boolean> | undefined;
  const missing: string[] = [];
  const replaced: string[] = [];
  const swaps: string[] = [];
  const unitNames = unit.sentences.flatMap((s) =>
    s.tokens.filter(
      (u, j) => !claimNorms.has(u.norm) && (isNameLike(s.tokens, j, ctx.lang) || ctx.names.has(u.norm)),
    ),
  );
  for (let i = 0; i < ct.length; i++) {
    const t = ct[i]!;
    const initialName = i === 0 && (ctx.names.has(t.norm) || !ctx.lowerStems.has(t.stem));
    if (!isNameLike(ct, i, ctx.lang, initialName)) continue;
    const derived = derivedInSource(t.norm, unit.whole.tokens);
    if (derived !== null) {
      inNameRun ??= new Map();
      let surname = inNameRun.get(derived);
      if (surname === undefined) {
        surname = standsInNameRun(derived, unit);
        inNameRun.set(derived, surname);
      }
      if (!surname) continue;
    }
    // "Matt" names "Matthew": a name may be a prefix of the source's fuller form.
    if (unit.whole.tokens.matches(t.norm) || (t.norm.length >= 3 && unit.whole.tokens.hasPrefix(t.norm))) {
      // A name of the source in another role: the evidence names someone else right where the claim puts it
      // ("founded by Samuel Carrick" against "founded by Samuel Reyes", Carrick being the festival's town).
      // Only a neighbour that is a content word shows the same slot; "in" or "the" next to a name do not.
      isClaimWord ??= claimWordTest(claimNorms);
      if (roleSwap(ct, i, unit, isClaimWord, ctx)) swaps.push(`name ${t.raw}`);
      continue;
    }
    let swapped = false;
    for (const s of unit.sentences) {
      const st = s.tokens;
      for (let j = 0; j < st.length && !swapped; j++) {
        const u = st[j]!;
        if (claimNorms.has(u.norm) || !(isNameLike(st, j, ctx.lang) || ctx.names.has(u.norm))) continue;
        if (sameSlot(ct, i, st, j, -1) || sameSlot(ct, i, st, j, 1)) swapped = true;
      }
    }
    // A capitalised first word alone may be any word ("Publié en 2020, …"): missing, never a conflict.
    const lone = i === 0 && !ct[1]?.capital;
    if (swapped && !lone) swaps.push(`name ${t.raw}`);
    else if (unitNames.length > 0 && !lone) replaced.push(`name ${t.raw}`);
    else missing.push(`name ${t.raw}`);
  }
  return { missing, replaced, swaps };
}

/**
 * Whether claim token i and unit token j stand in the same slot on side `d` (-1 before, 1 after): the
 * neighbour is the same content word, or the same stopword with the same word beyond it too. A stopword
 * alone shows no slot: "la maison de Pauline" and "le marché de Mathilde" share "de" and say nothing of
 * the same thing; "fondé par Mathilde" and "fondé par Pauline" share "fondé par". (A shared content word
 * anywhere within three tokens beyond the stopword was tried too: worse on the German dev cases.)
 */
function sameSlot(ct: readonly Token[], i: number, st: readonly Token[], j: number, d: -1 | 1): boolean {
  const a = ct[i + d]?.norm;
  if (a === undefined || st[j + d]?.norm !== a) return false;
  if (!isStopword(a)) return true;
  const b = ct[i + 2 * d]?.norm;
  return b !== undefined && st[j + 2 * d]?.norm === b;
}

/** Endings that make a people or an adjective of a place name (folded): "bretons", "europeen", "österreichisch". */
const DERIVED_ENDINGS = [
  'ais',
  'aise',
  'ois',
  'oise',
  'ien',
  'ienne',
  'iens',
  'on',
  'onne',
  'ons',
  'ain',
  'aine',
  'een',
  'eenne',
  'an',
  'ian',
  'ans',
  'ians',
  'ish',
  'ese',
  'isch',
  'ische',
  'ischen',
  'ischer',
  'er',
];

/**
 * The word of the source that states the claim's place name through a word made from it ("Bretagne" by
 * "bretons", "Europe" by "européen", "Österreich" by "österreichische"): a shared beginning of at least
 * four letters followed by a demonym ending; null when none. A handful of exact lookups per name. Surname
 * variants have the same shape ("Hansen" and "Hanson", "Andersen" and "Anderson"): standsInNameRun tells
 * them apart.
 */
function derivedInSource(name: string, tokens: TermIndex): string | null {
  for (let k = name.length - 1; k >= 4; k--) {
    const head = name.slice(0, k);
    for (const e of DERIVED_ENDINGS) if (tokens.hasExact(head + e)) return head + e;
  }
  return null;
}

/**
 * Whether `norm` stands in the evidence beside another capitalised word that is not a stopword: a surname
 * after its first name ("Peter Hanson"), not a demonym ("pêcheurs bretons", "the Austrian company"). Such a
 * word is another person's name, however much it looks like a word made from the claim's name. One pass
 * over the evidence's tokens per derived word (compareNames remembers the answer).
 */
function standsInNameRun(norm: string, unit: Unit): boolean {
  const other = (t: Token | undefined): boolean => t?.capital === true && !isStopword(t.norm);
  for (const s of unit.sentences) {
    const st = s.tokens;
    for (let j = 0; j < st.length; j++)
      if (st[j]!.norm === norm && (other(st[j - 1]) || other(st[j + 1]))) return true;
  }
  return false;
}

/** The same name, or a fuller form or compound of it ("Genossenschaft" in "Hopfengenossenschaft"). */
const sameName = (a: string, b: string): boolean =>
  termsMatch(a, b) || (a.length >= 3 && b.startsWith(a)) || (b.length >= 3 && a.startsWith(b));

/** Words looked at on either side of a name for the rest of its run of capitalised words. */
const NAME_RUN = 6;

/**
 * `sameName(c, u)` for some claim token c, answered from an index of the claim's tokens in time independent
 * of the claim's length (a claim of many names asked it once per name and slot).
 */
function claimWordTest(norms: Iterable<string>): (u: string) => boolean {
  const index = new TermIndex(norms, 3);
  return (u) => {
    if (index.matches(u) || (u.length >= 3 && index.hasPrefix(u))) return true;
    for (let k = 3; k < u.length && k <= 40; k++) if (index.hasExact(u.slice(0, k))) return true;
    return false;
  };
}

/**
 * Whether the unit holds, beside a content word that stands beside claim name i too, a name the claim does
 * not have, and never the claim's name there: the claim put a name of its source in the slot of another.
 */
function roleSwap(
  ct: readonly Token[],
  i: number,
  unit: Unit,
  isClaimWord: (u: string) => boolean,
  ctx: AlignContext,
): boolean {
  const prev = ct[i - 1];
  const next = ct[i + 1];
  // A number beside a name is no slot word ("in 2015, SummerSlam").
  const anchor = (t: Token | undefined) =>
    t !== undefined && !isStopword(t.norm) && t.norm.length > 1 && !/\d/.test(t.norm);
  const name = ct[i]!.norm;
  let other = false;
  for (const s of unit.sentences) {
    const st = s.tokens;
    for (let j = 0; j < st.length; j++) {
      const u = st[j]!;
      const slot =
        (anchor(prev) && st[j - 1]?.norm === prev!.norm) || (anchor(next) && st[j + 1]?.norm === next!.norm);
      if (!slot) continue;
      // The claim's name in the same run of capitalised words is a fuller form, not another name
      // ("Wilhelmina Slater" in "Wilhelmina Vivian Slater").
      let a = j;
      let b = j;
      // A name is a few words: the run is looked at no further (a page of capitals would make it quadratic).
      while (a > 0 && j - a < NAME_RUN && st[a - 1]!.capital) a--;
      while (b + 1 < st.length && b - j < NAME_RUN && st[b + 1]!.capital) b++;
      for (let k = a; k <= b; k++) if (sameName(name, st[k]!.norm)) return false;
      if (!(isNameLike(st, j, ctx.lang) || ctx.names.has(u.norm))) continue;
      // German capitalises nouns: after an article it is one ("das Medikament Lipanol").
      if (ctx.lang === 'de' && GERMAN_DETERMINERS.has(st[j - 1]?.norm ?? '')) continue;
      if (!isClaimWord(u.norm)) other = true;
    }
  }
  return other;
}

/** The clause of a sentence that shares most with the claim; polarity is judged on it, not on the whole sentence. */
function bestClause(
  claim: Prepared,
  sentence: Prepared,
  idf: (t: string) => number,
  sourceTerms: TermIndex,
): { clause: Prepared; cov: number } {
  let clause = sentence;
  let cov = -1;
  for (const c of clausesOf(sentence)) {
    const v = coverage(claim, c.terms, idf, sourceTerms);
    if (v > cov) {
      cov = v;
      clause = c;
    }
  }
  return { clause, cov };
}

/** Minimum share of the claim an evidence clause must hold before its antonyms and quantifiers count. */
const POLARITY_MIN_COVERAGE = 0.3;
/** Share of the claim's words that must match before a different name in the evidence counts as a swap. */
const SWAP_MIN_COVERAGE = 0.7;

/**
 * Words that only carry a negation's scope ("do not pay anything", "no longer runs", "n'a jamais"): stated
 * along with the negation they belong to when that negation agrees with the evidence's opposite word.
 */
const POLARITY_ITEMS = new Set(['anything', 'anymore', 'ever', 'longer', 'jemals', 'nirgends']);

/**
 * Negation and an antonym that cancel: the claim is negated and the evidence states the opposite word ("not
 * open" / "closed", "do not pay" / "free", "not known" / "unknown"), or the claim negates a permission the
 * evidence prohibits ("not allowed" / "forbidden": a prohibition is itself a negation cue, so there the
 * negation counts agree and the antonym pair is what still differs). Returns the claim words so stated
 * (with its negation words and scope words), or null when the polarity really differs.
 *
 * Opposites come from the curated pairs (lexicon.ts), then, when the negation counts differ and no curated
 * pair is split, from WordNet antonyms (English) and negative prefixes ("un-", "in-", "dis-"…), among the
 * claim words the clause does not state. Runs only for a clause whose negation or antonyms disagree with
 * the claim's: a few lookups per claim word then.
 */
function polarityAgreement(
  claim: Prepared,
  clause: Prepared,
  split: AntonymSplit | null,
  negationsDiffer: boolean,
  lang: string,
): string[] | null {
  let words: string[] | null = null;
  if (split) {
    const onCue = (tokens: readonly Token[], p: string) =>
      patternTokens(tokens, p).some((t) => isNegationCue(t.norm));
    const cue = onCue(claim.tokens, split.claimPattern) || onCue(clause.tokens, split.evidencePattern);
    // A prohibition already counted as a negation: the split agrees when the counts agree, and the reverse.
    if (cue === negationsDiffer) return null;
    words = patternTokens(claim.tokens, split.claimPattern).map(canonical);
  } else if (negationsDiffer) {
    const clauseWords = [...new Set(clause.words)];
    const clauseNorms = clause.tokens.filter((t) => !isStopword(t.norm)).map((t) => t.norm);
    const found: string[] = [];
    for (const t of claim.tokens) {
      if (isStopword(t.norm) || isNegationCue(t.norm) || clauseNorms.includes(t.norm)) continue;
      const w = canonical(t);
      // A prefixed opposite may pass for a German compound of the word ("unbekannt" ends with "bekannt"),
      // so it is asked first; WordNet only for a word the clause does not state.
      const opposite =
        clauseNorms.some((u) => prefixAntonyms(t.norm, u)) ||
        (lang === 'en' && !hasTerm(clause.terms, w) && clauseWords.some((u) => lexAntonyms(w, u)));
      if (opposite) found.push(w);
    }
    if (found.length === 0) return null;
    words = found;
  } else return null;
  for (const t of claim.tokens)
    if ((isNegationCue(t.norm) || POLARITY_ITEMS.has(t.norm)) && !isStopword(t.norm))
      words.push(canonical(t));
  return words;
}

/** Share of the rest of the claim (without the words a polarity agreement states) the clause must state. */
const AGREEMENT_MIN_REST = 0.5;

/**
 * Whether the clause states the claim apart from the agreeing words: an opposite word alone ("free" in a
 * sentence about something else) must not make a negated claim about another thing stated.
 */
function agreementHolds(
  claim: Prepared,
  clause: Prepared,
  agreed: readonly string[],
  idf: (t: string) => number,
  sourceTerms: TermIndex,
): boolean {
  const set = new Set(agreed);
  const rest = claim.words.filter((w) => !set.has(w));
  if (rest.length === 0) return false;
  return coverage({ ...claim, words: rest }, clause.terms, idf, sourceTerms) >= AGREEMENT_MIN_REST;
}

/** Compares one atomic claim with one evidence unit, slot by slot. */
export function align(claim: Prepared, unit: Unit, ctx: AlignContext): Alignment {
  const out: Alignment = { coverage: 0, conflicts: [], missing: [], weak: [], flipped: [], derived: [] };
  // Polarity first (its conflicts are listed last): a negation that agrees with an antonym credits the word.
  const polar: string[] = [];
  const clauses = unit.sentences.map((s) => bestClause(claim, s, ctx.idf, unit.whole.terms));
  let best: { clause: Prepared; cov: number } | undefined;
  for (const b of clauses) if (!best || b.cov > best.cov) best = b;
  const agreement = ctx.agreement === true;
  const negationsDiffer =
    best !== undefined && negationsOf(claim, agreement) % 2 !== negationsOf(best.clause, agreement) % 2;
  let negationSettled = false;
  for (const b of clauses) {
    const gated = b.cov < POLARITY_MIN_COVERAGE;
    // The best clause is asked even below the gate: "costs nothing" for "free" leaves half the claim's
    // weight unstated until the two agree; the rest of the claim must then be stated (agreementHolds).
    if (gated && (b !== best || !agreement)) continue;
    const split = antonymSplit(claim.tokens, b.clause.tokens, agreement);
    if (agreement && b === best && (split || negationsDiffer)) {
      const agreed = polarityAgreement(claim, b.clause, split, negationsDiffer, ctx.lang);
      if (agreed && agreementHolds(claim, b.clause, agreed, ctx.idf, unit.whole.terms)) {
        out.flipped.push(...agreed);
        negationSettled = true;
        continue;
      }
    }
    if (gated) continue;
    if (split) polar.push(`antonym ${split.label}`);
    const q = scaleConflict(claim.tokens, b.clause.tokens);
    if (q) polar.push(`quantifier ${q}`);
  }
  if (negationsDiffer && !negationSettled) polar.push('negation');

  if (agreement) {
    for (const w of new Set(claim.words))
      if (!hasTerm(unit.terms, w) && sharesRoot(w, unit.terms, ctx.lang)) out.derived.push(w);
  }
  const credited =
    out.flipped.length + out.derived.length > 0 ? new Set([...out.flipped, ...out.derived]) : undefined;
  const words = coverage(claim, unit.terms, ctx.idf, unit.whole.terms, credited);
  const slots: SlotTally = { total: 0, found: 0 };
  compareNumbers(claim, unit, out, slots);
  compareDates(claim, unit, out, slots);
  const names = compareNames(claim, unit, ctx);
  for (const n of names.swaps) out.conflicts.push(n);
  for (const n of names.replaced) (words >= SWAP_MIN_COVERAGE ? out.conflicts : out.missing).push(n);
  for (const n of names.missing) out.missing.push(n);
  for (const w of out.weak.splice(0)) (words >= SWAP_MIN_COVERAGE ? out.conflicts : out.missing).push(w);
  const wordWeight = claim.words.length > 0 ? WORD_WEIGHT : 0;
  const total = wordWeight + slots.total;
  out.coverage = total === 0 ? 0 : (words * wordWeight + slots.found) / total;
  out.conflicts.push(...polar);
  return out;
}
