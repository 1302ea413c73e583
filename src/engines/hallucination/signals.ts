import type { AlignContext, Alignment, Unit } from './align.js';
import { isNameLike } from './entities.js';
import type { Merged } from './merge.js';
import { negationsOf } from './polarity.js';
import { clausesOf, type Prepared } from './prepare.js';
import { TermIndex, termsMatch } from './terms.js';
import { fold } from './text.js';
import { actionOrder, findPassive, pairsOf } from './voice.js';
import { lexAntonyms, lexRelation } from './wordnet.js';
import type { ClauseDecision } from './verdict.js';

/**
 * What the checker measured for one atomic claim against its best evidence unit, as numbers a learned model
 * combines (model.ts) instead of hand thresholds. The order is the weights' order: append only, and retrain
 * (`npm run train:hallucination`) after any change.
 */
export const SIGNAL_NAMES = [
  'coverage',
  'word_share_unit',
  'word_share_source',
  'bigram_share',
  'conflict_number',
  'conflict_name',
  'conflict_negation',
  'conflict_antonym_quantifier',
  'conflict_other',
  'missing_number_date',
  'missing_name',
  'claim_words_log',
  'unit_words_log',
  'rule_supported',
  'rule_contradicted',
  'unmatched_capitalised',
  'missing_words',
  'missing_idf_max_rel',
  'missing_idf_share',
  'lex_coverage',
  'lex_only_share',
  'lex_narrower_share',
  'lex_antonym',
  'lex_missing_idf_share',
  'claim_negations',
  'unit_negations',
  'claim_scope_cue',
  'bigram_share_voice',
  'voice_mismatch',
  'merge_gain',
  'conflict_role',
  'absent_names',
  'absent_name_share',
] as const;

function share(words: readonly string[], terms: readonly string[] | TermIndex): number {
  if (words.length === 0) return 1;
  let found = 0;
  // A whole source's terms come indexed (linear in the source); a unit's few terms are scanned.
  const has =
    terms instanceof TermIndex
      ? (w: string) => terms.matches(w)
      : (w: string) => terms.some((t) => termsMatch(w, t));
  for (const w of words) if (has(w)) found++;
  return found / words.length;
}

// Word order carries who did what to whom: "X defeated Y" and "Y defeated X" share every word but no pair.
function bigramShare(claim: Prepared, unit: Unit): number {
  const pairs = new Set<string>();
  for (const s of unit.sentences)
    for (let i = 1; i < s.words.length; i++) pairs.add(`${s.words[i - 1]} ${s.words[i]}`);
  const w = claim.words;
  if (w.length < 2) return 1;
  let found = 0;
  for (let i = 1; i < w.length; i++) if (pairs.has(`${w[i - 1]} ${w[i]}`)) found++;
  return found / (w.length - 1);
}

const count = (list: readonly string[], prefix: string): number =>
  list.filter((x) => x.startsWith(prefix)).length;

/**
 * Claim words the unit does not state: how many, the rarest one's IDF relative to that of a word no source has
 * (IDF grows with the number of sentences, so a raw IDF told the model how long the sources were: a long
 * source made every missing word look rare), and their share of the claim's IDF.
 */
function missingWords(
  claim: Prepared,
  unit: Unit,
  idf: (t: string) => number,
  stated: ReadonlySet<string>,
): [number, number, number] {
  let n = 0;
  let max = 0;
  let missing = 0;
  let total = 0;
  for (const w of new Set(claim.words)) {
    const weight = idf(w);
    total += weight;
    if (stated.has(w) || unit.terms.some((t) => termsMatch(w, t))) continue;
    n++;
    missing += weight;
    max = Math.max(max, weight);
  }
  const unseen = idf('\u0000');
  return [n, unseen > 0 ? max / unseen : 0, total === 0 ? 0 : missing / total];
}

/** Credit of a claim word the unit states only through WordNet: a synonym or derivation, or a hyponym of it. */
const LEX_CREDIT = { same: 0.9, broader: 0.8 };

/**
 * Paraphrase through the lexical resource: the claim words the unit states by other words. Returns IDF
 * coverage counting such words, the share of claim words matched only so, the share that are more specific
 * than the unit's word ("poodle" for "dog": not entailed), WordNet antonyms between an unmatched claim word
 * and a unit word, and the IDF share still missing.
 */
function lexicalSignals(
  claim: Prepared,
  unit: Unit,
  idf: (t: string) => number,
  stated: ReadonlySet<string>,
): number[] {
  const unitWords = [...new Set(unit.sentences.flatMap((s) => s.words))];
  let total = 0;
  let found = 0;
  let only = 0;
  let narrower = 0;
  let antonyms = 0;
  let missing = 0;
  const words = new Set(claim.words);
  for (const w of words) {
    const weight = Math.max(0.2, idf(w));
    total += weight;
    // A word stated as its negated opposite ("not open" / "closed") or by another word of its family
    // ("Eröffnung" / "eröffnet"), align.ts: stated, not an antonym.
    if (stated.has(w) || unit.terms.some((t) => termsMatch(w, t))) {
      found += weight;
      continue;
    }
    let best: 'same' | 'broader' | 'narrower' | null = null;
    let opposite = false;
    for (const u of unitWords) {
      const r = lexRelation(w, u);
      if (r === 'same' || (r === 'broader' && best !== 'same') || (r === 'narrower' && best === null))
        best = r;
      if (!opposite && lexAntonyms(w, u)) opposite = true;
    }
    if (opposite) antonyms++;
    if (best === 'same' || best === 'broader') {
      found += weight * LEX_CREDIT[best];
      only++;
      continue;
    }
    if (best === 'narrower') narrower++;
    missing += weight;
  }
  const n = Math.max(1, words.size);
  return total === 0
    ? [1, 0, 0, antonyms, 0]
    : [found / total, only / n, narrower / n, antonyms, missing / total];
}

