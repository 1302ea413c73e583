/**
 * A/B of the CPU time of one verify call's engine work (checkInCorpus over the bench's 10,000 passages, one
 * document as a file source gives): this checkout against another checkout of the same repository (the
 * baseline), interleaved in one process so that both see the same load. Prints the median and least
 * process CPU time per 2 KB answer of each, the ratio and the load average. The HTTP layer and the store
 * (a few per cent of a call) are left out: bench:verifier measures the whole call.
 *
 *   node --import tsx bench/verifier/ab.ts BASELINE_ROOT
 *
 * BASELINE_ROOT as for fingerprint.ts (`git archive <commit> src | tar -x -C DIR`). AB_ROUNDS sets how many
 * times the answers are run per engine (default 3). Both corpora are built, then every answer runs once on
 * each before anything is timed.
 */
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CPU_CLOCK, load, timed } from '../support/cpu-time.js';
import { allSentences, benchAnswers, benchParagraphs, shuffled } from './data.js';

type Engine = typeof import('../../src/engines/hallucination/index.js');
type Index = typeof import('../../src/modules/verifier/passage-index.js');
type Passages = typeof import('../../src/modules/verifier/passages.js');

const here = fileURLToPath(new URL('../..', import.meta.url));
const baseRoot = process.argv[2];
if (!baseRoot) throw new Error('usage: node --import tsx bench/verifier/ab.ts BASELINE_ROOT');
const ROUNDS = Number(process.env['AB_ROUNDS'] ?? 3);

const sentences = shuffled(allSentences(), 7);
const paragraphs = benchParagraphs(sentences, 10_000);
const answers = benchAnswers(sentences, 40);

async function side(root: string) {
  const url = (p: string) => pathToFileURL(join(resolve(root), p)).href;
  const engine = (await import(url('src/engines/hallucination/index.ts'))) as Engine;
  const { buildPassageIndex } = (await import(url('src/modules/verifier/passage-index.ts'))) as Index;
  const { toPassages } = (await import(url('src/modules/verifier/passages.ts'))) as Passages;
  const records = toPassages(paragraphs.join('\n\n')).map((text, position) => ({
    source_id: 'src',
    document_id: 'doc',
    citation: 'bench-passages.txt',
    position,
    text,
  }));
  const c0 = process.cpuUsage();
  const index = await buildPassageIndex(records, new Date(0));
  const c = process.cpuUsage(c0);
  const buildCpu = (c.user + c.system) / 1000;
  return { index, buildCpu, verify: (a: string) => engine.checkInCorpus(index.corpus, a) };
}

const base = await side(baseRoot);
const mine = await side(here);
console.log(
  `${base.index.meta.length} passages; index build CPU: baseline ${(base.buildCpu / 1000).toFixed(2)} s, this ${(mine.buildCpu / 1000).toFixed(2)} s | ${load()}`,
);
for (const a of answers) {
  base.verify(a);
  mine.verify(a);
}
const a: number[] = [];
const b: number[] = [];
for (let r = 0; r < ROUNDS; r++)
  for (const answer of answers) {
    // Alternate which goes first, so neither always runs right after the other's garbage.
    const first = r % 2 === 0 ? base : mine;
    const second = first === base ? mine : base;
    const t1 = timed(() => first.verify(answer)).cpu;
    const t2 = timed(() => second.verify(answer)).cpu;
    (first === base ? a : b).push(t1);
    (second === base ? a : b).push(t2);
  }
const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
console.log(
  `${answers.length} answers × ${ROUNDS} rounds, ${CPU_CLOCK} ms per 2 KB answer: baseline ${baseRoot} p50 ${median(a).toFixed(1)} ` +
    `(mean ${mean(a).toFixed(1)}, min ${Math.min(...a).toFixed(1)}) | this p50 ${median(b).toFixed(1)} (mean ${mean(b).toFixed(1)}, ` +
    `min ${Math.min(...b).toFixed(1)}) | ×${(median(a) / median(b)).toFixed(2)} | ${load()}`,
);
