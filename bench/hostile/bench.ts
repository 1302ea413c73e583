/**
 * npm run bench:hostile — the worst hostile input per endpoint (issue #15) and its cost at 10 KB, 100 KB and
 * 1 MB through a real server (bin/parapet serve, worker pool on), for every endpoint the issue covers:
 * analyze, detect, sanitize, DLP, hallucination, the protected chat, the provider proxy and the network
 * proxy (against a fake upstream on loopback).
 *
 * Each endpoint's engines are first run in-process on every generator of src/engines/hostile-inputs.ts at
 * SCREEN characters; the one that costs the most CPU is then sent over HTTP. Sizes above an endpoint's text
 * limit are cut to the limit (marked "≤"). Wall time on a shared machine measures the load as much as the
 * service, so every cell also gives the server's CPU time for the request (all its threads, from
 * /proc/<pid>/stat, 10 ms ticks) and every row the load average. Bounded: the server's analysis budget
 * (PARAPET_COMPUTE_BUDGET_MS, 60 s here) ends any request that would run longer, with 422.
 *
 * Also prints the in-process CPU time of the worst hostile 100 KB detection input (target ≤ 20 ms).
 */
import { readFileSync } from 'node:fs';
import { analyze, analyzeAndSanitize } from '../../src/engines/detection/index.js';
import { detectEntities } from '../../src/engines/dlp/index.js';
import { LIMITS, checkClaim } from '../../src/engines/hallucination/index.js';
import { HOSTILE_INPUTS, type HostileInput, hostileCheck } from '../../src/engines/hostile-inputs.js';
import { MAX_TEXT_CHARS as DETECTION_MAX } from '../../src/modules/detection/detection.schemas.js';
import { MAX_TEXT_CHARS as DLP_MAX } from '../../src/modules/dlp/dlp.schemas.js';
import { MAX_MESSAGE_CHARS as CHAT_MAX } from '../../src/modules/gateway/gateway.schemas.js';
import { startFakeProviderServer } from '../../test/fakes/provider-server.js';
import { CPU_CLOCK, cpuMs, load, timed } from '../support/cpu-time.js';
import { chartPrinted } from '../../scripts/printed-chart.js';
import { startBenchServer } from '../support/server.js';

const SCREEN = Number(process.env['HOSTILE_SCREEN_CHARS'] ?? 30_000);
// A claim check costs far more per character than the other engines (sentence analysis, retrieval and
// alignment per sub-claim): its generators are screened on smaller checks so that the bench ends in
// minutes. The HTTP sizes are the same for every endpoint.
const CLAIM_SCREEN = Number(process.env['HOSTILE_CLAIM_SCREEN_CHARS'] ?? 10_000);
const SIZES = [10_000, 100_000, 1_000_000];
/** Only the endpoints whose name contains one of these (comma-separated), e.g. HOSTILE_ENDPOINTS=hallucination. */
const ONLY = (process.env['HOSTILE_ENDPOINTS'] ?? '').split(',').filter(Boolean);
// Proxied requests are limited by the body limit only; this bench raises it so that 1 MB of text fits.
const BODY_LIMIT = 4 * 1024 * 1024;
const PROXY_MAX = 1_000_000;

type Make = HostileInput['make'];

/** A check of n characters; a claim or source of blanks only is not a valid request, so one letter leads. */
function check(make: Make, n: number): { claim: string; sources: string[] } {
  const blankless = (s: string) => (s.trim() === '' ? `x${s.slice(1)}` : s);
  const { claim, sources } = hostileCheck(make, n, LIMITS);
  return { claim: blankless(claim), sources: sources.map(blankless) };
}

interface Urls {
  api: string;
  proxy: string;
}
interface Endpoint {
  name: string;
  /** Endpoints whose engines are the same share one screening. */
  engines: string;
  max: number;
  /** Characters of the in-process screening of every generator. */
  screen: number;
  engine(make: Make, n: number): () => unknown;
  send(urls: Urls, keys: { al: string; sw: string }, make: Make, n: number): Promise<number>;
}

async function post(url: string, headers: Record<string, string>, body: unknown): Promise<number> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