/** Scope words that restrict a claim beyond what a source usually says ("only", "nur", "seulement"). */
const SCOPE_CUES = new Set(
  'only solely exclusively merely nur ausschliesslich lediglich seulement uniquement exclusivement'
    .split(' ')
    .map(fold),
);

/**
 * Word pairs in active order (voice.ts): the share of the claim's pairs the unit states once both are read
 * in active voice, and whether one of them is passive and the other not.
 */
function voiceSignals(claim: Prepared, unit: Unit, lang: string): [number, number] {
  const order = actionOrder(claim.text, claim.tokens, lang);
  const claimPassive = findPassive(claim.text, claim.tokens, lang) !== null;
  const pairs = new Set<string>();
  let unitPassive = false;
  for (const s of unit.sentences) {
    for (const c of new Set([s, ...clausesOf(s)])) {
      for (const p of pairsOf(actionOrder(c.text, c.tokens, lang))) pairs.add(p);
      if (!unitPassive && findPassive(c.text, c.tokens, lang)) unitPassive = true;
    }
  }
  const own = pairsOf(order);
  const share = own.length === 0 ? 1 : own.filter((p) => pairs.has(p)).length / own.length;
  return [share, claimPassive !== unitPassive ? 1 : 0];
}

/**
 * What a second sentence of the source adds (merge.ts): the coverage gain. Also tried on the dev split
 * (eval/hallucination/dev.ts): the word-share gain, claim slots resolved and a disagreement brought by the
 * second sentence; none helped there, so only the gain is a signal.
 */
function mergeSignals(a: Alignment, merged: Merged | null): number[] {
  return [merged ? Math.max(0, merged.a.coverage - a.coverage) : 0];
}

/**
 * Names of the claim that no source uses at all, in any form: not as a name, not as a lower-case word, not
 * as a prefix of a word of the unit's source. `missing_name` counts names the unit's source does not
 * state, which a paraphrase often causes (a title in other words, "American" for "United States"); a name
 * written nowhere in any source is an invented detail far more often. Returns the count and its share of
 * the claim's names. Lookups in sets and the source's index: linear in the claim.
 */
function absentNames(claim: Prepared, unit: Unit, ctx: AlignContext): [number, number] {
  const ct = claim.tokens;
  let names = 0;
  let absent = 0;
  for (let i = 0; i < ct.length; i++) {
    const t = ct[i]!;
    const initial = i === 0 && !ctx.lowerStems.has(t.stem);
    if (!isNameLike(ct, i, ctx.lang, initial)) continue;
    names++;
    if (ctx.names.has(t.norm) || ctx.lowerStems.has(t.stem)) continue;
    if (unit.whole.tokens.matches(t.norm) || (t.norm.length >= 3 && unit.whole.tokens.hasPrefix(t.norm)))
      continue;
    absent++;
  }
  return [absent, names === 0 ? 0 : absent / names];
}

export function clauseSignals(
  claim: Prepared,
  unit: Unit,
  a: Alignment,
  d: ClauseDecision,
  ctx: AlignContext,
  merged: Merged | null = null,
): number[] {
  const { idf, lang } = ctx;
  const c = a.conflicts;
  const numberConflicts = count(c, 'number') + count(c, 'year') + count(c, 'date');
  const nameConflicts = count(c, 'name');
  const negation = count(c, 'negation');
  const polar = count(c, 'antonym') + count(c, 'quantifier');
  const roles = count(c, 'role');
  const capitalised = [...claim.capitalised];
  // Stated as a negated opposite or by another word of the family (align.ts): stated.
  const stated = new Set([...a.flipped, ...a.derived]);
  return [
    a.coverage,
    share(claim.words, unit.terms),
    share(claim.words, unit.whole.terms),
    bigramShare(claim, unit),
    numberConflicts,
    nameConflicts,
    negation,
    polar,
    c.length - numberConflicts - nameConflicts - negation - polar - roles,
    count(a.missing, 'number') + count(a.missing, 'date'),
    count(a.missing, 'name'),
    Math.log1p(claim.words.length),
    Math.log1p(unit.terms.length),
    d.verdict === 'supported' ? 1 : 0,
    d.verdict === 'contradicted' ? 1 : 0,
    1 - share(capitalised, unit.whole.terms),
    ...missingWords(claim, unit, idf, stated),
    ...lexicalSignals(claim, unit, idf, stated),
    negationsOf(claim, ctx.agreement === true),
    unit.sentences.reduce((n, s) => n + negationsOf(s, ctx.agreement === true), 0),
    claim.tokens.some((t) => SCOPE_CUES.has(t.norm)) ? 1 : 0,
    ...voiceSignals(claim, unit, lang),
    ...mergeSignals(a, merged),
    roles,
    ...absentNames(claim, unit, ctx),
  ];
}
