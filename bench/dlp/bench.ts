// npm run bench:dlp — in-process DLP engine latency (one core). Texts are built from the team corpus, so
// they hold the same mix of PII and plain prose as the evaluation. Prints figures; asserts nothing.
import { loadavg } from 'node:os';
import {
  createTokenMap,
  detectEntities,
  rehydrate,
  StreamingRehydrator,
  tokenize,
} from '../../src/engines/dlp/index.js';
import { chartPrinted } from '../../scripts/printed-chart.js';
import { dlpTextOf as textOf } from '../support/dlp-texts.js';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function measure(label: string, texts: string[], fn: (t: string) => void, iterations: number): number {
  for (let i = 0; i < Math.min(50, iterations); i++) fn(texts[i % texts.length]!);
  const times: number[] = [];
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    fn(texts[i % texts.length]!);
    times.push(performance.now() - t0);
  }
  const total = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  times.sort((a, b) => a - b);
  const p50 = percentile(times, 50);
  // CPU time per call next to the wall-clock figures: on a shared machine the wall clock measures the load.
  const cpuMs = (cpu.user + cpu.system) / 1000 / iterations;
  console.log(
    `${label.padEnd(44)} p50 ${p50.toFixed(3)} ms   p99 ${percentile(times, 99).toFixed(3)} ms   ` +
      `${Math.round((iterations / total) * 1000)} texts/s   CPU ${cpuMs.toFixed(3)} ms/call   load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
  );
  return p50;
}

const key = new TextEncoder().encode('bench-session-key');
const oneKb = Array.from({ length: 64 }, (_, i) => textOf(1024, i * 7));
const tenKb = Array.from({ length: 8 }, (_, i) => textOf(10 * 1024, i * 13));
const hundredKb = Array.from({ length: 4 }, (_, i) => textOf(100 * 1024, i * 31));

console.log(`DLP engine, one core, Node ${process.version}; texts built from eval/dlp/corpus/test.jsonl`);
measure('detectEntities 1 KB', oneKb, (t) => detectEntities(t), 3000);
measure('tokenize 1 KB (new session each time)', oneKb, (t) => tokenize(t, createTokenMap(), key), 3000);
const p10 = measure('detectEntities 10 KB', tenKb, (t) => detectEntities(t), 200);
const p100 = measure('detectEntities 100 KB', hundredKb, (t) => detectEntities(t), 40);
measure('tokenize 100 KB', hundredKb, (t) => tokenize(t, createTokenMap(), key), 40);
console.log(`linearity: 100 KB / 10 KB p50 ratio = ${(p100 / p10).toFixed(1)} (10 would be exactly linear)`);

const map = createTokenMap();
const tokenized = hundredKb.map((t) => tokenize(t, map, key).tokenized);
console.log(`session map for the rehydration runs: ${map.byToken.size} tokens`);
measure('rehydrate 100 KB', tokenized, (t) => rehydrate(t, map), 40);
measure(
  'StreamingRehydrator 100 KB in 20-char chunks',
  tokenized,
  (t) => {
    const s = new StreamingRehydrator(map);
    for (let i = 0; i < t.length; i += 20) s.push(t.slice(i, i + 20));
    s.flush();
  },
  20,
);

// Inputs built to trigger regex backtracking; each must stay near the cost of ordinary text of its size.
const pathological: Record<string, string> = {
  'letters and dashes (40 KB)': 'A-'.repeat(20000),
  'first names only (100 KB)': 'Anna '.repeat(20000),
  'PEM headers without end (54 KB)': '-----BEGIN PRIVATE KEY-----'.repeat(2000),
  'token prefixes (80 KB)': 'TKN_'.repeat(20000),
};
for (const [label, text] of Object.entries(pathological)) {
  measure(`pathological: ${label}`, [text], (t) => tokenize(t, createTokenMap(), key), 5);
}

// Charts of the figures above: the 1 KB calls against the 0.5 ms budget, then the larger inputs.
const FIGURES = String.raw`\s+p50 (?<p50>[\d.]+) ms\s+p99 (?<p99>[\d.]+) ms\s+\d+ texts/s\s+CPU (?<cpu>[\d.]+) ms/call`;
const DLP_MEASURES: Array<[string, string]> = [
  ['p50', 'p50'],
  ['p99', 'p99'],
  ['CPU per call', 'cpu'],
];
chartPrinted('bench-dlp-1kb', {
  title: 'DLP engine on 1 KB of text, in process, one core',
  subtitle: 'npm run bench:dlp; texts from eval/dlp/corpus/test.jsonl',
  line: new RegExp(`^(?<label>.*\\b1 KB.*?)${FIGURES}`),
  measures: DLP_MEASURES,
  unit: ' ms',
  decimals: 3,
  reference: { value: 0.5, label: 'p50 budget 0.5 ms' },
});
chartPrinted('bench-dlp-large', {
  title: 'DLP engine on 10 KB and 100 KB texts and pathological inputs, in process, one core',
  subtitle: 'npm run bench:dlp; texts from eval/dlp/corpus/test.jsonl',
  line: new RegExp(`^(?<label>(?!.*\\b1 KB).+?)${FIGURES}`),
  measures: DLP_MEASURES,
  unit: ' ms',
});