const detection = (path: string, sanitize = false): Endpoint => ({
  name: path,
  engines: sanitize ? 'sanitize' : 'analyze',
  max: DETECTION_MAX,
  screen: SCREEN,
  engine: (make, n) => {
    const text = make(n);
    return sanitize ? () => analyzeAndSanitize(text) : () => analyze(text);
  },
  send: (u, k, make, n) => post(`${u.api}${path}`, { authorization: `Bearer ${k.al}` }, { text: make(n) }),
});
// The chat and both proxies run the injection check and the DLP pass on the user's text.
const protectedEngine = (make: Make, n: number) => {
  const text = make(n);
  return () => {
    analyze(text);
    detectEntities(text);
  };
};
const chatBody = (make: Make, n: number) => ({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: make(n) }],
});

const ENDPOINTS: Endpoint[] = [
  detection('/api/v1/analyze'),
  detection('/api/v1/detect'),
  detection('/api/v1/sanitize', true),
  {
    name: '/api/v1/dlp/analyze',
    engines: 'dlp',
    max: DLP_MAX,
    screen: SCREEN,
    engine: (make, n) => {
      const text = make(n);
      return () => detectEntities(text);
    },
    send: (u, k, make, n) =>
      post(`${u.api}/api/v1/dlp/analyze`, { authorization: `Bearer ${k.al}` }, { text: make(n) }),
  },
  {
    name: '/api/v1/hallucination',
    engines: 'claim',
    max: LIMITS.maxClaimChars + LIMITS.maxSources * LIMITS.maxSourceChars,
    screen: CLAIM_SCREEN,
    engine: (make, n) => {
      const { claim, sources } = check(make, n);
      return () => checkClaim(claim, sources);
    },
    send: (u, k, make, n) =>
      post(`${u.api}/api/v1/hallucination`, { authorization: `Bearer ${k.al}` }, check(make, n)),
  },
  {
    name: '/api/v1/gateway/chat',
    engines: 'protected',
    max: CHAT_MAX,
    screen: SCREEN,
    engine: protectedEngine,
    send: (u, k, make, n) =>
      post(
        `${u.api}/api/v1/gateway/chat`,
        { authorization: `Bearer ${k.sw}` },
        { message: make(n), routing: { preferredModel: 'parapet/parapet-offline-echo' } },
      ),
  },
  {
    name: '/api/v1/proxy/openai',
    engines: 'protected',
    max: PROXY_MAX,
    screen: SCREEN,
    engine: protectedEngine,
    send: (u, k, make, n) =>
      post(
        `${u.api}/api/v1/proxy/openai/v1/chat/completions`,
        { 'x-service-key': k.al, authorization: 'Bearer sk-bench-caller' },
        chatBody(make, n),
      ),
  },
  {
    name: '/proxy/openai (network)',
    engines: 'protected',
    max: PROXY_MAX,
    screen: SCREEN,
    engine: protectedEngine,
    send: (u, k, make, n) =>
      post(
        `${u.proxy}/proxy/openai/v1/chat/completions`,
        { 'x-service-key': k.al, authorization: 'Bearer sk-bench-caller' },
        chatBody(make, n),
      ),
  },
];

interface Screening {
  input: HostileInput;
  /** CPU time of the worst generator, and of the whole screening. */
  cpu: number;
  total: number;
}

/** The generator that costs an endpoint's engines the most CPU at `size` characters. */
const screened = new Map<string, Screening>();
function worstOf(endpoint: Endpoint, size: number): Screening {
  const key = `${endpoint.engines}:${size}`;
  const known = screened.get(key);
  if (known) return known;
  let worst: Screening = { input: HOSTILE_INPUTS[0]!, cpu: -1, total: 0 };
  let total = 0;
  for (const input of HOSTILE_INPUTS) {
    const { cpu } = timed(endpoint.engine(input.make, Math.min(size, endpoint.max)));
    total += cpu;
    if (cpu > worst.cpu) worst = { input, cpu, total: 0 };
  }
  worst.total = total;
  screened.set(key, worst);
  return worst;
}

