// npm run eval:verifier — claim verdicts of the verification server on cases built from
// shared/data/hallucination: per data file, the evidence sentences of a fixed sample of its cases become one
// file source (so every claim is looked up among the other cases' evidence too), and each case's claim is
// sent as an answer to POST /api/verify (no LLMs). Nothing is fitted here: the verifier and the engine run
// as shipped, and the sample is fixed by a seed, not chosen by results.
// Printed per file: balanced accuracy over the labels present (supported / contradicted / not found) and the
// right-source rate (of the claims decided by a source, how many cite one of the case's own evidence
// sentences).
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { startTestVerifier } from '../../test/support/verifier-harness.js';
import { DATA_FILES, readRows, shuffled } from '../../bench/verifier/data.js';
import { chartPrinted } from '../../scripts/printed-chart.js';

// The engine's shipped verdict model names the files it was trained on; those files are not held out here,
// and the table says so beside their figures (only the files it excluded are clean held-out scores).
const manifest = JSON.parse(
  readFileSync(new URL('../../src/engines/hallucination/model-manifest.json', import.meta.url), 'utf8'),
) as { sources: Array<{ source: string }> };
const trainedOn = new Set(manifest.sources.map((s) => `${s.source}.jsonl`));

const PER_FILE = Number(process.env.EVAL_PER_FILE ?? 200);
/**
 * EVAL_SPLIT=dev: where verifier design decisions are made. Only the files the engine model was trained on,
 * and the next PER_FILE rows of the same seeded order, so no scored case (and no held-out file) is looked at.
 */
const DEV = process.env.EVAL_SPLIT === 'dev';
type Verdict = 'supported' | 'contradicted' | 'not_found';
const LABELS: Verdict[] = ['supported', 'contradicted', 'not_found'];
const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

interface Claim {
  verdict: Verdict;
  decidedBy: string;
  evidence: string | null;
}

/** The answer's verdict: contradicted if any claim is, supported if all are, else not found. */
function answerVerdict(claims: Claim[]): Verdict {
  if (claims.some((c) => c.verdict === 'contradicted')) return 'contradicted';
  if (claims.length > 0 && claims.every((c) => c.verdict === 'supported')) return 'supported';
  return 'not_found';
}

function balancedAccuracy(pairs: Array<[Verdict, Verdict]>): number {
  const recalls = LABELS.map((l) => {
    const gold = pairs.filter(([g]) => g === l);
    return gold.length ? gold.filter(([, p]) => p === l).length / gold.length : null;
  }).filter((r): r is number => r !== null);
  return recalls.reduce((a, b) => a + b, 0) / recalls.length;
}

