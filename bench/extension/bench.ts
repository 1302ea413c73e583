// npm run bench:extension — the extension's hot paths, in-process on one core: the DLP bar's analysis of a
// prompt (1 KB and 10 KB), rewriting a send request (find the prompt, tokenize, rebuild the body), the
// in-page stream rehydration, the build sizes, then in Debian's Chromium the memory of the extension with
// its service worker idle and OCR time per 1-megapixel image (in-browser.ts). Texts come from the DLP team
// corpus. Prints figures with CPU time and the load average beside each; asserts nothing (shared machine).
import { loadavg } from 'node:os';
import { createTokenMap, tokenize } from '../../src/engines/dlp/index.js';
import { buildExtension } from '../../extension/build.js';
import { analyzePrompt } from '../../extension/src/shared/analysis.js';
import { promptSlots } from '../../extension/src/shared/prompt-slots.js';
import { SseRehydrator } from '../../extension/src/shared/sse-rehydrate.js';
import { chartPrinted } from '../../scripts/printed-chart.js';
import { benchInBrowser } from './in-browser.js';
import { dlpTextOf as textOf } from '../support/dlp-texts.js';

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function measure(label: string, inputs: string[], fn: (t: string) => unknown, iterations: number): void {
  for (let i = 0; i < Math.min(30, iterations); i++) fn(inputs[i % inputs.length]!);
  const times: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    fn(inputs[i % inputs.length]!);
    times.push(performance.now() - t0);
  }
  const cpu = process.cpuUsage(cpu0);
  times.sort((a, b) => a - b);
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(2);
  const cpuMs = (cpu.user + cpu.system) / 1000 / iterations;
  console.log(
    `${label.padEnd(42)} p50 ${p(0.5).padStart(7)} ms  p95 ${p(0.95).padStart(7)} ms  cpu/op ${cpuMs.toFixed(2).padStart(7)} ms  (n=${iterations}, load ${load()})`,
  );
}

const oneK = Array.from({ length: 40 }, (_, i) => textOf(1024, i * 7));
const tenK = Array.from({ length: 20 }, (_, i) => textOf(10 * 1024, i * 31));
measure('DLP bar analysis, 1 KB prompt', oneK, analyzePrompt, 400);
measure('DLP bar analysis, 10 KB prompt', tenK, analyzePrompt, 100);

const chatgptBody = (text: string) =>
  JSON.stringify({
    action: 'next',
    messages: [{ id: 'm1', author: { role: 'user' }, content: { content_type: 'text', parts: [text] } }],
    parent_message_id: 'client-created-root',
    model: 'auto',
  });
const key = crypto.getRandomValues(new Uint8Array(32));
const rewrite = (body: string) => {
  const slots = promptSlots('chatgpt', body)!;
  const map = createTokenMap();
  return slots.rebuild(slots.texts.map((t) => tokenize(t, map, key).tokenized));
};
measure('request rewrite (ChatGPT body), 1 KB prompt', oneK.map(chatgptBody), rewrite, 400);
measure('request rewrite (ChatGPT body), 10 KB prompt', tenK.map(chatgptBody), rewrite, 100);

// Stream: the tokenized 10 KB answer in 4-character v1 deltas, through the in-page rehydrator.
const map = createTokenMap();
const answers = tenK.slice(0, 5).map((t) => tokenize(t, map, key).tokenized);
const streams = answers.map((a) =>
  (a.match(/[\s\S]{1,4}/g) ?? []).map((v) => `data: ${JSON.stringify({ v })}\n\n`).join(''),
);
measure(
  'stream rehydration, 10 KB answer in 4-char events',
  streams,
  (s) => {
    const r = new SseRehydrator(map);
    return r.push(s) + r.flush();
  },
  50,
);

const built = await buildExtension();
console.log('\nbuild sizes (minified bundles and shipped assets):');
for (const [f, n] of Object.entries(built.sizes))
  console.log(`  ${f.padEnd(34)} ${(n / 1024).toFixed(1).padStart(8)} KiB`);
const files = Object.entries(built.sizes).filter(([f]) => !f.endsWith('.zip'));
const total = files.reduce((n, [, b]) => n + b, 0);
const ocrData = files.filter(([f]) => f.startsWith('ocr/')).reduce((n, [, b]) => n + b, 0);
console.log(
  `  unpacked total ${(total / 1048576).toFixed(2)} MiB; without OCR (core, worker, language data) ${((total - ocrData) / 1048576).toFixed(2)} MiB`,
);
const mem = process.memoryUsage();
console.log(`\nload average ${load()}; bench process RSS ${(mem.rss / 1048576).toFixed(0)} MiB`);

await benchInBrowser();
chartPrinted('bench-extension', {
  title: "The extension's hot paths, in process, one core",
  subtitle: 'npm run bench:extension; prompts from eval/dlp/corpus/test.jsonl',
  line: /^(?<label>\S.+?)\s+p50\s+(?<p50>[\d.]+) ms\s+p95\s+(?<p95>[\d.]+) ms\s+cpu\/op\s+(?<cpu>[\d.]+) ms/,
  measures: [
    ['p50', 'p50'],
    ['p95', 'p95'],
    ['CPU per operation', 'cpu'],
  ],
  unit: ' ms',
  decimals: 2,
});
chartPrinted('bench-extension-sizes', {
  title: 'The extension build: minified size per file',
  subtitle: 'npm run bench:extension',
  line: /^ {2}(?<label>\S+)\s+(?<kib>[\d.]+) KiB$/,
  measures: [['KiB', 'kib']],
  unit: ' KiB',
});
