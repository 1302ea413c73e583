import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { netproxyCase } from '../../../test/support/stream-cases.js';
import { STREAM_FORMATS, sseFrames } from '../../../test/support/stream-formats.js';
import { fuzzCases, fuzzSeed, partialToken } from '../../../test/support/stream-fuzz.js';
import { createTokenMap } from '../../engines/dlp/index.js';
import type { Operation } from './formats.js';
import { StreamRelay } from './streams.js';

const CASES = fuzzCases(2000);
const SEED = fuzzSeed(1);

describe('network proxy streams: seeded fuzz of the restored answer', () => {
  for (const format of STREAM_FORMATS) {
    it(`${format.name}: ${CASES} answers, every token back whole, no partial token, no U+FFFD (seeds ${SEED}..${SEED + CASES - 1})`, () => {
      const failures: string[] = [];
      for (let seed = SEED; seed < SEED + CASES && failures.length < 5; seed++) {
        const problem = netproxyCase(format, seed);
        if (problem)
          failures.push(`seed ${seed} (replay: STREAM_FUZZ_SEED=${seed} STREAM_FUZZ_CASES=1): ${problem}`);
      }
      assert.deepEqual(failures, []);
    });
  }
});

// Cases the fuzz found, minimized: each failed before its fix.
describe('network proxy streams: minimized fuzz findings', () => {
  const TOKEN = 'TKN_EMAIL_0123456g';
  const map = createTokenMap([{ token: TOKEN, type: 'EMAIL', value: 'anna@example.ch' }]);
  const run = (op: Operation, sse: boolean, upstream: string) => {
    const r = new StreamRelay(op, map, { sse, crlf: '\n' });
    let out = '';
    for (const piece of r.push(Buffer.from(upstream))) out += piece;
    for (const piece of r.end()) out += piece;
    return sseFrames(out).map((f) =>
      f.data === '[DONE]' ? f.data : (JSON.parse(f.data) as Record<string, unknown>),
    );
  };
  const sse = (events: object[]) =>
    events.map((e) => `event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`).join('');

  it('Anthropic: a ping between two deltas that split a token does not release its start', () => {
    const text = (t: string) => ({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: t },
    });
    const events = run(
      'anthropic-messages',
      true,
      sse([
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        text('Mail TKN_EM'),
        { type: 'ping' },
        text('AIL_0123456g now'),
        { type: 'content_block_stop', index: 0 },
        { type: 'message_stop' },
      ]),
    );
    const pieces = events.flatMap((e) => {
      const d = (e as { delta?: { text?: string } }).delta;
      return typeof d?.text === 'string' && d.text !== '' ? [d.text] : [];
    });
    assert.equal(pieces.join(''), 'Mail anna@example.ch now');
    assert.equal(partialToken(pieces, [TOKEN]), null);
    assert.ok(events.some((e) => (e as { type?: string }).type === 'ping'));
  });

  it('Gemini: one candidate finishing does not release the start of a token another candidate holds', () => {
    const chunk = (index: number, text: string, finish?: string) => ({
      candidates: [
        { index, content: { role: 'model', parts: [{ text }] }, ...(finish ? { finishReason: finish } : {}) },
      ],
    });
    const body = [chunk(1, 'Hi TKN_EMA'), chunk(0, 'Done.', 'STOP'), chunk(1, 'IL_0123456g!', 'STOP')]
      .map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`)
      .join('');
    const events = run('gemini-generate', true, body) as Array<{
      candidates: Array<{ index: number; content: { parts: Array<{ text: string }> } }>;
    }>;
    const pieces = events.flatMap((e) =>
      e.candidates.filter((c) => c.index === 1).flatMap((c) => c.content.parts.map((p) => p.text)),
    );
    assert.equal(pieces.join(''), 'Hi anna@example.ch!');
    assert.equal(partialToken(pieces, [TOKEN]), null);
  });

  it('Gemini: text held back from a chunk of two parts is released alone, the parts sent before not repeated', () => {
    const body = [
      { candidates: [{ index: 0, content: { role: 'model', parts: [{ text: 'Hi ' }, { text: TOKEN }] } }] },
      {
        candidates: [
          { index: 0, content: { role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }] } },
        ],
      },
      { candidates: [{ index: 0, content: { role: 'model', parts: [] }, finishReason: 'STOP' }] },
    ]
      .map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`)
      .join('');
    const events = run('gemini-generate', true, body) as Array<{
      candidates: Array<{ content: { parts: Array<{ text?: string; functionCall?: unknown }> } }>;
    }>;
    const parts = events.flatMap((e) => e.candidates.flatMap((c) => c.content.parts));
    assert.equal(parts.map((p) => p.text ?? '').join(''), 'Hi anna@example.ch');
    assert.equal(parts.filter((p) => p.functionCall).length, 1);
  });

  it('Responses and Cohere: a citation between two deltas that split a token does not release its start', () => {
    const responses = run(
      'openai-responses',
      true,
      sse([
        { type: 'response.output_text.delta', output_index: 0, content_index: 0, delta: 'Mail TKN_EM' },
        {
          type: 'response.output_text.annotation.added',
          output_index: 0,
          content_index: 0,
          annotation_index: 0,
          annotation: { type: 'url_citation', url: 'https://example.org/', start_index: 0, end_index: 4 },
        },
        { type: 'response.output_text.delta', output_index: 0, content_index: 0, delta: 'AIL_0123456g now' },
        { type: 'response.output_text.done', output_index: 0, content_index: 0, text: `Mail ${TOKEN} now` },
      ]),
    ) as Array<{ type: string; delta?: string }>;
    const fromResponses = responses.flatMap((e) => (e.type.endsWith('.delta') && e.delta ? [e.delta] : []));
    assert.equal(fromResponses.join(''), 'Mail anna@example.ch now');
    assert.equal(partialToken(fromResponses, [TOKEN]), null);

    const content = (text: string) => ({
      type: 'content-delta',
      index: 0,
      delta: { message: { content: { text } } },
    });
    const cohere = run(
      'cohere-chat',
      true,
      sse([
        content('Mail TKN_EM'),
        {
          type: 'citation-start',
          index: 0,
          delta: { message: { citations: { start: 0, end: 4, text: 'Mail', sources: [] } } },
        },
        { type: 'citation-end', index: 0 },
        content('AIL_0123456g now'),
        { type: 'content-end', index: 0 },
      ]),
    ) as Array<{ type: string; delta?: { message?: { content?: { text?: string } } } }>;
    const fromCohere = cohere.flatMap((e) => {
      const t = e.type === 'content-delta' ? e.delta?.message?.content?.text : undefined;
      return t ? [t] : [];
    });
    assert.equal(fromCohere.join(''), 'Mail anna@example.ch now');
    assert.equal(partialToken(fromCohere, [TOKEN]), null);
  });
});

