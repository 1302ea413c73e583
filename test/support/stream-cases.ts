// The cases of the streamed-rehydration fuzz, each run through the code the service runs: the network
// proxy's StreamRelay, the provider proxy's adapter reader and chunk rehydrator, the chat's streaming
// rehydrator. Shared by the tests (src/modules/netproxy/streams.test.ts, src/modules/gateway/
// stream-rehydrate.test.ts) and by `npm run fuzz:streams`. Each returns what is wrong, or null.
import { Readable } from 'node:stream';
import { StreamingRehydrator } from '../../src/engines/dlp/index.js';
import { StreamRelay } from '../../src/modules/netproxy/streams.js';
import type { ChatChunk, ChatRequest } from '../../src/modules/providers/index.js';
import { openAiLikeFormat } from '../../src/modules/providers/openai-compatible/openai-compatible.format.js';
import { CallSignal } from '../../src/modules/providers/shared/call-signal.js';
import { readSse } from '../../src/modules/providers/shared/sse.js';
import type { UpstreamResponse } from '../../src/modules/providers/shared/transport.js';
import { ChunkRehydrator } from '../../src/modules/protection/index.js';
import {
  type ClientView,
  makePlan,
  openAiChunks,
  problems,
  readOpenAiChunks,
  type StreamFormat,
  upstreamText,
} from './stream-formats.js';
import { rngOf, splitReads, type Vault, vaultOf } from './stream-fuzz.js';

/** Runs upstream bytes, read by read, through the proxy's stream rewriting; returns the client's text. */
function relay(format: StreamFormat, vault: Vault, reads: Uint8Array[]): string {
  const r = new StreamRelay(format.op, vault.map, { sse: format.sse, crlf: format.crlf });
  let out = '';
  for (const read of reads) for (const piece of r.push(read)) out += piece;
  for (const piece of r.end()) out += piece;
  return out;
}

/** One generated case: the answer, framed, cut into reads, relayed and read back. Returns a failure or null. */
export function netproxyCase(format: StreamFormat, seed: number): string | null {
  const rng = rngOf(seed);
  const vault = vaultOf(Math.floor(seed / 8));
  const plan = makePlan(rng, vault);
  const { events, expected, whole } = format.build(rng, plan);
  const bytes = Buffer.from(upstreamText(rng, format, events), 'utf8');
  const out = relay(format, vault, splitReads(rng, bytes));
  if (out.includes('\uFFFD')) return `U+FFFD in the output: ${JSON.stringify(out)}`;
  let view: ClientView;
  try {
    view = format.read(out);
  } catch (err) {
    return `unreadable output (${(err as Error).message}): ${JSON.stringify(out)}`;
  }
  return problems(view, expected, whole, vault);
}

type Json = Record<string, unknown>;
const FORMAT = openAiLikeFormat({ id: 'openai', streamUsageOption: true });

/**
 * An OpenAI stream's bytes, read by read, through what the provider proxy runs: the adapter's reader (one
 * UTF-8 decoder, the SSE parser) and translation, then the chunk rehydrator as proxy.service's pump uses it
 * (a chunk it empties is not sent; what it still holds goes out in a last chunk).
 */
export async function gatewayCase(seed: number): Promise<string | null> {
  const rng = rngOf(seed);
  const vault = vaultOf(Math.floor(seed / 8));
  const plan = makePlan(rng, vault);
  const { chunks, expected } = openAiChunks(rng, plan);
  const body = `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
  const reads = splitReads(rng, Buffer.from(body, 'utf8')).map((r) => Buffer.from(r));
  const response = { body: Readable.from(reads) } as unknown as UpstreamResponse;
  const call = new CallSignal('openai', { apiKey: 'k' });
  const stream = FORMAT.translateStream(readSse('openai', response, call), {} as ChatRequest);
  const rehydrator = new ChunkRehydrator(vault.map);
  const out: Json[] = [];
  let last: ChatChunk | undefined;
  for await (const chunk of stream) {
    last = chunk;
    if (!rehydrator.transform(chunk)) continue;
    // What the SSE sink sends: the chunk as JSON at that moment.
    out.push(JSON.parse(JSON.stringify(chunk)) as Json);
  }
  const tail = rehydrator.finish(last);
  if (tail) out.push(JSON.parse(JSON.stringify(tail)) as Json);
  call.dispose();
  const text = JSON.stringify(out);
  if (text.includes('\uFFFD') || text.includes('\\ufffd')) return `U+FFFD in the output: ${text}`;
  const fields = new Map<string, string[]>();
  readOpenAiChunks(out, fields);
  return problems({ fields, whole: [] }, expected, [], vault);
}

/** The protected chat: choice 0's content through one streaming rehydrator, as chat.stream.ts runs it. */
export function chatCase(seed: number): string | null {
  const rng = rngOf(seed);
  const vault = vaultOf(Math.floor(seed / 8));
  const plan = makePlan(rng, vault);
  plan.texts.length = 1;
  plan.tools.length = 0;
  const { chunks, expected } = openAiChunks(rng, plan, false);
  const rehydrator = new StreamingRehydrator(vault.map);
  const pieces: string[] = [];
  for (const chunk of chunks as unknown as ChatChunk[]) {
    const piece = chunk.choices[0]?.delta?.content;
    if (typeof piece !== 'string' || piece === '') continue;
    const out = rehydrator.push(piece);
    if (out) pieces.push(out);
  }
  const rest = rehydrator.flush();
  if (rest) pieces.push(rest);
  return problems({ fields: new Map([['c0', pieces]]), whole: [] }, expected, [], vault);
}
