// Leave-one-source-out: for each source, the verdict model is trained on every other source whose licence
// allows training and scored on the one left out. The headline of `npm run eval:hallucination`.
import { checkClaim, SIGNAL_NAMES } from '../../src/engines/hallucination/index.js';
import { ENGINE_OPTIONS } from './engine-options.js';
import { EVAL_ONLY, type Row } from './dataset.js';
import { train } from './logistic.js';
import { balancedAccuracy, groupBy, pct, type Scored } from './metrics.js';

export interface SourceReport {
  source: string;
  n: number;
  rules: Scored[];
  learned: Scored[];
  rows: Row[];
}

export function trainable(rows: Row[]): Row[] {
  return rows.filter((r) => !EVAL_ONLY.has(r.source) && r.signals.length === SIGNAL_NAMES.length);
}

export function examplesOf(rows: Row[]) {
  return trainable(rows).map((r) => ({
    x: r.signals,
    y: r.gold === 'supported' ? (1 as const) : (0 as const),
  }));
}

export function leaveOneSourceOut(rows: Row[]): SourceReport[] {
  const out: SourceReport[] = [];
  for (const [source, held] of groupBy(rows, (r) => r.source)) {
    const model = train(examplesOf(rows.filter((r) => r.source !== source)), SIGNAL_NAMES);
    const learned = held.map((r) => ({
      gold: r.gold,
      pred: checkClaim(r.claim, r.sources, { model, ...ENGINE_OPTIONS }).verdict,
    }));
    out.push({
      source,
      n: held.length,
      rules: held.map((r) => ({ gold: r.gold, pred: r.rules })),
      learned,
      rows: held,
    });
  }
  return out;
}

/** Balanced accuracy, or plain binary accuracy for a source with one class only (marked *). */
function score(rows: Scored[]): { value: number; single: boolean } {
  const b = balancedAccuracy(rows);
  if (!Number.isNaN(b)) return { value: b, single: false };
  const right = rows.filter((r) => (r.gold === 'supported') === (r.pred === 'supported')).length;
  return { value: right / Math.max(1, rows.length), single: true };
}

export function printLoso(reports: SourceReport[]): number {
  console.log(
    '\n== leave-one-source-out (model trained on the other sources; eval-only files never trained on)',
  );
  console.log(
    'source                          n    rules   learned (balanced accuracy; * = one class: accuracy)',
  );
  const both: number[] = [];
  for (const r of reports) {
    const a = score(r.rules);
    const b = score(r.learned);
    if (!b.single) both.push(b.value);
    const mark = b.single ? '*' : ' ';
    console.log(
      `${r.source.padEnd(30)} ${String(r.n).padStart(4)}   ${pct(a.value)}   ${pct(b.value)}${mark}`,
    );
  }
  const learned = reports.flatMap((r) => r.learned);
  const rules = reports.flatMap((r) => r.rules);
  const langs = groupBy(
    reports.flatMap((r) =>
      r.rows.map((row, i) => ({ lang: row.lang, rule: r.rules[i]!, learn: r.learned[i]! })),
    ),
    (x) => x.lang,
  );
  console.log('\nlanguage   n    rules   learned');
  for (const [lang, list] of langs) {
    const a = balancedAccuracy(list.map((x) => x.rule));
    const b = balancedAccuracy(list.map((x) => x.learn));
    console.log(`${lang.padEnd(8)} ${String(list.length).padStart(4)}   ${pct(a)}   ${pct(b)}`);
  }
  const mean = both.reduce((a, b) => a + b, 0) / Math.max(1, both.length);
  console.log(
    `\nHEADLINE leave-one-source-out balanced accuracy: mean over ${both.length} two-class sources ${pct(mean)}; pooled ${pct(balancedAccuracy(learned))} (hand thresholds: pooled ${pct(balancedAccuracy(rules))})`,
  );
  return mean;
}
