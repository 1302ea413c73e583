/**
 * Interleaved A/B of two checkouts of the DLP engine: `detectEntities` on the bench's 1, 10 and 100 KB texts
 * (built from eval/dlp/corpus/test.jsonl as in bench.ts), and `tokenize` (detection and tokens, a new
 * session each time) on what a chat request brings (bench/dlp/chat-texts.ts): the network proxy bench's new
 * turn with a name, an e-mail address and a phone number, and 4.5 KB conversations with about eight
 * entities. The two engines take turns in every round and the order flips each round, so that both see the
 * same load. Prints the median over the rounds of each engine's CPU time per call (process.cpuUsage) and
 * wall-clock p50, then the bytes each engine allocates per call (V8's sampling heap profiler, collected
 * objects included, after the timed rounds), and the load average. Asserts nothing.
 *
 *   tsx bench/dlp/ab.ts <root of the other checkout> [rounds]
 *
 * A is the other checkout (`git worktree add` or `git archive <commit> src | tar -x -C DIR`), B this one.
 */
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dlpTextOf as textOf } from '../support/dlp-texts.js';
import { chatConversation, chatTurn } from './chat-texts.js';

type Engine = typeof import('../../src/engines/dlp/index.js');

const here = fileURLToPath(new URL('../..', import.meta.url));
if (process.argv[2] === undefined)
  throw new Error('usage: tsx bench/dlp/ab.ts <root of checkout A> [rounds]');
const roots = [resolve(process.argv[2]), here];
const rounds = Number(process.argv[3] ?? 7);
const engines = (await Promise.all(
  roots.map((r) => import(pathToFileURL(join(r, 'src/engines/dlp/index.ts')).href)),
)) as Engine[];

const key = new TextEncoder().encode('ab-session-key');
type Run = (engine: Engine, text: string) => unknown;
const detect: Run = (e, t) => e.detectEntities(t);
const tokenize: Run = (e, t) => e.tokenize(t, e.createTokenMap(), key);
const sets: Array<[string, string[], number, Run]> = [
  ['turn, tokenize', Array.from({ length: 50 }, (_, i) => chatTurn(i + 1)), 3000, tokenize],
  ['chat 4.5 KB, tokenize', Array.from({ length: 16 }, (_, i) => chatConversation(4608, i)), 150, tokenize],
  ['1 KB', Array.from({ length: 64 }, (_, i) => textOf(1024, i * 7)), 600, detect],
  ['10 KB', Array.from({ length: 8 }, (_, i) => textOf(10 * 1024, i * 13)), 60, detect],
  ['100 KB', Array.from({ length: 4 }, (_, i) => textOf(100 * 1024, i * 31)), 8, detect],
];

for (const e of engines)
  for (const [, texts, , run] of sets) for (let i = 0; i < 50; i++) run(e, texts[i % texts.length]!);

const runs = new Map<string, Array<[number, number]>>();
for (let r = 0; r < rounds; r++) {
  for (const [label, texts, n, run] of sets) {
    for (let k = 0; k < engines.length; k++) {
      const which = r % 2 === 0 ? k : engines.length - 1 - k;
      const engine = engines[which]!;
      const times: number[] = [];
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        run(engine, texts[i % texts.length]!);
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

// Bytes allocated per call: every sampled allocation (one sample per 512 bytes on average) counts, the
// objects that a scavenge or a full collection took back included, so the total is what the calls allocated.
const session = new Session();
session.connect();
interface SampleNode {
  selfSize: number;
  children: SampleNode[];
}
const total = (n: SampleNode): number => n.children.reduce((sum, c) => sum + total(c), n.selfSize);
const allocated = new Map<string, number>();
for (const [label, texts, n, run] of sets) {
  for (let k = 0; k < engines.length; k++) {
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 512,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    for (let i = 0; i < n; i++) run(engines[k]!, texts[i % texts.length]!);
    const { profile } = await session.post('HeapProfiler.stopSampling');
    allocated.set(`${label} ${k}`, total(profile.head as SampleNode) / n);
  }
}
session.disconnect();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`A = ${roots[0]}, B = ${roots[1]}; median of ${rounds} interleaved rounds`);
for (const [label] of sets) {
  const cells = engines.map((_, k) => {
    const r = runs.get(`${label} ${k}`)!;
    const cpu = median(r.map((x) => x[0]));
    const p50 = median(r.map((x) => x[1]));
    return `${k === 0 ? 'A' : 'B'} CPU ${cpu.toFixed(3)} ms/call  p50 ${p50.toFixed(3)} ms`;
  });
  const ratio =
    median(runs.get(`${label} 1`)!.map((x) => x[0])) / median(runs.get(`${label} 0`)!.map((x) => x[0]));
  const bytes = engines.map((_, k) => `${(allocated.get(`${label} ${k}`)! / 1024).toFixed(1)}`);
  console.log(
    `${label.padEnd(22)} ${cells.join('   ')}   CPU B/A ${ratio.toFixed(2)}   allocated A ${bytes[0]} KB  B ${bytes[1]} KB per call`,
  );
}
console.log(
  `load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
