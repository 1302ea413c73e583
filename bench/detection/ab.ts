/**
 * A/B of the detection engine's CPU time on the hostile 100 KB inputs and on benign 100 KB text: this
 * checkout against another checkout of the same repository (the baseline), run interleaved in one
 * process so that both see the same load. Prints per input the median (and least) process CPU time of
 * each, the ratio and the load average.
 *
 *   tsx bench/detection/ab.ts BASELINE_ROOT [name filter]
 *
 * BASELINE_ROOT as for fingerprint.ts (`git archive <commit> src | tar -x -C DIR`). AB_RUNS sets the runs
 * per input and engine (default 7); AB_SIZE the input size (default 100,000 characters). Both engines
 * are warmed on every input at 10 KB, then twice per input at full size, before anything is timed.
 */
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CPU_CLOCK, load, timed } from '../support/cpu-time.js';
import { benignText, DETECTION_HOSTILE_CASES } from './cases.js';

type Engine = typeof import('../../src/engines/detection/index.js');

const here = fileURLToPath(new URL('../..', import.meta.url));
const baseRoot = process.argv[2];
if (!baseRoot) throw new Error('usage: tsx bench/detection/ab.ts BASELINE_ROOT [name filter]');
const filter = process.argv[3] ?? '';
const load_ = async (root: string): Promise<Engine> =>
  (await import(pathToFileURL(join(resolve(root), 'src/engines/detection/index.ts')).href)) as Engine;
const base = await load_(baseRoot);
const mine = await load_(here);
const RUNS = Number(process.env['AB_RUNS'] ?? 7);
const SIZE = Number(process.env['AB_SIZE'] ?? 100_000);

const inputs = [
  { name: 'benign text', make: (n: number) => benignText(n, 0) },
  ...DETECTION_HOSTILE_CASES,
].filter((c) => c.name.includes(filter));
const median = (xs: number[]): number => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
// Both engines first read every input at 10 KB: the first inputs measured would otherwise also pay for
// compiling the engine (background compiler threads count in the process CPU time).
for (const { make } of inputs) {
  base.analyze(make(10_000));
  mine.analyze(make(10_000));
}
console.log(
  `${SIZE} characters, median of ${RUNS} interleaved runs, ${CPU_CLOCK} ms: baseline ${baseRoot} vs this checkout`,
);
const rows: { name: string; a: number; b: number; aMin: number; bMin: number }[] = [];
for (const { name, make } of inputs) {
  const text = make(SIZE);
  for (let w = 0; w < 2; w++) {
    base.analyze(text);
    mine.analyze(text);
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    a.push(timed(() => base.analyze(text)).cpu);
    b.push(timed(() => mine.analyze(text)).cpu);
  }
  const row = { name, a: median(a), b: median(b), aMin: Math.min(...a), bMin: Math.min(...b) };
  rows.push(row);
  console.log(
    `${name.padEnd(28)} baseline ${row.a.toFixed(1).padStart(6)}  this ${row.b.toFixed(1).padStart(6)}  ×${(row.a / row.b).toFixed(2)}  (min ${row.aMin.toFixed(1)} / ${row.bMin.toFixed(1)})  ${load()}`,
  );
}
const over = (k: 'a' | 'b') => rows.filter((r) => r[k] > 20).length;
const worst = (k: 'a' | 'b') => rows.reduce((w, r) => (r[k] > w[k] ? r : w), rows[0] as (typeof rows)[0]);
console.log(
  `over 20 ms: baseline ${over('a')}, this ${over('b')} of ${rows.length}; worst: baseline ${worst('a').name} ${worst('a').a.toFixed(1)} ms, this ${worst('b').name} ${worst('b').b.toFixed(1)} ms  ${load()}`,
);
