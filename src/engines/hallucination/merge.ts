import { type AlignContext, type Alignment, align, type Unit } from './align.js';
import type { Prepared } from './prepare.js';
import { termsMatch } from './terms.js';

/**
 * Sentence merging: a claim sentence often packs what a source says in two sentences that are not next to
 * each other ("Harlow Robotics, founded in 2011, employs 1,250 people" against "Harlow Robotics was founded
 * in 2011. […] The firm employs 1,250 people."). Retrieval units are single sentences and adjacent pairs,
 * so the best unit leaves part of the claim unstated. Here the best unit is joined with one other sentence
 * of the same source (from the retrieved candidates, or retrieved for the claim terms still missing) and the
 * pair is aligned again; the learned verdict reads how much the second sentence adds (signals.ts).
 */

/** Text between the two sentences of a merged unit in the evidence `match`. */
export const MERGE_GLUE = ' … ';

/** Candidate sentences retrieved for the claim terms the best unit lacks. */
export const COMPLEMENT_CANDIDATES = 6;

/** Two units of one source read as one (the second's text after MERGE_GLUE). */
export function mergeUnits(a: Unit, b: Unit): Unit {
  return {
    source: a.source,
    text: `${a.text}${MERGE_GLUE}${b.text}`,
    sentences: [...a.sentences, ...b.sentences],
    terms: [...a.terms, ...b.terms],
    numbers: [...a.numbers, ...b.numbers],
    whole: a.whole,
  };
}

/** Retrieval query for what the unit does not state: the claim's terms it lacks, weight 1. */
export function complementQuery(claim: Prepared, unit: Unit): Map<string, number> {
  const q = new Map<string, number>();
  for (const t of claim.terms) if (!unit.terms.some((u) => termsMatch(t, u))) q.set(t, 1);
  return q;
}

/** Whether the best unit already states the whole claim (nothing to merge). */
export function complete(a: Alignment): boolean {
  return a.coverage >= 0.999 && a.missing.length === 0;
}

export interface Merged {
  unit: Unit;
  a: Alignment;
}

/**
 * The best unit joined with the one single sentence of its source that raises the claim's coverage most,
 * or null when no sentence adds anything.
 */
export function bestMerge(
  claim: Prepared,
  best: Merged,
  candidates: readonly Unit[],
  ctx: AlignContext,
): Merged | null {
  if (complete(best.a)) return null;
  let out: Merged | null = null;
  const seen = new Set<Unit>();
  for (const u of candidates) {
    if (seen.has(u) || u.source !== best.unit.source || u.sentences.length !== 1) continue;
    seen.add(u);
    if (best.unit.sentences.includes(u.sentences[0]!)) continue;
    const m = mergeUnits(best.unit, u);
    const a = align(claim, m, ctx);
    if (a.coverage > (out?.a.coverage ?? best.a.coverage) + 1e-9) out = { unit: m, a };
  }
  return out;
}
