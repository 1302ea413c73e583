// Accuracy of the detection engine. `npm run eval:detection` prints the team corpus (test split by default;
// `--split tune` while tuning) and then every public file under ../shared/data/injection, read in place.
// Flags: --split tune|test|holdout|all, --no-public, --public-only, --misses N.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyze } from '../../src/engines/detection/index.js';

interface Row {
  text: string;
  label: number;
  category?: string;
  lang?: string;
  kind?: string;
  context?: string;
  obfuscation?: string;
  source?: string;
}

interface Scored extends Row {
  score: number;
  flagged: boolean;
}

const args = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const split = arg('--split') ?? 'test';
const missCount = Number(arg('--misses') ?? 12);
const here = fileURLToPath(new URL('.', import.meta.url));
const publicDir = join(here, '../../../shared/data/injection');

function readJsonl(path: string): Row[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Row);
}

function score(rows: Row[], context?: string): Scored[] {
  return rows.map((r) => {
    const ctx = r.context ?? context;
    const a = analyze(r.text, ctx ? { context: ctx } : undefined);
    return { ...r, score: a.score, flagged: !a.safe };
  });
}

const pct = (n: number, d: number): string =>
  d === 0 ? '   n/a' : `${((100 * n) / d).toFixed(1).padStart(5)}%`;

function summary(rows: Scored[]): { tp: number; fn: number; fp: number; tn: number } {
  let tp = 0;
  let fn = 0;
  let fp = 0;
  let tn = 0;
  for (const r of rows) {
    if (r.label === 1) r.flagged ? tp++ : fn++;
    else r.flagged ? fp++ : tn++;
  }
  return { tp, fn, fp, tn };
}

function printHeadline(name: string, rows: Scored[]): void {
  const { tp, fn, fp, tn } = summary(rows);
  const precision = tp + fp ? tp / (tp + fp) : 0;
  const recall = tp + fn ? tp / (tp + fn) : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  console.log(
    `${name}: rows ${rows.length} | attacks ${tp + fn} recall ${pct(tp, tp + fn)} | benign ${fp + tn} FPR ${pct(fp, fp + tn)} | precision ${(100 * precision).toFixed(1)}% F1 ${(100 * f1).toFixed(1)}%`,
  );
}

function recallBy(rows: Scored[], key: (r: Scored) => string | undefined, title: string): void {
  const groups = new Map<string, { hit: number; n: number }>();
  for (const r of rows) {
    if (r.label !== 1) continue;
    const k = key(r);
    if (k === undefined) continue;
    const g = groups.get(k) ?? { hit: 0, n: 0 };
    g.n++;
    if (r.flagged) g.hit++;
    groups.set(k, g);
  }
  console.log(`  recall by ${title}:`);
  for (const [k, g] of [...groups].sort())
    console.log(`    ${k.padEnd(26)} ${pct(g.hit, g.n)}  (${g.hit}/${g.n})`);
}

function fpBy(rows: Scored[], key: (r: Scored) => string | undefined, title: string): void {
  const groups = new Map<string, { fp: number; n: number }>();
  for (const r of rows) {
    if (r.label !== 0) continue;
    const k = key(r) ?? '?';
    const g = groups.get(k) ?? { fp: 0, n: 0 };
    g.n++;
    if (r.flagged) g.fp++;
    groups.set(k, g);
  }
  console.log(`  false-positive rate by ${title}:`);
  for (const [k, g] of [...groups].sort())
    console.log(`    ${k.padEnd(26)} ${pct(g.fp, g.n)}  (${g.fp}/${g.n})`);
}

function worst(rows: Scored[]): void {
  const clip = (s: string): string => JSON.stringify(s.length > 110 ? `${s.slice(0, 110)}…` : s);
  const misses = rows.filter((r) => r.label === 1 && !r.flagged).sort((a, b) => a.score - b.score);
  console.log(`  worst misses (${misses.length} in all):`);
  for (const r of misses.slice(0, missCount)) {
    console.log(
      `    ${String(r.score).padStart(3)} [${r.lang ?? '?'}/${r.category ?? r.source ?? '?'}${r.obfuscation ? `/${r.obfuscation}` : ''}] ${clip(r.text)}`,
    );
  }
  const fps = rows.filter((r) => r.label === 0 && r.flagged).sort((a, b) => b.score - a.score);
  console.log(`  worst false positives (${fps.length} in all):`);
  for (const r of fps.slice(0, missCount))
    console.log(
      `    ${String(r.score).padStart(3)} [${r.lang ?? '?'}/${r.kind ?? r.source ?? '?'}] ${clip(r.text)}`,
    );
}

function team(): void {
  const files = split === 'all' ? ['tune', 'test', 'holdout'] : [split];
  for (const f of files) {
    const rows = score(readJsonl(join(here, 'corpus', `${f}.jsonl`)));
    console.log(`\n== team corpus, ${f} split ==`);
    printHeadline(`${f}`, rows);
    recallBy(rows, (r) => r.category, 'category');
    recallBy(rows, (r) => r.lang, 'language');
    recallBy(rows, (r) => r.kind, 'kind');
    recallBy(
      rows,
      (r) => r.obfuscation ?? (r.kind === 'obfuscated' ? '?' : undefined),
      'obfuscation (obfuscated rows)',
    );
    fpBy(rows, (r) => r.kind, 'kind');
    fpBy(rows, (r) => r.lang, 'language');
    worst(rows);
  }
}

function publicData(): void {
  if (!existsSync(publicDir)) {
    console.log(`\n(public data not found at ${publicDir})`);
    return;
  }
  console.log(
    `\n== public data (${publicDir}), reported per file; round 2 read misses of even-numbered rows (see README) ==`,
  );
  const all: Scored[] = [];
  for (const file of readdirSync(publicDir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()) {
    // BIPIA's texts are emails, tables and code an assistant reads, so they are analysed as documents.
    const rows = score(readJsonl(join(publicDir, file)), file.startsWith('bipia') ? 'document' : undefined);
    all.push(...rows);
    printHeadline(file, rows);
    if (args.includes('--detail')) {
      recallBy(rows, (r) => r.lang, 'language');
      worst(rows);
    }
  }
  printHeadline('ALL PUBLIC', all);
}

if (!args.includes('--public-only')) team();
if (!args.includes('--no-public')) publicData();
