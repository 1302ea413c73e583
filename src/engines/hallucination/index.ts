import { type AlignContext, align, type SourceInfo, type Unit } from './align.js';
import { Bm25Index } from './bm25.js';
import { matchesCorrection, type PreparedCorrection, prepareCorrections } from './corrections.js';
import { isNameLike } from './entities.js';
import { LIMITS } from './limits.js';
import { type Prepared, prepare } from './prepare.js';
import { resolveRelativeYears } from './relative-dates.js';
import { splitClauses, splitSentences } from './split.js';
import { TermIndex, termsMatch } from './terms.js';
import { detectLanguage } from './text.js';
import type { CheckOptions, CheckResult, ClaimPart, Evidence, Verdict } from './types.js';
import { combine, decide, rank } from './verdict.js';

export { LIMITS } from './limits.js';
export { type Span, splitClauses, splitSentences } from './split.js';
export type { CheckOptions, CheckResult, ClaimPart, Correction, Evidence, Verdict } from './types.js';
export { THRESHOLDS } from './verdict.js';

/** Candidate units per sub-claim that get the full slot comparison after BM25. */
const CANDIDATES = 8;
/** Weight of the surrounding sentence in a sub-claim's retrieval query (it supplies the subject). */
const CONTEXT_WEIGHT = 0.3;

function validate(claim: string, sources: string[]): void {
  if (claim.length > LIMITS.maxClaimChars)
    throw new RangeError(`claim longer than ${LIMITS.maxClaimChars} characters`);
  if (sources.length > LIMITS.maxSources) throw new RangeError(`more than ${LIMITS.maxSources} sources`);
  for (const s of sources) {
    if (s.length > LIMITS.maxSourceChars)
      throw new RangeError(`a source is longer than ${LIMITS.maxSourceChars} characters`);
  }
}

/**
 * Distinct slots of a whole source kept for "stated elsewhere in the source" credit. A source of thousands of
 * distinct numbers is a table; beyond this many, later ones earn no such credit (the retrieved sentences
 * themselves are still compared in full).
 */
const MAX_SOURCE_SLOTS = 256;

function distinct<T>(items: T[], key: (x: T) => string): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const x of items) {
    const k = key(x);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(x);
    if (out.length >= MAX_SOURCE_SLOTS) break;
  }
  return out;
}

function sourceInfo(list: Prepared[]): SourceInfo {
  return {
    terms: new TermIndex(list.flatMap((p) => p.terms)),
    tokens: new TermIndex(
      list.flatMap((p) => p.tokens.map((t) => t.norm)),
      3,
    ),
    numbers: distinct(
      list.flatMap((p) => p.numbers),
      (n) => `${n.value}|${n.dim}|${n.kind}|${n.bound}|${n.approx}|${n.unitFactor}`,
    ),
    dates: distinct(
      list.flatMap((p) => p.dates),
      (d) => `${d.y}|${d.m}|${d.d}|${d.alt?.y}|${d.alt?.m}|${d.alt?.d}`,
    ),
  };
}

function buildUnits(sources: string[]): { units: Unit[]; sentences: Prepared[][] } {
  const units: Unit[] = [];
  const sentences = sources.map((s) => {
    const list = splitSentences(s).map((sp) => prepare(sp.text));
    resolveRelativeYears(list);
    return list;
  });
  sentences.forEach((list, source) => {
    const whole = sourceInfo(list);
    for (let i = 0; i < list.length; i++) {
      // Single sentences, plus two-sentence windows for facts stated across a sentence boundary.
      for (const size of [1, 2]) {
        const parts = list.slice(i, i + size);
        if (parts.length < size) continue;
        units.push({
          source,
          text: parts.map((p) => p.text).join(' '),
          sentences: parts,
          terms: parts.flatMap((p) => p.terms),
          numbers: parts.flatMap((p) => p.numbers),
          whole,
        });
      }
    }
  });
  return { units, sentences };
}

function gazetteer(sentences: Prepared[][], lang: string): { names: Set<string>; lowerStems: Set<string> } {
  const names = new Set<string>();
  const lowerStems = new Set<string>();
  for (const list of sentences)
    for (const s of list)
      for (let i = 0; i < s.tokens.length; i++) {
        const t = s.tokens[i]!;
        if (!t.capital) lowerStems.add(t.stem);
        else if (i > 0 && isNameLike(s.tokens, i, lang)) names.add(t.norm);
      }
  return { names, lowerStems };
}

