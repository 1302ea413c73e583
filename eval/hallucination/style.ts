import { hash, rng } from './cases.js';
import type { Label } from './metrics.js';

/**
 * Hand-written cases in the styles the team's fact templates (fact.ts) do not cover, written for issue 17
 * (none copied from a public dataset): supported claims in other words and another sentence structure,
 * entity swaps, answers to a question about a knowledge passage (QA style) and multi-sentence summaries of
 * the passage (summary style). Each passage is checked together with two other passages of its language.
 */
export type StyleKind =
  | 'reworded'
  | 'entity_swap'
  | 'qa_right'
  | 'qa_wrong'
  | 'summary_faithful'
  | 'summary_unfaithful';

export interface StylePassage {
  id: string;
  lang: 'en' | 'fr' | 'de';
  passage: string;
  /** [claim, gold label, kind]. */
  claims: Array<[string, Label, StyleKind]>;
}

/** A labelled style case, the shape dataset.ts reads. */
export interface StyleCase {
  id: string;
  claim: string;
  sources: string[];
  gold_source: number;
  label: Label;
  kind: StyleKind;
  lang: 'en' | 'fr' | 'de';
  part: 'tuning' | 'test';
}

/**
 * Every case of the given passages. Passages at odd positions within their language are the test part (never
 * read while designing: the leave-one-source-out headline scores them); the others are for design decisions
 * (`npm run dev:hallucination`). Sources: the passage and two other passages of its language, in a seeded order.
 */
export function styleCases(passages: readonly StylePassage[]): StyleCase[] {
  const out: StyleCase[] = [];
  for (const lang of ['en', 'fr', 'de'] as const) {
    const list = passages.filter((p) => p.lang === lang);
    list.forEach((p, i) => {
      p.claims.forEach(([claim, label, kind], k) => {
        const next = rng(hash(`${p.id}:${k}`));
        const others = list
          .filter((o) => o !== p)
          .map((o) => ({ o, key: next() }))
          .sort((a, b) => a.key - b.key)
          .map((x) => x.o);
        const docs = [p.passage, others[0]!.passage, others[1]!.passage]
          .map((d, j) => ({ d, j, key: next() }))
          .sort((a, b) => a.key - b.key);
        out.push({
          id: `${p.id}-${k}`,
          claim,
          sources: docs.map((x) => x.d),
          gold_source: docs.findIndex((x) => x.j === 0),
          label,
          kind,
          lang,
          part: i % 2 === 1 ? 'test' : 'tuning',
        });
      });
    });
  }
  return out;
}
