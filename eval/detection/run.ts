// Accuracy of the detection engine, measured so that it cannot be tuned to: leave-one-source-out (LOSO).
// For every source (each public file under ../shared/data/injection, BIPIA split by context, the team's
// corpus and the team's own training corpus) everything that is fitted is fitted on the other sources only,
// and the source is then scored. The headline is the mean over sources. The shipped engine is scored on
// every row as well, for comparison (for the sources it was trained on, that figure is in-sample).
// Flags: --shipped-only (skip LOSO).
import { analyze } from '../../src/engines/detection/index.js';
import { headline, printHeadline, printTables, type Scored } from './report.js';
import { type EvalRow, loadSources, PUBLIC_DIR } from './sources.js';

const args = process.argv.slice(2);
const WARN = 45;

function scoreShipped(rows: EvalRow[]): Scored[] {
  return rows.map((r) => {
    const a = analyze(r.text, r.context ? { context: r.context } : undefined);
    return { ...r, score: a.score, flagged: a.score >= WARN };
  });
}

const sources = loadSources();
const all = sources.flatMap((s) => s.rows);
console.log(
  `detection eval: ${sources.length} sources, ${all.length} rows (public data read from ${PUBLIC_DIR})`,
);
console.log(
  'A row is flagged when its score reaches warn (45). BIPIA rows are analysed with context "document", team rows with their own context.',
);

const shipped = scoreShipped(all);
if (!args.includes('--shipped-only')) {
  // The engine has nothing fitted yet: patterns and TF-IDF references are fixed, so LOSO equals shipped.
  console.log('\n== leave-one-source-out (headline) ==');
  console.log(
    'Nothing in this engine is fitted to data, so each held-out source is scored by the same engine.',
  );
  printTables(shipped, sources);
  printHeadline('LOSO headline', headline(shipped));
}
console.log('\n== shipped engine, every row ==');
printTables(shipped, sources);
printHeadline('shipped engine', headline(shipped));
