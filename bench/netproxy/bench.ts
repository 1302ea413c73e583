// Added latency and throughput of the network proxy over a direct call to the same upstream (OpenAI chat
// format, bench/gateway/upstream.ts, its own process). The real server (bin/parapet serve, which starts
// the network proxy beside the API) is a child process; this script is the load generator.
// Latency: sequential requests over keep-alive, direct and proxied interleaved in rounds; p50 is the
// median of round medians, p99 over all samples; "added" is proxied minus direct. First token: time to
// the first byte of a streamed answer, same method. Throughput: open loop at rising rates
// (bench/support/paced.ts), the highest rate carried without errors at p99 ≤ P99_BOUND_MS.
// Run: npm run bench:netproxy   (ROUNDS, PER_ROUND, RATES, SECONDS, P99_BOUND_MS change the sample.)
import { type ChildProcess, spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { availableParallelism, loadavg } from 'node:os';
import { gcFigures } from '../support/gc-trace.js';
import { pacedLoad, percentileOf } from '../support/paced.js';
import { startBenchServer } from '../support/server.js';
import { chartPrinted } from '../../scripts/printed-chart.js';

const ROUNDS = Number(process.env['ROUNDS'] ?? 8);
const PER_ROUND = Number(process.env['PER_ROUND'] ?? 60);
const RATES = (process.env['RATES'] ?? '250,500,750,1000').split(',').map(Number);
const SECONDS = Number(process.env['SECONDS'] ?? 4);
const P99_BOUND_MS = Number(process.env['P99_BOUND_MS'] ?? 25);
// Garbage per request: a steady paced load at GC_RATE for GC_SECONDS, read from the server's --trace-gc.
const GC_RATE = Number(process.env['GC_RATE'] ?? 200);
const GC_SECONDS = Number(process.env['GC_SECONDS'] ?? 6);
const load = () =>
  `load average ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')} on ${availableParallelism()} cores`;

async function startUpstream(): Promise<{ url: string; child: ChildProcess }> {
  const script = fileURLToPath(new URL('../gateway/upstream.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (b) => (out += b.toString()));
  const deadline = Date.now() + 30_000;
  while (!/listening on (http:\/\/\S+)/.test(out)) {
    if (Date.now() > deadline) throw new Error('upstream did not start');
    await new Promise((r) => setTimeout(r, 20));
  }
  return { url: /listening on (http:\/\/\S+)/.exec(out)![1]!, child };
}

// Synthetic text (invented people and numbers), about 2 KB.
const FILLER = 'We reviewed the quarterly plan and the schedule for the migration of the reporting tools. ';
function body(pii: boolean, stream = false): string {
  const turn = pii
    ? 'Please send the contract to Anna Keller at anna.keller@example.com or call +41 44 668 18 00.'
    : 'Please send the contract to the finance team and call the office.';
  return JSON.stringify({
    model: 'gpt-4o-mini',
    stream,
    messages: [
      { role: 'system', content: 'You are a careful assistant.' },
      { role: 'user', content: FILLER.repeat(20) },
      { role: 'user', content: turn },
    ],
  });
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** Milliseconds to the first byte and to the end of the answer. */
function timed(
  url: string,
  headers: Record<string, string>,
  payload: string,
): Promise<{ first: number; total: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const u = new URL(url);
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        let first = 0;
        res.on('data', () => {
          if (!first) first = performance.now() - started;
        });
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
          else resolve({ first, total: performance.now() - started });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const median = (xs: number[]) =>
  percentileOf(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

async function compare(
  direct: string,
  proxied: string,
  headers: Record<string, string>,
  payload: string,
  pick: 'first' | 'total',
): Promise<{ p50: number; p99: number }> {
  const d: number[] = [];
  const p: number[] = [];
  const dMed: number[] = [];
  const pMed: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const rd: number[] = [];
    const rp: number[] = [];
    for (let i = 0; i < PER_ROUND; i++) {
      rd.push((await timed(direct, { authorization: 'Bearer sk-bench' }, payload))[pick]);
      rp.push((await timed(proxied, headers, payload))[pick]);
    }
    d.push(...rd);
    p.push(...rp);
    dMed.push(median(rd));
    pMed.push(median(rp));
  }
  const sd = d.sort((a, b) => a - b);
  const sp = p.sort((a, b) => a - b);
  return { p50: median(pMed) - median(dMed), p99: percentileOf(sp, 0.99) - percentileOf(sd, 0.99) };
}

const upstream = await startUpstream();
// Worker threads refuse --trace-gc in their execArgv; requests this small are analysed in-process anyway.
const server = await startBenchServer(
  { PARAPET_PROVIDER_OPENAI_BASE_URL: `${upstream.url}/v1`, PARAPET_COMPUTE_THREADS: '0' },
  ['--trace-gc'],
);
try {
  if (!server.proxyUrl) throw new Error('the server did not start the network proxy');
  const direct = `${upstream.url}/v1/chat/completions`;
  const proxied = `${server.proxyUrl}/proxy/openai/v1/chat/completions`;
  const headers = { authorization: 'Bearer sk-bench', 'x-service-key': server.al };
  // Warm-up: JIT, connections, caches.
  for (let i = 0; i < 500; i++) await timed(proxied, headers, body(i % 2 === 0));
  const f = (n: number) => n.toFixed(2).padStart(6);
  for (const pii of [false, true]) {
    const from = server.output().length;
    const r = await pacedLoad({
      url: proxied,
      headers: { ...headers, 'content-type': 'application/json' },
      body: () => body(pii),
      rate: GC_RATE,
      seconds: GC_SECONDS,
    });
    const gc = gcFigures(server.output().slice(from), r.carried);
    console.log(
      gc
        ? `garbage per request, ${pii ? 'with' : 'without'} personal data: ${(gc.bytesPerRequest / 1024).toFixed(1)} KB (${gc.scavenges} scavenges, ${gc.markCompacts} full collections in ${r.carried * GC_SECONDS} requests; heap ${gc.heapAfterMb} MB) [${load()}]`
        : `garbage per request, ${pii ? 'with' : 'without'} personal data: too few collections to measure`,
    );
  }
  for (const pii of [false, true]) {
    const whole = await compare(direct, proxied, headers, body(pii), 'total');
    const first = await compare(direct, proxied, headers, body(pii, true), 'first');
    console.log(
      `added latency, ${pii ? 'with' : 'without'} personal data: p50 ${f(whole.p50)} ms, p99 ${f(whole.p99)} ms; stream first byte p50 ${f(first.p50)} ms, p99 ${f(first.p99)} ms [${load()}]`,
    );
  }
  for (const pii of [false, true]) {
    let best = 0;
    for (const rate of RATES) {
      const r = await pacedLoad({
        url: proxied,
        headers: { ...headers, 'content-type': 'application/json' },
        body: () => body(pii),
        rate,
        seconds: SECONDS,
      });
      const p99 = percentileOf(
        [...r.latencies].sort((a, b) => a - b),
        0.99,
      );
      console.log(
        `  ${pii ? 'with' : 'without'} personal data, offered ${rate}/s: carried ${r.carried}/s, failed ${r.failed}, p99 ${f(p99)} ms [${load()}]`,
      );
      if (r.failed === 0 && p99 <= P99_BOUND_MS) best = r.carried;
      else break;
    }
    console.log(
      `throughput at p99 ≤ ${P99_BOUND_MS} ms, ${pii ? 'with' : 'without'} personal data, one process: ${best}/s [${load()}]`,
    );
  }
} finally {
  await server.stop();
  upstream.child.kill('SIGTERM');
  agent.destroy();
}

chartPrinted('bench-netproxy-added', {
  title: 'Network proxy: latency added over a direct call to the same upstream',
  subtitle: 'npm run bench:netproxy; sequential requests on loopback',
  settings: { ROUNDS, PER_ROUND },
  line: /^added latency, (?<label>with(?:out)? personal data): p50\s+(?<p50>-?[\d.]+) ms, p99\s+(?<p99>-?[\d.]+) ms; stream first byte p50\s+(?<f50>-?[\d.]+) ms, p99\s+(?<f99>-?[\d.]+) ms/,
  measures: [
    ['whole answer p50', 'p50'],
    ['whole answer p99', 'p99'],
    ['stream first byte p50', 'f50'],
    ['stream first byte p99', 'f99'],
  ],
  unit: ' ms',
  decimals: 2,
});
chartPrinted('bench-netproxy-throughput', {
  title: `Network proxy: requests per second at p99 ≤ ${P99_BOUND_MS} ms, one process`,
  subtitle: 'npm run bench:netproxy; open loop at rising offered rates',
  settings: { RATES: RATES.join(','), SECONDS },
  line: /^throughput at p99 ≤ [\d.]+ ms, (?<label>with(?:out)? personal data), one process: (?<rps>\d+)\/s/,
  measures: [['requests per second', 'rps']],
  unit: '/s',
  decimals: 0,
});
