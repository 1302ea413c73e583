import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkClaim } from '../../src/engines/hallucination/index.js';
import { overlapSupported } from './baseline.js';
import { rng } from './cases.js';
import type { Label, Scored } from './metrics.js';

export interface PublicFileReport {
  file: string;
  rows: number;
  sampled: number;
  labels: Record<string, number>;
  scored: Scored[];
  baseline: Scored[];
  ms: number;
}

const LABELS = new Set<Label>(['supported', 'contradicted', 'unsupported']);

/** Reads each public file, samples at most `limit` rows with a fixed seed, and checks them. */
export function evaluatePublic(dir: string, limit: number, seed = 20261122): PublicFileReport[] {
  if (!existsSync(dir)) return [];
  const out: PublicFileReport[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()) {
    const lines = readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean);
    const next = rng(seed);
    const idx = lines
      .map((_, i) => ({ i, k: next() }))
      .sort((a, b) => a.k - b.k)
      .slice(0, limit)
      .map((x) => x.i);
    const scored: Scored[] = [];
    const baseline: Scored[] = [];
    const labels: Record<string, number> = {};
    const t0 = performance.now();
    for (const i of idx) {
      const row = JSON.parse(lines[i]!) as { claim: string; sources: string[]; label: Label };
      if (!LABELS.has(row.label)) continue;
      labels[row.label] = (labels[row.label] ?? 0) + 1;
      const sources = row.sources.slice(0, 20).map((s) => s.slice(0, 50_000));
      const r = checkClaim(row.claim.slice(0, 10_000), sources);
      scored.push({ gold: row.label, pred: r.verdict });
      baseline.push({
        gold: row.label,
        pred: overlapSupported(row.claim, sources) ? 'supported' : 'unsupported',
      });
    }
    out.push({
      file,
      rows: lines.length,
      sampled: scored.length,
      labels,
      scored,
      baseline,
      ms: performance.now() - t0,
    });
  }
  return out;
}
