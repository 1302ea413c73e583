/**
 * Interleaved A/B of two checkouts of the DLP engine: `detectEntities` on the bench's 1, 10 and 100 KB texts
 * (built from eval/dlp/corpus/test.jsonl as in bench.ts), the two engines taking turns in every round and
 * the order flipped each round, so that both see the same load. Prints the median over the rounds of each
 * engine's CPU time per call (process.cpuUsage) and wall-clock p50, and the load average. Asserts nothing.
 *
 *   tsx bench/dlp/ab.ts <root of the other checkout> [rounds]
 *
 * A is the other checkout (`git worktree add` or `git archive <commit> src | tar -x -C DIR`), B this one.
 */
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dlpTextOf as textOf } from '../support/dlp-texts.js';

type Engine = typeof import('../../src/engines/dlp/index.js');

const here = fileURLToPath(new URL('../..', import.meta.url));
if (process.argv[2] === undefined)
  throw new Error('usage: tsx bench/dlp/ab.ts <root of checkout A> [rounds]');
const roots = [resolve(process.argv[2]), here];
const rounds = Number(process.argv[3] ?? 7);
const engines = (await Promise.all(
  roots.map((r) => import(pathToFileURL(join(r, 'src/engines/dlp/index.ts')).href)),
)) as Engine[];

const sets: Array<[string, string[], number]> = [
  ['1 KB', Array.from({ length: 64 }, (_, i) => textOf(1024, i * 7)), 600],
  ['10 KB', Array.from({ length: 8 }, (_, i) => textOf(10 * 1024, i * 13)), 60],
  ['100 KB', Array.from({ length: 4 }, (_, i) => textOf(100 * 1024, i * 31)), 8],
];

for (const e of engines)
  for (const [, texts] of sets) for (let i = 0; i < 50; i++) e.detectEntities(texts[i % texts.length]!);

const runs = new Map<string, Array<[number, number]>>();
for (let r = 0; r < rounds; r++) {
  for (const [label, texts, n] of sets) {
    for (let k = 0; k < engines.length; k++) {
      const which = r % 2 === 0 ? k : engines.length - 1 - k;
      const engine = engines[which]!;
      const times: number[] = [];
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        engine.detectEntities(texts[i % texts.length]!);
        times.push(performance.now() - t0);
      }
      const cpu = process.cpuUsage(cpu0);
      times.sort((a, b) => a - b);
      const key = `${label} ${which}`;
      runs.set(key, [
        ...(runs.get(key) ?? []),
        [(cpu.user + cpu.system) / 1000 / n, times[Math.floor(n / 2)]!],
      ]);
    }
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`detectEntities, A = ${roots[0]}, B = ${roots[1]}; median of ${rounds} interleaved rounds`);
for (const [label] of sets) {
  const cells = engines.map((_, k) => {
    const r = runs.get(`${label} ${k}`)!;
    const cpu = median(r.map((x) => x[0]));
    const p50 = median(r.map((x) => x[1]));
    return `${k === 0 ? 'A' : 'B'} CPU ${cpu.toFixed(3)} ms/call  p50 ${p50.toFixed(3)} ms`;
  });
  const ratio =
    median(runs.get(`${label} 1`)!.map((x) => x[0])) / median(runs.get(`${label} 0`)!.map((x) => x[0]));
  console.log(`${label.padEnd(7)} ${cells.join('   ')}   CPU B/A ${ratio.toFixed(2)}`);
}
console.log(
  `load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