// The Anthropic rule the proxy shares with the extension (engines/dlp/delta-fields.ts). Where the two copies
// differed, the extension's was kept; each of these failed on the proxy's own copy before.
describe('network proxy streams: the Anthropic rule shared with the extension', () => {
  const TOKEN = 'TKN_EMAIL_0123456g';
  const map = createTokenMap([{ token: TOKEN, type: 'EMAIL', value: 'anna@example.ch' }]);
  const run = (events: object[]) => {
    const r = new StreamRelay('anthropic-messages', map, { sse: true, crlf: '\n' });
    const upstream = events
      .map((e) => `event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`)
      .join('');
    let out = '';
    for (const piece of r.push(Buffer.from(upstream))) out += piece;
    for (const piece of r.end()) out += piece;
    return sseFrames(out).map((f) => JSON.parse(f.data) as { type: string; delta?: { text?: string } });
  };
  const text = (t: string, index?: number) => ({
    type: 'content_block_delta',
    ...(index === undefined ? {} : { index }),
    delta: { type: 'text_delta', text: t },
  });
  const texts = (events: ReturnType<typeof run>) =>
    events.flatMap((e) => (typeof e.delta?.text === 'string' && e.delta.text !== '' ? [e.delta.text] : []));

  it('an event of a kind the rule does not list (claude.ai message_limit) ends no block', () => {
    // Before: every event other than a ping or a delta ended all blocks, releasing "TKN_EM" in clear.
    const events = run([
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      text('Mail TKN_EM', 0),
      { type: 'message_limit', message_limit: { type: 'within_limit' } },
      text('AIL_0123456g now', 0),
      { type: 'content_block_stop', index: 0 },
      { type: 'message_stop' },
    ]);
    assert.equal(texts(events).join(''), 'Mail anna@example.ch now');
    assert.equal(partialToken(texts(events), [TOKEN]), null);
    assert.ok(events.some((e) => e.type === 'message_limit'));
  });

  it('a delta without an index is block 0: its held text goes out before block 0 stops', () => {
    // Before: the delta's field was "undefined", which content_block_stop {index: 0} did not end.
    const events = run([
      text('Mail TKN_EMAIL_0123'),
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' } },
      { type: 'message_stop' },
    ]);
    assert.deepEqual(
      events.map((e) => e.type),
      ['content_block_delta', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop'],
    );
    assert.equal(texts(events).join(''), 'Mail TKN_EMAIL_0123');
  });
});
