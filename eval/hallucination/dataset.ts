// The labelled claims the learned verdict is trained and scored on: every public file of
// shared/data/hallucination (one source each, read at run time, never copied) and the team's cases (one
// source, "team") and the own style cases (style.ts, one source, "own_styles"). Each row carries the checker's signals, computed once with the hand-threshold verdict.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkClaim } from '../../src/engines/hallucination/index.js';
import { ENGINE_OPTIONS } from './engine-options.js';
import { type Case, rng } from './cases.js';
import type { Label } from './metrics.js';
import { STYLE_CASES } from './style-cases.js';

export interface Row {
  source: string;
  lang: string;
  gold: Label;
  claim: string;
  sources: string[];
  /** Signals of the sub-claim with the least coverage (the part most likely to be unsupported). */
  signals: number[];
  /** The hand-threshold verdict, the baseline the learned one is compared with. */
  rules: Label;
  /** The case's kind, for the team's and the own style cases. */
  kind?: string;
}

/** Files whose licence allows measurement only (shared/data/README.md): scored, never trained on. */
export const EVAL_ONLY = new Set(['climate_fever_claims', 'climate_fever_evidence_pairs']);
const LABELS = new Set<Label>(['supported', 'contradicted', 'unsupported', 'partially_supported']);

function sample<T>(items: T[], limit: number, seed: number, offset = 0): T[] {
  const next = rng(seed);
  return items
    .map((item, i) => ({ item, i, k: next() }))
    .sort((a, b) => a.k - b.k || a.i - b.i)
    .slice(offset, offset + limit)
    .map((x) => x.item);
}

/** Which rows loadRows reads: after `offset` rows of each seeded order, only some files, some team parts. */
export interface RowSelection {
  offset?: number;
  /** File names (without .jsonl) to leave out. */
  skip?: ReadonlySet<string>;
  teamParts?: readonly string[];
  /** Offset into the team cases' seeded order (default `offset`). */
  teamOffset?: number;
  /** Parts of the own style cases (style.ts) to read; default both, [] for none. */
  styleParts?: readonly ('tuning' | 'test')[];
}

function withSignals(r: Omit<Row, 'signals' | 'rules'>): Row | null {
  const sources = r.sources.slice(0, 20).map((s) => s.slice(0, 50_000));
  const out = checkClaim(r.claim.slice(0, 10_000), sources, {
    verdict: 'rules',
    signals: true,
    ...ENGINE_OPTIONS,
  });
  const parts = out.claims.filter((p) => p.signals);
  if (parts.length === 0) return { ...r, sources, signals: [], rules: out.verdict };
  const weakest = parts.reduce((a, b) => (b.signals![0]! < a.signals![0]! ? b : a));
  return { ...r, sources, signals: weakest.signals!, rules: out.verdict };
}

function teamCases(parts: readonly string[] = ['tuning', 'test']): Case[] {
  return parts.flatMap((part) =>
    readFileSync(fileURLToPath(new URL(`./cases/${part}.jsonl`, import.meta.url)), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Case),
  );
}

/** Up to `perSource` rows of every source, sampled with a fixed seed; sorted by source for reproducibility. */
export function loadRows(dir: string, perSource: number, seed = 20261125, select: RowSelection = {}): Row[] {
  const offset = select.offset ?? 0;
  const rows: Row[] = [];
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.jsonl') && !select.skip?.has(f.replace(/\.jsonl$/, '')))
        .sort()
    : [];
  for (const file of files) {
    const source = file.replace(/\.jsonl$/, '');
    const lines = readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean);
    for (const line of sample(lines, perSource, seed, offset)) {
      const raw = JSON.parse(line) as { claim: string; sources: string[]; label: Label };
      if (!LABELS.has(raw.label)) continue;
      const row = withSignals({
        source,
        lang: 'en',
        gold: raw.label,
        claim: raw.claim,
        sources: raw.sources,
      });
      if (row) rows.push(row);
    }
  }
  for (const c of sample(teamCases(select.teamParts), perSource, seed, select.teamOffset ?? offset)) {
    const row = withSignals({
      source: 'team',
      lang: c.lang,
      gold: c.label,
      claim: c.claim,
      sources: c.sources,
      kind: c.kind,
    });
    if (row) rows.push(row);
  }
  const parts = select.styleParts ?? ['tuning', 'test'];
  for (const c of STYLE_CASES.filter((x) => parts.includes(x.part))) {
    const row = withSignals({
      source: 'own_styles',
      lang: c.lang,
      gold: c.label,
      claim: c.claim,
      sources: c.sources,
      kind: c.kind,
    });
    if (row) rows.push(row);
  }
  return rows;
}
