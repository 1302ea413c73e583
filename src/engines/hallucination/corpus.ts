import { endOfKept, isSpaceCode } from '../text.js';
import { type AlignContext, type Alignment, align, type SourceInfo, type Unit } from './align.js';
import { Bm25Index } from './bm25.js';
import { bestMerge, COMPLEMENT_CANDIDATES, complementQuery, complete, type Merged } from './merge.js';
import { matchesCorrection, type PreparedCorrection, prepareCorrections } from './corrections.js';
import { isNameLike } from './entities.js';
import { type Prepared, prepare } from './prepare.js';
import { resolveRelativeYears } from './relative-dates.js';
import { splitClauses, splitSentences } from './split.js';
import { TermIndex, termsMatch } from './terms.js';
import { detectLanguage } from './text.js';
import type { CheckOptions, ClaimPart, CorrectionEvidence, Evidence } from './types.js';
import { type LogisticModel, probability, shippedModel } from './model.js';
import { roleInversions } from './roles.js';
import { clauseSignals } from './signals.js';
import { type ClauseDecision, decide, rank } from './verdict.js';

/** Candidate units per sub-claim that get the full slot comparison after BM25. */
const CANDIDATES = 8;
/** Weight of the surrounding sentence in a sub-claim's retrieval query (it supplies the subject). */
const CONTEXT_WEIGHT = 0.3;
/** Characters of the sources read to guess the language of a claim that shows none. */
const LANGUAGE_SAMPLE = 5000;

interface Gazetteer {
  names: Set<string>;
  lowerStems: Set<string>;
}

/**
 * Source texts analysed and indexed once, to check many claims against: `checkClaim` builds one per call,
 * the verification server keeps one for all its connected passages. Passages of one `group` (one
 * document) share their "whole source" information: a name stated in another paragraph of the same
 * document still counts as stated.
 */
