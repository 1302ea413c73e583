// npm run bench:verifier — the verification server measured through its HTTP API on loopback:
// POST /api/verify for a 2 KB answer against 10,000 indexed passages (no LLMs), crawl pages/s on a local
// site, index size and memory per 10,000 passages. CPU time and os.loadavg() are printed beside every
// figure: on a shared machine the wall clock measures the load as much as the code.
import { statSync, writeFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { startTestVerifier } from '../../test/support/verifier-harness.js';
import { chartPrinted } from '../../scripts/printed-chart.js';
import { allSentences, benchAnswers, benchParagraphs, shuffled } from './data.js';

const PASSAGES = 10_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const WARMUP = 5;
const CRAWL_PAGES = 120;

const load = () =>
  `load ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`;
const cpuMs = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

const verifier = await startTestVerifier({ env: { PARAPET_VERIFIER_MAX_PAGES: String(CRAWL_PAGES + 10) } });
try {
  const sentences = shuffled(allSentences(), 7);
  const paras = benchParagraphs(sentences, PASSAGES);
  const file = join(verifier.docsDir, 'bench-passages.txt');
  writeFileSync(file, paras.join('\n\n'));

  // ---- indexing 10,000 passages: time, CPU, store size, heap
  gc();
  const heap0 = process.memoryUsage().heapUsed;
  const rss0 = process.memoryUsage().rss;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const created = await verifier.request('POST', '/api/sources', {
    key: verifier.admin,
    body: { type: 'file', url: file, name: 'bench passages' },
  });
  if (created.status !== 202) throw new Error(`source: ${created.status} ${created.text}`);
  const src = await verifier.settled((created.body as { id: string }).id);
  const indexMs = performance.now() - t0;
  const indexCpu = cpuMs(process.cpuUsage(c0));
  gc();
  const heap1 = process.memoryUsage().heapUsed;
  const rss1 = process.memoryUsage().rss;
  const storeBytes = readdirSync(verifier.dataDir)
    .filter((f) => f.endsWith('.db') || f.endsWith('.sqlite') || f.includes('.db-'))
    .reduce((a, f) => a + statSync(join(verifier.dataDir, f)).size, 0);
  const textBytes = paras.reduce((a, p) => a + Buffer.byteLength(p), 0);
  const per10k = 10_000 / src.passages;
  console.log(
    `index: ${src.passages} passages (${src.status}) from ${mb(textBytes)} of text in ${(indexMs / 1000).toFixed(2)} s, CPU ${(indexCpu / 1000).toFixed(2)} s | ${load()}`,
  );
  console.log(
    `index size per 10,000 passages: store ${process.env.TEST_DATABASE_URL ? '(PostgreSQL: not measured)' : mb(storeBytes * per10k)}, text ${mb(textBytes * per10k)}; memory: heap +${mb((heap1 - heap0) * per10k)}, rss +${mb((rss1 - rss0) * per10k)}${(globalThis as { gc?: unknown }).gc ? '' : ' (run with --expose-gc for a steadier heap figure)'} | ${load()}`,
  );

  // ---- verify: a 2 KB answer of claims taken from indexed passages, some changed
  const answers = benchAnswers(sentences, RUNS + WARMUP);
  const times: number[] = [];
  const cpu: number[] = [];
  let claims = 0;
  for (let i = 0; i < answers.length; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    const res = await verifier.request('POST', '/api/verify', {
      key: verifier.user,
      body: { response: answers[i] },
    });
    const ms = performance.now() - t;
    const cms = cpuMs(process.cpuUsage(c));
    if (res.status !== 200) throw new Error(`verify: ${res.status} ${res.text}`);
    if (i < WARMUP) continue;
    times.push(ms);
    cpu.push(cms);
    claims += (res.body as { claims: unknown[] }).claims.length;
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const perClaim = cpu.reduce((a, b) => a + b, 0) / claims;
  console.log(
    `verify 2 KB vs ${src.passages} passages: runs ${RUNS}, ${(claims / RUNS).toFixed(1)} claims/answer  ` +
      `p50 ${pct(times, 50).toFixed(1)} ms  p95 ${pct(times, 95).toFixed(1)} ms  | CPU p50 ${pct(cpu, 50).toFixed(1)} ms  ` +
      `p95 ${pct(cpu, 95).toFixed(1)} ms  ${perClaim.toFixed(2)} ms/claim | target p50 ≤ 50 ms | ${load()}`,
  );

  // ---- crawl: a local site of CRAWL_PAGES linked pages (index links to all, each links onward)
  const site = createServer((req, res) => {
    const m = /^\/p(\d+)$/.exec(req.url ?? '');
    if (req.url === '/robots.txt') return res.writeHead(404).end();
    if (req.url === '/') {
      const links = Array.from({ length: CRAWL_PAGES }, (_, i) => `<li><a href="/p${i}">page ${i}</a></li>`);
      return res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<html><body><ul>${links.join('')}</ul></body></html>`);
    }
    if (!m) return res.writeHead(404).end();
    const n = Number(m[1]);
    const body = [0, 1, 2, 3].map((j) => `<p>${paras[(n * 4 + j) % paras.length]}</p>`).join('');
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<html><head><title>Page ${n}</title></head><body><h1>Page ${n}</h1>${body}<a href="/p${(n + 1) % CRAWL_PAGES}">next</a></body></html>`,
      );
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  const port = (site.address() as { port: number }).port;
  const c1 = process.cpuUsage();
  const t1 = performance.now();
  const web = await verifier.request('POST', '/api/sources', {
    key: verifier.admin,
    body: { type: 'website', url: `http://127.0.0.1:${port}/`, crawlDepth: 1 },
  });
  if (web.status !== 202) throw new Error(`website: ${web.status} ${web.text}`);
  const crawled = await verifier.settled((web.body as { id: string }).id);
  const crawlS = (performance.now() - t1) / 1000;
  const crawlCpu = cpuMs(process.cpuUsage(c1)) / 1000;
  site.close();
  console.log(
    `crawl: ${crawled.documents} pages (${crawled.status}) in ${crawlS.toFixed(2)} s = ${(crawled.documents / crawlS).toFixed(1)} pages/s, ` +
      `CPU ${crawlCpu.toFixed(2)} s (${((crawlCpu * 1000) / crawled.documents).toFixed(1)} ms/page, includes re-indexing ${crawled.passages + src.passages} passages) | ${load()}`,
  );
} finally {
  await verifier.close();
}

chartPrinted('bench-verifier', {
  title: 'On-prem verifier: /api/verify of a 2 KB answer against the indexed passages',
  subtitle: 'npm run bench:verifier; in-process verification server',
  settings: { BENCH_RUNS: RUNS },
  line: /^(?<label>verify 2 KB vs \d+ passages): runs \d+, [\d.]+ claims\/answer\s+p50 (?<p50>[\d.]+) ms\s+p95 (?<p95>[\d.]+) ms\s+\| CPU p50 (?<c50>[\d.]+) ms\s+p95 (?<c95>[\d.]+) ms/,
  measures: [
    ['p50', 'p50'],
    ['p95', 'p95'],
    ['CPU p50', 'c50'],
    ['CPU p95', 'c95'],
  ],
  unit: ' ms',
  reference: { value: 50, label: 'p50 target 50 ms' },
});
