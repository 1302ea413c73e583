// Added latency of the provider adapters over a bare fetch to the same fake upstream, sequential over
// loopback, interleaved rounds, median of round medians. Also the SSE parser's throughput.
// Run: npm run bench:providers  (ROUNDS and PER_ROUND env vars change the sample size.)
import {
  type ChatRequest,
  createProviders,
  type ProviderAdapter,
  type ProviderId,
} from '../../src/modules/providers/index.js';
import { SseParser } from '../../src/modules/providers/index.js';
import { startFakeProviderServer } from './provider-server.js';
import { chartPrinted } from '../../scripts/printed-chart.js';

const ROUNDS = Number(process.env['ROUNDS'] ?? 10);
const PER_ROUND = Number(process.env['PER_ROUND'] ?? 100);

const fake = await startFakeProviderServer({ reply: 'x'.repeat(400), chunkSize: 16 });
const providers = createProviders({ baseUrls: fake.baseUrls });

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
}

const request = (model: string): ChatRequest => ({
  model,
  messages: [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: 'Tell me something about Zürich. '.repeat(30) },
  ],
});

/** The same upstream call without any adapter: what the adapter's cost is measured against. */
async function direct(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  stream: boolean,
): Promise<void> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (stream) {
    const reader = res.body?.getReader();
    if (!reader) return;
    // Time to first byte, to compare with the adapter's time to first chunk.
    await reader.read();
    await reader.cancel();
  } else {
    JSON.parse(await res.text());
  }
}

async function time(fn: () => Promise<void>): Promise<number> {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

async function measure(
  id: ProviderId,
  model: string,
  directUrl: string,
  directBody: unknown,
  stream: boolean,
) {
  const adapter = providers.get(id) as ProviderAdapter;
  const req = request(model);
  const ctx = { apiKey: 'bench-key' };
  const viaAdapter = async () => {
    if (!stream) {
      await adapter.chat(req, ctx);
      return;
    }
    for await (const c of adapter.stream(req, ctx)) {
      if (c.choices[0]?.delta.content) break;
    }
  };
  const viaFetch = () => direct(directUrl, directBody, { authorization: 'Bearer bench-key' }, stream);
  for (let i = 0; i < 50; i++) {
    await viaAdapter();
    await viaFetch();
  }
  const roundMedians: number[] = [];
  const added: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const a: number[] = [];
    const d: number[] = [];
    for (let i = 0; i < PER_ROUND; i++) {
      // Interleaved so drift in the machine's load hits both sides alike.
      d.push(await time(viaFetch));
      a.push(await time(viaAdapter));
    }
    roundMedians.push(median(a) - median(d));
    for (let i = 0; i < a.length; i++) added.push((a[i] ?? 0) - (d[i] ?? 0));
  }
  return { addedMedianMs: median(roundMedians), addedP99Ms: percentile(added, 99) };
}

const openaiBody = { ...request('gpt-4o-mini') };
const results: Record<string, { addedMedianMs: number; addedP99Ms: number }> = {
  'openai chat': await measure(
    'openai',
    'gpt-4o-mini',
    `${fake.baseUrls.openai}/chat/completions`,
    openaiBody,
    false,
  ),
  'openai stream (first chunk)': await measure(
    'openai',
    'gpt-4o-mini',
    `${fake.baseUrls.openai}/chat/completions`,
    { ...openaiBody, stream: true },
    true,
  ),
  'anthropic chat (translated)': await measure(
    'anthropic',
    'claude-haiku-4-5',
    `${fake.baseUrls.anthropic}/v1/messages`,
    {
      model: 'claude-haiku-4-5',
      max_tokens: 1024,
      messages: [{ role: 'user', content: request('x').messages[1]?.content }],
    },
    false,
  ),
  'anthropic stream (first chunk)': await measure(
    'anthropic',
    'claude-haiku-4-5',
    `${fake.baseUrls.anthropic}/v1/messages`,
    {
      model: 'claude-haiku-4-5',
      max_tokens: 1024,
      stream: true,
      messages: [{ role: 'user', content: request('x').messages[1]?.content }],
    },
    true,
  ),
};
await fake.close();

console.log(
  `provider adapter added latency (${ROUNDS} rounds x ${PER_ROUND} sequential requests, loopback fake)`,
);
for (const [name, r] of Object.entries(results)) {
  console.log(
    `  ${name.padEnd(32)} median ${r.addedMedianMs.toFixed(3)} ms   p99 ${r.addedP99Ms.toFixed(3)} ms`,
  );
}

// SSE parsing throughput on an OpenAI-style stream cut into 1 KiB reads.
const frame = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'hello world ' }, finish_reason: null }] })}\n\n`;
const body = frame.repeat(20_000);
const parser = new SseParser();
const t0 = process.hrtime.bigint();
let events = 0;
for (let i = 0; i < body.length; i += 1024) events += parser.push(body.slice(i, i + 1024)).length;
events += parser.end().length;
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
console.log(
  `  SSE parser: ${events} events, ${(body.length / 1e6).toFixed(1)} MB in ${(seconds * 1000).toFixed(1)} ms = ${(body.length / 1e6 / seconds).toFixed(0)} MB/s`,
);

chartPrinted('bench-providers', {
  title: 'Provider adapters: latency added over a bare fetch to the same fake upstream',
  subtitle: 'npm run bench:providers; sequential requests on loopback, interleaved rounds',
  settings: { ROUNDS, PER_ROUND },
  line: /^\s+(?<label>\S.+?)\s+median (?<median>-?[\d.]+) ms\s+p99 (?<p99>-?[\d.]+) ms/,
  measures: [
    ['median of round medians', 'median'],
    ['p99 of the differences', 'p99'],
  ],
  unit: ' ms',
  decimals: 3,
});