/** CPU milliseconds used so far by a process (every thread), from /proc/<pid>/stat. */
function processCpuMs(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name; clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

analyze('warm up');
detectEntities('warm up a@b.c');
checkClaim('warm up 1', ['warm up 1']);

const fake = await startFakeProviderServer();
const server = await startBenchServer({
  PARAPET_COMPUTE_BUDGET_MS: process.env['PARAPET_COMPUTE_BUDGET_MS'] ?? '60000',
  PARAPET_BODY_LIMIT: String(BODY_LIMIT),
  PARAPET_PROVIDER_OPENAI_BASE_URL: fake.baseUrls.openai,
});
const keys = { al: server.al, sw: server.sw };
const urls = { api: server.url, proxy: server.proxyUrl ?? '' };
const ms = (x: number) => `${x.toFixed(0).padStart(6)} ms`;
console.log(
  `worst hostile input per endpoint: every one of the ${HOSTILE_INPUTS.length} generators screened in-process by ${CPU_CLOCK} at ${SCREEN} chars (the claim checker at ${CLAIM_SCREEN}); then one request per size (≤: cut to the route's limit), each with its HTTP wall time, the server's CPU (all threads) and status`,
);
const started = performance.now();
const benchCpu0 = cpuMs();
try {
  for (const ep of ENDPOINTS) {
    if (ONLY.length > 0 && !ONLY.some((o) => ep.name.includes(o))) continue;
    if (ep.name.startsWith('/proxy/') && !server.proxyUrl) {
      console.log(`${ep.name}: the server did not start the network proxy`);
      continue;
    }
    const rowStarted = performance.now();
    const worst = worstOf(ep, ep.screen);
    const cells: string[] = [];
    for (const n of SIZES) {
      const size = Math.min(n, ep.max);
      const c0 = processCpuMs(server.pid);
      const t0 = performance.now();
      const status = await ep.send(urls, keys, worst.input.make, size);
      const wall = performance.now() - t0;
      const cpu = processCpuMs(server.pid) - c0;
      cells.push(`${size < n ? '≤' : ' '}${ms(wall)} cpu ${ms(cpu)} (${status})`);
    }
    console.log(
      `${ep.name.padEnd(24)} ${worst.input.name.padEnd(24)} screen ${(ep.screen / 1000).toFixed(0)} KB: worst ${worst.cpu.toFixed(0)} ms, all ${(worst.total / 1000).toFixed(1)} s cpu | ${cells.join('  ')}  row ${((performance.now() - rowStarted) / 1000).toFixed(0)} s  ${load()}`,
    );
  }
} finally {
  await server.stop();
  await fake.close();
}

// The detection target: the worst hostile 100 KB input, in-process, median of three runs.
const det = worstOf(ENDPOINTS[0]!, DETECTION_MAX);
const runs = [0, 1, 2].map(() => timed(ENDPOINTS[0]!.engine(det.input.make, DETECTION_MAX)));
const median = (xs: number[]) => xs.sort((a, b) => a - b)[1]!;
console.log(
  `detection engine, worst hostile 100 KB input (${det.input.name}): median ${median(runs.map((r) => r.cpu)).toFixed(0)} ms ${CPU_CLOCK}, ${median(runs.map((r) => r.wall)).toFixed(0)} ms wall (target ≤ 20 ms CPU)  ${load()}`,
);
console.log(
  `bench took ${((performance.now() - started) / 1000).toFixed(0)} s wall, ${((cpuMs() - benchCpu0) / 1000).toFixed(0)} s ${CPU_CLOCK} of the bench process (the server's is in the rows)  ${load()}`,
);

chartPrinted('bench-hostile', {
  title: 'Worst hostile input per endpoint: server CPU per request by size',
  subtitle: `npm run bench:hostile; real server, worst generator screened at ${SCREEN} chars; ≤ marks a size cut to the endpoint's limit`,
  line: /^(?<label>\/\S+(?: \(network\))?)\s+(?<input>.+?)\s+(?<c1>≤)?\s*\d+ ms cpu\s+(?<k1>\d+) ms \([^)]*\)\s+(?<c2>≤)?\s*\d+ ms cpu\s+(?<k2>\d+) ms \([^)]*\)\s+(?<c3>≤)?\s*\d+ ms cpu\s+(?<k3>\d+) ms \([^)]*\)/,
  label: (g) => `${g['label']} (${g['input']})${g['c3'] ? ' ≤' : ''}`,
  measures: SIZES.map((n, i): [string, string] => [
    `CPU at ${n < 1e6 ? `${n / 1000} KB` : `${n / 1e6} MB`}`,
    `k${i + 1}`,
  ]),
  unit: ' ms',
  decimals: 0,
});