const verifier = await startTestVerifier();
const totals: { pairs: Array<[Verdict, Verdict]>; cited: number; right: number } = {
  pairs: [],
  cited: 0,
  right: 0,
};
const perFile: number[] = [];
const files = DATA_FILES.filter((f) => !DEV || trainedOn.has(f));
try {
  console.log(
    `${DEV ? 'DEV SPLIT (training-source files, rows after the scored sample; not a score) — ' : ''}cases per file: ${PER_FILE} (seeded sample) | load ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  for (const fileName of files) {
    const rows = shuffled(readRows(fileName), 23).slice(DEV ? PER_FILE : 0, DEV ? 2 * PER_FILE : PER_FILE);
    const evidence = [...new Set(rows.flatMap((r) => r.sources.map((s) => s.trim())).filter(Boolean))];
    const path = join(verifier.docsDir, fileName.replace(/\.jsonl$/, '.txt'));
    // One evidence sentence per paragraph; the verifier joins short ones into passages as it does for any file.
    writeFileSync(path, evidence.join('\n\n'));
    const created = await verifier.request('POST', '/api/sources', {
      key: verifier.admin,
      body: { type: 'file', url: path, name: fileName },
    });
    if (created.status !== 202) throw new Error(`${fileName}: ${created.status} ${created.text}`);
    const id = (created.body as { id: string }).id;
    const src = await verifier.settled(id);
    const pairs: Array<[Verdict, Verdict]> = [];
    let cited = 0;
    let right = 0;
    const c0 = process.cpuUsage();
    for (const r of rows) {
      const res = await verifier.request('POST', '/api/verify', {
        key: verifier.user,
        body: { response: r.claim },
      });
      if (res.status !== 200) throw new Error(`verify: ${res.status} ${res.text}`);
      const claims = (res.body as { claims: Claim[] }).claims;
      const gold: Verdict = r.label === 'unsupported' ? 'not_found' : r.label;
      pairs.push([gold, answerVerdict(claims)]);
      if (gold === 'not_found') continue;
      const decided = claims.filter((c) => c.decidedBy === 'source' || c.decidedBy === 'validated_source');
      if (decided.length === 0) continue;
      cited++;
      const own = r.sources.map(norm);
      if (
        decided.some(
          (c) =>
            c.evidence && own.some((s) => s.includes(norm(c.evidence!)) || norm(c.evidence!).includes(s)),
        )
      )
        right++;
    }
    const cpu = process.cpuUsage(c0);
    await verifier.request('DELETE', `/api/sources/${id}`, { key: verifier.admin });
    const ba = balancedAccuracy(pairs);
    perFile.push(ba);
    totals.pairs.push(...pairs);
    totals.cited += cited;
    totals.right += right;
    const dist = LABELS.map((l) => `${l} ${pairs.filter(([g]) => g === l).length}`).join(', ');
    console.log(
      `${fileName.padEnd(38)} n ${String(pairs.length).padStart(4)} (${dist}; ${src.passages} passages)  balanced accuracy ${ba.toFixed(3)}  ` +
        `right source ${cited ? (right / cited).toFixed(3) : '—'} (${right}/${cited})  | ${trainedOn.has(fileName) ? 'engine model TRAINED on this file (not held out)' : 'held out from the engine model'} | CPU ${((cpu.user + cpu.system) / 1000 / pairs.length).toFixed(1)} ms/claim`,
    );
  }
  const held = files.map((f, i) => [f, perFile[i]!] as const).filter(([f]) => !trainedOn.has(f));
  if (!DEV)
    console.log(
      `held-out files only (${held.map(([f]) => f).join(', ')}): mean balanced accuracy ${(held.reduce((a, [, b]) => a + b, 0) / Math.max(1, held.length)).toFixed(3)}`,
    );
  console.log(
    `all files pooled: balanced accuracy ${balancedAccuracy(totals.pairs).toFixed(3)}  mean of files ${(perFile.reduce((a, b) => a + b, 0) / perFile.length).toFixed(3)}  ` +
      `right source ${(totals.right / Math.max(1, totals.cited)).toFixed(3)} (${totals.right}/${totals.cited})`,
  );
  console.log('language: all cases are English (the shared hallucination files are English only).');
} finally {
  await verifier.close();
}

chartPrinted('eval-verifier', {
  title: 'On-prem verifier: balanced accuracy per file (supported / contradicted / not found)',
  subtitle: 'npm run eval:verifier; English only; "trained" marks a file the engine model was trained on',
  settings: { EVAL_PER_FILE: PER_FILE },
  line: /^(?<label>\S+\.jsonl)\s+n\s+(?<n>\d+) .*balanced accuracy (?<ba>[\d.]+)\s+right source (?<rs>[\d.]+|—).*\| (?<how>engine model TRAINED|held out)/,
  label: (g) =>
    `${g['label']!.replace(/\.jsonl$/, '')} (${g['n']}${g['how'] === 'held out' ? '' : ', trained'})`,
  measures: [
    ['balanced accuracy', 'ba'],
    ['right source cited', 'rs'],
  ],
  max: 1,
  decimals: 3,
});