function query(clause: Prepared, sentence: Prepared): Map<string, number> {
  const q = new Map<string, number>();
  for (const t of sentence.terms) q.set(t, CONTEXT_WEIGHT);
  for (const t of clause.terms) q.set(t, 1);
  return q;
}

interface ClauseOutcome {
  part: ClaimPart;
  evidence?: Evidence;
}

/** A correction whose wrong claim this clause restates, alone or as part of a sentence that restates it. */
function correctionFor(
  clause: Prepared,
  all: PreparedCorrection[],
  sentenceMatches: PreparedCorrection[],
): PreparedCorrection | undefined {
  return (
    all.find((pc) => matchesCorrection(clause, pc)) ??
    sentenceMatches.find(
      (pc) =>
        pc.wrongWords.some((w) => clause.words.some((u) => termsMatch(w, u))) ||
        pc.wrongNumbers.some((n) => clause.numbers.some((m) => m.value === n.value)),
    )
  );
}

function checkClause(
  text: string,
  clause: Prepared,
  sentence: Prepared,
  index: Bm25Index,
  units: Unit[],
  ctx: AlignContext,
): ClauseOutcome {
  const hits = index.search(query(clause, sentence), CANDIDATES);
  let best: { unit: Unit; decision: ReturnType<typeof decide>; rank: number } | undefined;
  for (const h of hits) {
    const unit = units[h.doc]!;
    const a = align(clause, unit, ctx);
    const decision = decide(a);
    const r = rank(decision, a.coverage);
    if (!best || r > best.rank) best = { unit, decision, rank: r };
  }
  if (!best) return { part: { text, verdict: 'unsupported', score: 0 } };
  const { unit, decision } = best;
  return {
    part: { text, verdict: decision.verdict, score: round(decision.score) },
    evidence: {
      claim: text,
      source_index: unit.source,
      match: unit.text,
      confidence: round(decision.confidence),
      verdict: decision.verdict,
    },
  };
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

/**
 * Checks a claim (one sentence or a whole LLM response) against source texts. Deterministic and pure.
 * Throws RangeError when the input exceeds LIMITS.
 */
export function checkClaim(claim: string, sources: string[], options: CheckOptions = {}): CheckResult {
  validate(claim, sources);
  let language = detectLanguage(claim);
  if (language === 'und') language = detectLanguage(sources.join(' ').slice(0, 5000));
  const { units, sentences } = buildUnits(sources);
  const index = new Bm25Index(units);
  const ctx: AlignContext = { idf: (t) => index.idf(t), lang: language, ...gazetteer(sentences, language) };
  const corrections = prepareCorrections(options.corrections ?? []);

  const parts: ClaimPart[] = [];
  const evidence: Evidence[] = [];
  for (const s of splitSentences(claim)) {
    const sentence = prepare(s.text);
    const matched = corrections.filter((pc) => matchesCorrection(sentence, pc));
    const clauses = splitClauses(s.text);
    for (const text of clauses) {
      const clause = prepare(text);
      const pc = corrections.length > 0 ? correctionFor(clause, corrections, matched) : undefined;
      if (pc) {
        parts.push({ text, verdict: 'contradicted', score: 0 });
        evidence.push({
          claim: text,
          source_index: -1,
          match: pc.correction.correctedClaim,
          confidence: 0.9,
          verdict: 'contradicted',
          ...(pc.correction.id !== undefined ? { correctionId: pc.correction.id } : {}),
        });
        continue;
      }
      const outcome = checkClause(text, clause, sentence, index, units, ctx);
      parts.push(outcome.part);
      if (outcome.evidence) evidence.push(outcome.evidence);
    }
  }
  const verdict: Verdict = parts.length === 0 ? 'unsupported' : combine(parts.map((p) => p.verdict));
  let score = parts.length === 0 ? 0 : parts.reduce((a, p) => a + p.score, 0) / parts.length;
  if (verdict === 'contradicted') score = Math.min(score, 0.25);
  return { score: round(score), verdict, evidence, claims: parts, language };
}
