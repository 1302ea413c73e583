// Verdict fingerprint of the claim checker, to prove that a speed change left every verdict as it was:
//   node --import tsx bench/verifier/verdicts.ts --out before.jsonl            (on the old code)
//   node --import tsx bench/verifier/verdicts.ts --out after.jsonl --against before.jsonl
// It writes, per checked text, every sub-claim's verdict, score, signals (the learned model's inputs) and
// evidence (passage index, matched text, confidence), for
//   - eval: the eval:verifier cases (same seeded sample, evidence cut into passages as the file source does),
//   - bench: the bench:verifier answers against its 10,000 passages (several documents),
//   - pairs: checkClaim on each eval row's own sources (the engine's one-call path).
// With --against it prints the first differing lines and exits 1 when anything differs. It runs in-process
// (no HTTP, no store), so it also prints CPU per 2 KB answer without the server around it. Nothing is fitted.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { checkClaim, checkInCorpus } from '../../src/engines/hallucination/index.js';
import { buildPassageIndex } from '../../src/modules/verifier/passage-index.js';
import { toPassages } from '../../src/modules/verifier/passages.js';
import type { PassageRecord } from '../../src/modules/verifier/verifier.repo.js';
import { allSentences, benchAnswers, benchParagraphs, DATA_FILES, readRows, shuffled } from './data.js';

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    against: { type: 'string' },
    only: { type: 'string' },
    'per-file': { type: 'string', default: '200' },
    answers: { type: 'string', default: '45' },
    passages: { type: 'string', default: '10000' },
  },
});
if (!values.out) {
  console.error('usage: verdicts.ts --out FILE [--against FILE] [--only eval|bench|pairs]');
  process.exit(2);
}
const PER_FILE = Number(values['per-file']);
const wanted = (set: string) => !values.only || values.only.split(',').includes(set);
const load = () =>
  `load ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`;
const cpuMs = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;

/** Passage records as the store gives them back: documents in order, passages in order. */
function records(documents: string[][]): PassageRecord[] {
  const out: PassageRecord[] = [];
  documents.forEach((passages, d) => {
    passages.forEach((text, i) => {
      out.push({ source_id: 'src', document_id: `doc${d}`, citation: `doc${d}`, position: i, text });
    });
  });
  return out;
}

const lines: string[] = [];
const checkOptions = { signals: true } as const;

if (wanted('eval')) {
  for (const file of DATA_FILES) {
    const rows = shuffled(readRows(file), 23).slice(0, PER_FILE);
    const evidence = [...new Set(rows.flatMap((r) => r.sources.map((s) => s.trim())).filter(Boolean))];
    const index = await buildPassageIndex(records([toPassages(evidence.join('\n\n'))]), new Date(0));
    rows.forEach((r, i) => {
      const { outcomes } = checkInCorpus(index.corpus, r.claim, checkOptions);
      lines.push(JSON.stringify({ set: 'eval', file, i, outcomes }));
    });
  }
}

if (wanted('bench')) {
  const sentences = shuffled(allSentences(), 7);
  const paras = benchParagraphs(sentences, Number(values.passages));
  // Ten documents of consecutive paragraphs, so that the per-document "whole source" is exercised too.
  const per = Math.ceil(paras.length / 10);
  const docs = Array.from({ length: 10 }, (_, d) => paras.slice(d * per, (d + 1) * per));
  // Built as the server does when a source is added: first nine documents, then all ten on top of that
  // index (whose analysed passages a rebuild may reuse): the verdicts must be those of a fresh build.
  const c0 = process.cpuUsage();
  const first = await buildPassageIndex(records(docs.slice(0, 9)), new Date(0));
  const firstCpu = cpuMs(process.cpuUsage(c0));
  const c1 = process.cpuUsage();
  const index = await buildPassageIndex(records(docs), new Date(0), first);
  console.log(
    `bench corpus: ${index.meta.length} passages, ${index.corpus.units.length} units; CPU ${(firstCpu / 1000).toFixed(2)} s for the first ${first.meta.length}, ` +
      `${(cpuMs(process.cpuUsage(c1)) / 1000).toFixed(2)} s for the rebuild with the tenth document | ${load()}`,
  );
  const cpu: number[] = [];
  benchAnswers(sentences, Number(values.answers)).forEach((a, i) => {
    const c = process.cpuUsage();
    const { outcomes } = checkInCorpus(index.corpus, a, checkOptions);
    cpu.push(cpuMs(process.cpuUsage(c)));
    lines.push(JSON.stringify({ set: 'bench', i, outcomes }));
  });
  const warm = cpu.slice(5).sort((a, b) => a - b);
  console.log(
    `bench answers: ${warm.length} (after 5 warm-up), in-process CPU p50 ${warm[Math.floor(warm.length / 2)]!.toFixed(1)} ms, ` +
      `max ${warm.at(-1)!.toFixed(1)} ms | ${load()}`,
  );
}

if (wanted('pairs')) {
  for (const file of DATA_FILES) {
    const rows = shuffled(readRows(file), 23).slice(0, PER_FILE);
    rows.forEach((r, i) => {
      const res = checkClaim(r.claim, r.sources, checkOptions);
      lines.push(JSON.stringify({ set: 'pairs', file, i, res }));
    });
  }
}

const text = `${lines.join('\n')}\n`;
writeFileSync(values.out, text);
console.log(
  `${lines.length} texts, sha256 ${createHash('sha256').update(text).digest('hex').slice(0, 16)} → ${values.out}`,
);

if (values.against) {
  const before = readFileSync(values.against, 'utf8').split('\n');
  const after = text.split('\n');
  let diffs = 0;
  for (let i = 0; i < Math.max(before.length, after.length); i++) {
    if (before[i] === after[i]) continue;
    if (++diffs <= 5) console.log(`line ${i + 1} differs:\n  before ${before[i]}\n  after  ${after[i]}`);
  }
  console.log(diffs === 0 ? 'identical to the reference' : `${diffs} lines differ from the reference`);
  process.exit(diffs === 0 ? 0 : 1);
}
