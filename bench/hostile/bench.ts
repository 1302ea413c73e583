/**
 * npm run bench:hostile — the worst hostile input per endpoint (issue #15) and its time at 10 KB, 100 KB and
 * 1 MB through a real server (bin/parapet serve, worker pool on). Each endpoint's engine is first run
 * in-process on every generator of src/engines/hostile-inputs.ts at SCREEN characters to find its worst one;
 * that one is then sent over HTTP. Sizes above an endpoint's documented text limit are cut to the limit
 * (marked "≤"). Also prints the engine time of the worst 100 KB detection input (target ≤ 20 ms).
 */
import { analyze, analyzeAndSanitize } from '../../src/engines/detection/index.js';
import { detectEntities } from '../../src/engines/dlp/index.js';
import { LIMITS, checkClaim } from '../../src/engines/hallucination/index.js';
import { HOSTILE_INPUTS, type HostileInput } from '../../src/engines/hostile-inputs.js';
import { MAX_TEXT_CHARS as DETECTION_MAX } from '../../src/modules/detection/detection.schemas.js';
import { MAX_TEXT_CHARS as DLP_MAX } from '../../src/modules/dlp/dlp.schemas.js';
import { MAX_MESSAGE_CHARS as CHAT_MAX } from '../../src/modules/gateway/gateway.schemas.js';
import { startBenchServer } from '../support/server.js';

const SCREEN = Number(process.env['HOSTILE_SCREEN_CHARS'] ?? 30_000);
const SIZES = [10_000, 100_000, 1_000_000];
const PROXY_MAX = 1_000_000;

type Make = HostileInput['make'];

/** A check of n characters: a tenth (at most the claim limit) as claim, the rest as sources. */
function check(make: Make, n: number): { claim: string; sources: string[] } {
  const claimChars = Math.min(LIMITS.maxClaimChars, Math.floor(n / 10));
  const sources: string[] = [];
  for (let rest = n - claimChars; rest > 0 && sources.length < LIMITS.maxSources; ) {
    const size = Math.min(LIMITS.maxSourceChars, rest);
    sources.push(make(size));
    rest -= size;
  }
  const blankless = (s: string) => (s.trim() === '' ? `x${s.slice(1)}` : s);
  return { claim: blankless(make(claimChars)), sources: sources.map(blankless) };
}

interface Endpoint {
  name: string;
  max: number;
  engine(make: Make, n: number): () => unknown;
  send(url: string, keys: { al: string; sw: string }, make: Make, n: number): Promise<number>;
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
  max: DETECTION_MAX,
  engine: (make, n) => {
    const text = make(n);
    return sanitize ? () => analyzeAndSanitize(text) : () => analyze(text);
  },
  send: (url, k, make, n) => post(`${url}${path}`, { authorization: `Bearer ${k.al}` }, { text: make(n) }),
});
const dlpEngine = (make: Make, n: number) => {
  const text = make(n);
  return () => detectEntities(text);
};

const ENDPOINTS: Endpoint[] = [
  detection('/api/v1/analyze'),
  detection('/api/v1/detect'),
  detection('/api/v1/sanitize', true),
  {
    name: '/api/v1/dlp/analyze',
    max: DLP_MAX,
    engine: dlpEngine,
    send: (url, k, make, n) =>
      post(`${url}/api/v1/dlp/analyze`, { authorization: `Bearer ${k.al}` }, { text: make(n) }),
  },
  {
    name: '/api/v1/hallucination',
    max: LIMITS.maxClaimChars + LIMITS.maxSources * LIMITS.maxSourceChars,
    engine: (make, n) => {
      const { claim, sources } = check(make, n);
      return () => checkClaim(claim, sources);
    },
    send: (url, k, make, n) =>
      post(`${url}/api/v1/hallucination`, { authorization: `Bearer ${k.al}` }, check(make, n)),
  },
  {
    name: '/api/v1/gateway/chat',
    max: CHAT_MAX,
    engine: (make, n) => {
      const text = make(n);
      return () => {
        analyze(text);
        detectEntities(text);
      };
    },
    send: (url, k, make, n) =>
      post(`${url}/api/v1/gateway/chat`, { authorization: `Bearer ${k.sw}` }, { message: make(n) }),
  },
  {
    name: '/api/v1/proxy/parapet',
    max: PROXY_MAX,
    engine: dlpEngine,
    send: (url, k, make, n) =>
      post(
        `${url}/api/v1/proxy/parapet/v1/chat/completions`,
        { 'x-service-key': k.al, authorization: 'Bearer unused' },
        { model: 'parapet-offline-echo', messages: [{ role: 'user', content: make(n) }] },
      ),
  },
];

function time(f: () => unknown): number {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
}

function worstOf(endpoint: Endpoint, size: number): { input: HostileInput; ms: number } {
  let worst = { input: HOSTILE_INPUTS[0]!, ms: -1 };
  for (const input of HOSTILE_INPUTS) {
    const ms = time(endpoint.engine(input.make, Math.min(size, endpoint.max)));
    if (ms > worst.ms) worst = { input, ms };
  }
  return worst;
}

analyze('warm up');
detectEntities('warm up a@b.c');
checkClaim('warm up 1', ['warm up 1']);

const server = await startBenchServer({ PARAPET_COMPUTE_BUDGET_MS: '120000' });
const keys = { al: server.al, sw: server.sw };
const fmt = (ms: number) => `${ms.toFixed(0).padStart(7)} ms`;
console.log(
  `worst hostile input per endpoint (screened in-process at ${SCREEN} chars), HTTP time at 10 KB / 100 KB / 1 MB`,
);
try {
  for (const ep of ENDPOINTS) {
    const worst = worstOf(ep, SCREEN);
    const cells: string[] = [];
    for (const n of SIZES) {
      const size = Math.min(n, ep.max);
      const t0 = performance.now();
      const status = await ep.send(server.url, keys, worst.input.make, size);
      const ms = performance.now() - t0;
      cells.push(`${size < n ? '≤' : ' '}${fmt(ms)} (${status})`);
    }
    console.log(`${ep.name.padEnd(26)} ${worst.input.name.padEnd(26)} ${cells.join('  ')}`);
  }
} finally {
  await server.stop();
}

// The detection target: the worst hostile 100 KB input, in-process, median of three runs.
const det = worstOf(ENDPOINTS[0]!, DETECTION_MAX);
const runs = [0, 1, 2]
  .map(() => time(ENDPOINTS[0]!.engine(det.input.make, DETECTION_MAX)))
  .sort((a, b) => a - b);
console.log(
  `detection engine, worst hostile 100 KB input (${det.input.name}): median ${runs[1]!.toFixed(0)} ms (target ≤ 20 ms)`,
);
