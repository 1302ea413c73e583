import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { StreamingRehydrator } from '../../engines/dlp/index.js';
import { makePlan, openAiChunks, problems, readOpenAiChunks } from '../../../test/support/stream-formats.js';
import { fuzzCases, fuzzSeed, rngOf, splitReads, vaultOf } from '../../../test/support/stream-fuzz.js';
import { openAiLikeFormat } from '../providers/openai-compatible/openai-compatible.format.js';
import { CallSignal } from '../providers/shared/call-signal.js';
import { readSse } from '../providers/shared/sse.js';
import type { UpstreamResponse } from '../providers/shared/transport.js';
import type { ChatChunk, ChatRequest } from '../providers/index.js';
import { ChunkRehydrator } from '../protection/index.js';

type Json = Record<string, unknown>;
const FORMAT = openAiLikeFormat({ id: 'openai', streamUsageOption: true });

/**
 * An OpenAI stream's bytes, read by read, through what the provider proxy runs: the adapter's reader (one
 * UTF-8 decoder, the SSE parser) and translation, then the chunk rehydrator as proxy.service's pump uses it
 * (a chunk it empties is not sent; what it still holds goes out in a last chunk).
 */
async function gatewayCase(seed: number): Promise<string | null> {
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
function chatCase(seed: number): string | null {
  const rng = rngOf(seed);
  const vault = vaultOf(Math.floor(seed / 8));
  const plan = makePlan(rng, vault);
  plan.texts.length = 1;
  plan.tools.length = 0;
  const { chunks, expected } = openAiChunks(rng, plan);
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

const SEED = fuzzSeed(1);

describe('provider proxy and chat streams: seeded fuzz of the restored answer', () => {
  // Each read is a turn of the event loop under the test runner's promise tracking: fewer, slower cases.
  const gateway = Math.ceil(fuzzCases(2000) / 6);
  it(`provider proxy (OpenAI SSE bytes -> adapter -> ChunkRehydrator): ${gateway} answers (seeds ${SEED}..${SEED + gateway - 1})`, async () => {
    const failures: string[] = [];
    for (let seed = SEED; seed < SEED + gateway && failures.length < 5; seed++) {
      const problem = await gatewayCase(seed);
      if (problem) failures.push(`seed ${seed}: ${problem}`);
    }
    assert.deepEqual(failures, []);
  });

  const chat = fuzzCases(2000);
  it(`protected chat (StreamingRehydrator on the content deltas): ${chat} answers (seeds ${SEED}..${SEED + chat - 1})`, () => {
    const failures: string[] = [];
    for (let seed = SEED; seed < SEED + chat && failures.length < 5; seed++) {
      const problem = chatCase(seed);
      if (problem) failures.push(`seed ${seed}: ${problem}`);
    }
    assert.deepEqual(failures, []);
  });
});