export interface Corpus {
  readonly units: Unit[];
  readonly index: Bm25Index;
  readonly passages: number;
  readonly sentences: Prepared[][];
  readonly languageSample: string;
  /** Names and lower-case stems per language, computed on first use (name rules differ by language). */
  readonly gazetteers: Map<string, Gazetteer>;
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

/** A passage's sentences, analysed. Depends on the passage's text alone (relative years resolve within it). */
export function analysePassage(text: string): Prepared[] {
  const list = splitSentences(text).map((sp) => prepare(sp.text));
  resolveRelativeYears(list);
  return list;
}

/**
 * `analysed`: sentences of passages analysed by an earlier corpus, by passage text (`corpus.sentences[i]` is
 * passage i's). A corpus rebuilt after one source changed analyses only the new passages: analysis was most
 * of a rebuild, and a rebuild holds the event loop. Prepared sentences are not changed after analysis (their
 * clauses are filled in once, the same way), so two corpora can share them.
 */
export function buildCorpus(
  passages: readonly string[],
  groups?: readonly number[],
  analysed?: ReadonlyMap<string, Prepared[]>,
): Corpus {
  const sentences = passages.map((s) => analysed?.get(s) ?? analysePassage(s));
  // Passages of one group (document) share one "whole source": what a document states anywhere.
  const byGroup = new Map<number, Prepared[]>();
  sentences.forEach((list, i) => {
    const g = groups?.[i] ?? i;
    const acc = byGroup.get(g);
    if (acc) acc.push(...list);
    else byGroup.set(g, [...list]);
  });
  const wholes = new Map<number, SourceInfo>();
  for (const [g, list] of byGroup) wholes.set(g, sourceInfo(list));
  const units: Unit[] = [];
  sentences.forEach((list, source) => {
    const whole = wholes.get(groups?.[source] ?? source)!;
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
  let languageSample = '';
  for (const p of passages) {
    if (languageSample.length >= LANGUAGE_SAMPLE) break;
    languageSample += `${languageSample ? ' ' : ''}${p}`;
  }
  return {
    units,
    index: new Bm25Index(units),
    passages: passages.length,
    sentences,
    languageSample: languageSample.slice(0, LANGUAGE_SAMPLE),
    gazetteers: new Map(),
  };
}

function gazetteer(corpus: Corpus, lang: string): Gazetteer {
  const cached = corpus.gazetteers.get(lang);
  if (cached) return cached;
  const names = new Set<string>();
  const lowerStems = new Set<string>();
  for (const list of corpus.sentences)
    for (const s of list)
      for (let i = 0; i < s.tokens.length; i++) {
        const t = s.tokens[i]!;
        if (!t.capital) lowerStems.add(t.stem);
        else if (i > 0 && isNameLike(s.tokens, i, lang)) names.add(t.norm);
      }
  const g = { names, lowerStems };
  corpus.gazetteers.set(lang, g);
  return g;
}

function query(clause: Prepared, sentence: Prepared): Map<string, number> {
  const q = new Map<string, number>();
  for (const t of sentence.terms) q.set(t, CONTEXT_WEIGHT);
  for (const t of clause.terms) q.set(t, 1);
  return q;
}

/** One atomic sub-claim with its decision and, when something was retrieved, its best evidence. */
export interface ClauseOutcome {
  part: ClaimPart;
  evidence?: Evidence;
  /** Set instead of evidence when an organization's correction decided the sub-claim. */
  correction?: CorrectionEvidence;
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

/**
 * The learned verdict (model.ts): P(supported) from the signals decides support; a claim it does not call
 * supported stays contradicted when the slot comparison found a conflict, else it is unsupported. A role
 * inversion (roles.ts) decides alone: the training data holds almost none (its weight cannot be learned),
 * and it is a contradiction whatever the word overlap says (the overlap is complete by construction).
 */
function learnedDecision(
  rule: ClauseDecision,
  p: number,
  model: LogisticModel,
  inverted: boolean,
): ClauseDecision {
  if (inverted && rule.verdict === 'contradicted') return rule;
  if (p >= model.threshold) return { verdict: 'supported', confidence: p, score: 0.6 + 0.4 * p };
  if (rule.verdict === 'contradicted') return rule;
  return { verdict: 'unsupported', confidence: 1 - p, score: 0.45 * p };
}

/** The best unit merged with another sentence of its source: retrieved candidates, then the complement. */
function mergeFor(
  clause: Prepared,
  best: Merged,
  hits: readonly { doc: number }[],
  corpus: Corpus,
  ctx: AlignContext,
): Merged | null {
  if (complete(best.a)) return null;
  const candidates = hits.map((h) => corpus.units[h.doc]!);
  const q = complementQuery(clause, best.unit);
  if (q.size > 0)
    for (const h of corpus.index.search(q, COMPLEMENT_CANDIDATES)) candidates.push(corpus.units[h.doc]!);
  return bestMerge(clause, best, candidates, ctx);
}

function checkClause(
  text: string,
  clause: Prepared,
  sentence: Prepared,
  corpus: Corpus,
  ctx: AlignContext,
  options: CheckOptions,
): ClauseOutcome {
  const hits = corpus.index.search(query(clause, sentence), CANDIDATES);
  let best: { unit: Unit; a: Alignment; decision: ClauseDecision; rank: number } | undefined;
  for (const h of hits) {
    const unit = corpus.units[h.doc]!;
    const a = align(clause, unit, ctx);
    const decision = decide(a);
    const r = rank(decision, a.coverage);
    if (!best || r > best.rank) best = { unit, a, decision, rank: r };
  }
  if (!best) return { part: { text, verdict: 'unsupported', score: 0 } };
  const { unit } = best;
  // Who did what to whom, on the chosen unit only (it reads the unit's clauses in active order once more).
  const roles = roleInversions(clause, unit, ctx);
  if (roles.length > 0) {
    best.a.conflicts.push(...roles);
    best.decision = decide(best.a);
  }
  const model = options.verdict === 'rules' ? null : (options.model ?? shippedModel());
  const learned = model !== null || options.signals === true;
  // Sentence merging (merge.ts) feeds the learned verdict only; the hand thresholds read the best unit alone.
  const merged = learned ? mergeFor(clause, best, hits, corpus, ctx) : null;
  const signals = learned ? clauseSignals(clause, unit, best.a, best.decision, ctx, merged) : null;
  const decision =
    model && signals
      ? learnedDecision(best.decision, probability(model, signals), model, roles.length > 0)
      : best.decision;
  // A supported claim that needed a second sentence cites both (bestMerge returns only a merge that raised
  // the coverage).
  const evidenceUnit = merged && decision.verdict === 'supported' ? merged.unit : unit;
  return {
    part: {
      text,
      verdict: decision.verdict,
      score: round(decision.score),
      ...(options.signals && signals ? { signals } : {}),
    },
    evidence: {
      claim: text,
      source_index: unit.source,
      match: evidenceUnit.text,
      confidence: round(decision.confidence),
      verdict: decision.verdict,
    },
  };
}

export const round = (x: number): number => Math.round(x * 1000) / 1000;

/**
 * Splits `claim` into sentences and atomic sub-claims and decides each against the corpus (and the
 * corrections). `source_index` of the evidence is the passage index given to buildCorpus.
 */
export function checkInCorpus(
  corpus: Corpus,
  claim: string,
  options: CheckOptions = {},
): { outcomes: ClauseOutcome[]; language: string } {
  let language = detectLanguage(claim);
  if (language === 'und') language = detectLanguage(corpus.languageSample);
  const ctx: AlignContext = {
    idf: (t) => corpus.index.idf(t),
    lang: language,
    agreement: options.agreement === true,
    ...gazetteer(corpus, language),
  };
  const corrections = prepareCorrections(options.corrections ?? []);
  const outcomes: ClauseOutcome[] = [];
  const sentences = splitSentences(claim);
  const multi = sentences.length >= 2;
  for (const s of sentences) {
    const sentence = prepare(s.text);
    const matched = corrections.filter((pc) => matchesCorrection(sentence, pc));
    for (const text of multi ? [withoutEndMark(s.text)] : splitClauses(s.text)) {
      const clause = prepare(text);
      const pc = corrections.length > 0 ? correctionFor(clause, corrections, matched) : undefined;
      if (pc) {
        outcomes.push({
          part: { text, verdict: 'contradicted', score: 0 },
          correction: {
            claim: text,
            ...(pc.correction.id !== undefined ? { correctionId: pc.correction.id } : {}),
            correctedClaim: pc.correction.correctedClaim,
            confidence: 0.9,
            verdict: 'contradicted',
          },
        });
        continue;
      }
      outcomes.push(checkClause(text, clause, sentence, corpus, ctx, options));
    }
  }
  return { outcomes, language };
}

const isEndMark = (c: number): boolean => c === 46 || c === 33 || c === 63;

/**
 * The sentence without its final marks and the white space after them (`/[.!?]+\s*$/u` as a loop: the
 * pattern was retried from every mark of a long run of them that did not end the text, quadratic).
 */
export function withoutEndMark(text: string): string {
  const end = endOfKept(text, isSpaceCode);
  const start = endOfKept(text, isEndMark, 0, end);
  return start === end ? text : text.slice(0, start);
}
