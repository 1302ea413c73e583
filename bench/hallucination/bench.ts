// npm run bench:hallucination — latency of checkClaim for one claim against 5 sources of about 2 KB,
// and, for information, one claim against the largest input LIMITS allow.
import { loadavg } from 'node:os';
import { ALL_FACTS } from '../../eval/hallucination/cases.js';
import { checkClaim, LIMITS } from '../../src/engines/hallucination/index.js';
import { chartPrinted } from '../../scripts/printed-chart.js';

const SOURCE_BYTES = 2048;

/** Joins hand-written documents of one language until the text reaches `size` characters. */
function compose(lang: string, offset: number, size: number): string {
  const docs = ALL_FACTS.filter((f) => f.lang === lang).flatMap((f) => [f.doc, f.decoy]);
  let text = '';
  for (let i = 0; text.length < size; i++) text += `${docs[(offset + i) % docs.length]} `;
  const cut = text.lastIndexOf('. ', size);
  return text.slice(0, cut > 0 ? cut + 1 : size);
}

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

function measure(label: string, runs: number, warmup: number, make: (i: number) => [string, string[]]): void {
  for (let i = 0; i < warmup; i++) checkClaim(...make(i));
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const [claim, sources] = make(i);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    checkClaim(claim, sources);
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  cpu.sort((a, b) => a - b);
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  console.log(
    `${label}: runs ${runs}  p50 ${percentile(times, 50).toFixed(2)} ms  p95 ${percentile(times, 95).toFixed(2)} ms  ` +
      `p99 ${percentile(times, 99).toFixed(2)} ms  mean ${mean.toFixed(2)} ms  max ${times[times.length - 1]!.toFixed(2)} ms  ` +
      `| CPU p50 ${percentile(cpu, 50).toFixed(2)} ms  p95 ${percentile(cpu, 95).toFixed(2)} ms  | load ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
  );
}

const langs = ['en', 'fr', 'de'] as const;
const cases = langs.map((lang) => {
  const facts = ALL_FACTS.filter((f) => f.lang === lang);
  const sources = [0, 7, 14, 21, 28].map((o) => compose(lang, o, SOURCE_BYTES));
  const claims = facts.flatMap((f) => [f.sup, f.sup.replace(f.num[0], f.num[1]), f.neg, `${f.sup} ${f.add}`]);
  return { lang, sources, claims };
});
const sizes = cases.map((c) => c.sources.map((s) => new TextEncoder().encode(s).length));
console.log(`sources per check: 5, bytes: ${sizes.map((s) => s.join('/')).join('  ')}`);

for (const c of cases) {
  measure(`${c.lang} 1 claim × 5 × 2 KB`, 600, 60, (i) => [c.claims[i % c.claims.length]!, c.sources]);
}
const all = cases.flatMap((c) => c.claims.map((claim) => ({ claim, sources: c.sources })));
measure('all languages 1 claim × 5 × 2 KB', 900, 0, (i) => [
  all[i % all.length]!.claim,
  all[i % all.length]!.sources,
]);

// The worst case the API accepts: LIMITS.maxSources sources of LIMITS.maxSourceChars characters.
const big = Array.from({ length: LIMITS.maxSources }, (_, i) => compose('en', i, LIMITS.maxSourceChars));
const longClaim = cases[0]!.claims.slice(0, 8).join(' ');
measure(
  `en ${longClaim.length}-char claim × ${LIMITS.maxSources} × ${LIMITS.maxSourceChars / 1000}k chars`,
  5,
  1,
  () => [longClaim, big],
);

// The chart of the 5 × 2 KB figures above (the largest input is printed for information only).
chartPrinted('bench-hallucination', {
  title: 'Claim checking: one claim against 5 sources of 2 KB, in process',
  subtitle: 'npm run bench:hallucination; hand-written en/fr/de documents and claims',
  line: /^(?<label>[^:]+× 5 × 2 KB): runs \d+\s+p50 (?<p50>[\d.]+) ms\s+p95 (?<p95>[\d.]+) ms\s+p99 (?<p99>[\d.]+) ms.*CPU p50 (?<cpu>[\d.]+) ms/,
  measures: [
    ['p50', 'p50'],
    ['p95', 'p95'],
    ['p99', 'p99'],
    ['CPU p50', 'cpu'],
  ],
  unit: ' ms',
  decimals: 2,
  reference: { value: 15, label: 'p50 target 15 ms' },
});
