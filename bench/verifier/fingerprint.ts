/**
 * Fingerprint of what POST /api/verify answers, to prove that a speed change left every result as it was.
 * Runs a real verification server (test/support/verifier-harness.ts) of the given checkout and writes one
 * line per claim: case, claim number, verdict, decidedBy, cited source, confidence and the SHA-256 of the
 * evidence text (a file source cites its file name, so the evidence tells which passage decided), then one
 * line per answer with its score and `verified`. Cases:
 *   - eval: the eval:verifier cases (same seeded sample of every shared hallucination file, its evidence as
 *     one file source, each claim sent as an answer),
 *   - bench: the bench:verifier answers (the 5 warm-up ones too) against its 10,000 passages, once with
 *     the source unvalidated and once validated (the trust rule's other branch).
 * bench/verifier/verdicts.ts compares the engine underneath (signals, passage indexes) in-process.
 *
 *   node --import tsx bench/verifier/fingerprint.ts [checkout root] > after.txt
 *
 * The root defaults to this checkout; for the "before" run pass another checkout of the same repository
 * (`git archive <commit> src test | tar -x -C DIR` and a node_modules link). Compare with `cmp` or `diff`.
 * The CPU time of the bench answers is printed on stderr; nothing is fitted here.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { load } from '../support/cpu-time.js';
import { allSentences, benchAnswers, benchParagraphs, DATA_FILES, readRows, shuffled } from './data.js';

type Harness = typeof import('../../test/support/verifier-harness.js');

const here = fileURLToPath(new URL('../..', import.meta.url));
const root = resolve(process.argv[2] ?? here);
const { startTestVerifier } = (await import(
  pathToFileURL(join(root, 'test/support/verifier-harness.ts')).href
)) as Harness;

/** The same sample as eval:verifier (EVAL_PER_FILE there) and the bench's runs plus warm-up. */
const PER_FILE = 200;
const BENCH_ANSWERS = 45;
const PASSAGES = 10_000;

interface Claim {
  verdict: string;
  verified: boolean;
  decidedBy: string;
  source: string | null;
  confidence: number;
  evidence: string | null;
}
interface Result {
  verified: boolean;
  score: number;
  claims: Claim[];
}

const sha = (x: string | null) =>
  x === null ? '-' : createHash('sha256').update(x).digest('hex').slice(0, 16);
const all = createHash('sha256');
const emit = (line: string): void => {
  all.update(`${line}\n`);
  process.stdout.write(`${line}\n`);
};

const verifier = await startTestVerifier();
try {
  async function verify(id: string, response: string): Promise<{ result: Result; cpu: number }> {
    const c0 = process.cpuUsage();
    const res = await verifier.request('POST', '/api/verify', { key: verifier.user, body: { response } });
    const c = process.cpuUsage(c0);
    if (res.status !== 200) throw new Error(`${id}: verify ${res.status} ${res.text}`);
    const result = res.body as Result;
    result.claims.forEach((c, k) => {
      emit(
        `${id}\t${k}\t${c.verdict}\t${c.verified}\t${c.decidedBy}\t${c.source}\t${c.confidence}\t${sha(c.evidence)}`,
      );
    });
    emit(`${id}\tanswer\tscore ${result.score}\tverified ${result.verified}\tclaims ${result.claims.length}`);
    return { result, cpu: (c.user + c.system) / 1000 };
  }

  async function fileSource(name: string, paragraphs: string[]): Promise<string> {
    // An older checkout's harness has no docsDir, and its verifier reads its own data folder.
    const path = join((verifier as { docsDir?: string }).docsDir ?? verifier.dataDir, name);
    writeFileSync(path, paragraphs.join('\n\n'));
    const created = await verifier.request('POST', '/api/sources', {
      key: verifier.admin,
      body: { type: 'file', url: path, name },
    });
    if (created.status !== 202) throw new Error(`${name}: ${created.status} ${created.text}`);
    const id = (created.body as { id: string }).id;
    const src = await verifier.settled(id);
    emit(`source ${name}\t${src.status}\tdocuments ${src.documents}\tpassages ${src.passages}`);
    return id;
  }

  for (const file of DATA_FILES) {
    const rows = shuffled(readRows(file), 23).slice(0, PER_FILE);
    const evidence = [...new Set(rows.flatMap((r) => r.sources.map((s) => s.trim())).filter(Boolean))];
    const id = await fileSource(file.replace(/\.jsonl$/, '.txt'), evidence);
    for (const [i, r] of rows.entries()) await verify(`eval ${file}:${i}`, r.claim);
    await verifier.request('DELETE', `/api/sources/${id}`, { key: verifier.admin });
  }

  const sentences = shuffled(allSentences(), 7);
  const id = await fileSource('bench-passages.txt', benchParagraphs(sentences, PASSAGES));
  const answers = benchAnswers(sentences, BENCH_ANSWERS);
  for (const validated of [false, true]) {
    if (validated) {
      const res = await verifier.request('POST', `/api/sources/${id}/validate`, {
        key: verifier.admin,
        body: { validated: true },
      });
      if (res.status !== 200) throw new Error(`validate: ${res.status} ${res.text}`);
    }
    const cpu: number[] = [];
    for (const [i, a] of answers.entries())
      cpu.push((await verify(`bench ${validated ? 'validated' : 'unvalidated'}:${i}`, a)).cpu);
    const warm = cpu.slice(5).sort((a, b) => a - b);
    console.error(
      `bench answers (${validated ? 'validated' : 'unvalidated'}): CPU p50 ${warm[Math.floor(warm.length / 2)]!.toFixed(1)} ms per 2 KB answer over HTTP, max ${warm.at(-1)!.toFixed(1)} ms | ${load()}`,
    );
  }
} finally {
  await verifier.close();
}
console.error(`fingerprint of ${root}: sha256 ${all.digest('hex').slice(0, 24)}`);
