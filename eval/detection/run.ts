// Accuracy of the detection engine, measured so that it cannot be tuned to: leave-one-source-out (LOSO).
// For every source (each public file under ../shared/data/injection, BIPIA split by context kind, the team's
// corpus and the team's own training corpus) the learned signal is trained and calibrated on the other
// trainable sources only (eval-only files are never trained on), and the held-out source is then scored.
// Patterns and TF-IDF references are fixed code, the same in every fold. The headline is the mean over
// sources. The shipped engine (committed weights) is then scored on every row: for the sources it was
// trained on, that second table is in-sample.
// Flags: --shipped-only (skip LOSO), --only NAME (LOSO for one source), --shard K/N --out FILE (only the folds
// whose index is K modulo N, scored rows written to FILE, so that folds can run in parallel processes),
// --merge FILE... (the tables of shards written that way, then the shipped engine).
import { readFileSync, writeFileSync } from 'node:fs';
import { analyze } from '../../src/engines/detection/index.js';
import { maxWindowLogit, warnLogit } from '../../src/engines/detection/model/linear.js';
import { fitDetector } from '../../src/engines/detection/model/train.js';
import { combineScore, DEFAULT_THRESHOLDS, modelPoints } from '../../src/engines/detection/scoring.js';
import { type PreparedRow, prepare } from './prepare.js';
import { headline, printHeadline, printTables, type Scored } from './report.js';
import { loadSources, PUBLIC_DIR } from './sources.js';
import { binaryGroups, writeChart } from '../../scripts/svg-chart.js';

const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const shardArg = args.includes('--shard') ? String(args[args.indexOf('--shard') + 1]) : undefined;
const [shard, shards] = shardArg ? shardArg.split('/').map(Number) : [0, 1];
const out = args.includes('--out') ? args[args.indexOf('--out') + 1] : undefined;
const merge = args.includes('--merge') ? args.slice(args.indexOf('--merge') + 1) : undefined;
if (shardArg && (!out || !Number.isInteger(shard) || !Number.isInteger(shards) || (shards as number) < 1))
  throw new Error('--shard K/N needs integers 0 <= K < N and --out FILE');
const WARN = DEFAULT_THRESHOLDS.warn;

const loaded = loadSources();
// Training-only sources (carriers.ts) are trained on in every fold and never held out or scored.
const sources = loaded.filter((s) => s.scored !== false);
const aux = loaded.filter((s) => s.scored === false);
const all = sources.flatMap((s) => s.rows);
const trainable = new Set(sources.filter((s) => s.trainable).map((s) => s.name));
console.log(
  `detection eval: ${sources.length} sources, ${all.length} rows (public data read from ${PUBLIC_DIR})`,
);
console.log(
  `training-only sources (every fold, never scored): ${aux.map((s) => `${s.name} ${s.rows.length}`).join(', ') || 'none'}`,
);
console.log(
  'A row is flagged when its score reaches warn (45). BIPIA rows are analysed with context "document", team rows with their own context.',
);

function report(scored: Scored[]): void {
  printTables(scored, sources);
  printHeadline('LOSO headline', headline(scored));
  for (const [by, key] of [
    ['source', (r: Scored) => r.source],
    ['language', (r: Scored) => r.lang],
  ] as const) {
    writeChart(`eval-detection-loso-${by}`, {
      title: `Injection detection, leave-one-source-out, per ${by}`,
      subtitle: `npm run eval:detection; flagged at score ≥ ${WARN}; each source scored by a model trained without it`,
      measures: ['recall', 'false positives', 'balanced accuracy'],
      rows: binaryGroups(scored, key),
      unit: '%',
      max: 100,
    });
  }
}

if (merge) {
  console.log('\n== leave-one-source-out (headline), merged from shards ==');
  const scored = merge.flatMap((f) => JSON.parse(readFileSync(f, 'utf8')) as Scored[]);
  const folds = new Set(scored.map((r) => r.source));
  const missing = sources.filter((s) => !folds.has(s.name)).map((s) => s.name);
  if (missing.length) throw new Error(`--merge: no fold for ${missing.join(', ')}`);
  report(scored);
} else if (!args.includes('--shipped-only')) {
  const t0 = Date.now();
  const prepared = prepare(all);
  const auxRows = prepare(aux.flatMap((s) => s.rows));
  const scored: Scored[] = [];
  console.log('\n== leave-one-source-out (headline) ==');
  console.log(
    'For each source: the model is trained and its warn logit calibrated (on out-of-source logits of two halves of the training sources) without that source, then the source is scored.',
  );
  for (const [index, s] of sources.entries()) {
    if (only && s.name !== only) continue;
    if (index % (shards as number) !== shard) continue;
    const train = [...prepared.filter((p) => p.source !== s.name && trainable.has(p.source)), ...auxRows];
    const { model, calibration } = fitDetector(train, `loso-${s.name}`);
    const held = prepared.filter((p) => p.source === s.name);
    for (const p of held) {
      const z = maxWindowLogit(model, p.tf).logit;
      const score = Math.round(
        combineScore({
          ...p.parts,
          modelPoints: modelPoints(z, warnLogit(model, p.calLang), p.tf.offsets.length - 1),
        }),
      );
      scored.push({ ...(p as PreparedRow).row, score, flagged: score >= WARN });
    }
    console.log(
      `  fold ${s.name}: trained on ${train.length} rows, zWarn ${calibration.zWarn} ${JSON.stringify(calibration.byLang)}`,
    );
  }
  if (out) {
    // A shard: its rows go to a file for --merge; the texts stay out of it.
    writeFileSync(out, JSON.stringify(scored.map((r) => ({ ...r, text: '' }))));
    console.log(`  shard ${shard}/${shards}: ${scored.length} rows written to ${out}`);
    console.log(`  (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    process.exit(0);
  }
  report(scored);
  console.log(`  (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
}

const shipped: Scored[] = all.map((r) => {
  const a = analyze(r.text, r.context ? { context: r.context } : undefined);
  return { ...r, score: a.score, flagged: a.score >= WARN };
});
console.log(
  '\n== shipped engine (committed model), every row; in-sample for the sources it was trained on ==',
);
printTables(shipped, sources);
printHeadline('shipped engine', headline(shipped));
