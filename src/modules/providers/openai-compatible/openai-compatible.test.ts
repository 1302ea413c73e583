import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type FakeProviderServer, startFakeProviderServer } from '../../../../test/fakes/provider-server.js';
import { type ChatChunk, createProviders, type Providers } from '../index.js';
import type { SseEvent } from '../shared/sse.js';
import { mistralToolId } from './mistral-rules.js';
import { openAiLikeFormatFor } from './providers.js';

type Obj = Record<string, unknown>;

describe('OpenAI-compatible providers over HTTP', () => {
  let fake: FakeProviderServer;
  let providers: Providers;
  before(async () => {
    fake = await startFakeProviderServer();
    providers = createProviders({ baseUrls: fake.baseUrls });
  });
  after(() => fake.close());
  beforeEach(() => fake.reset());

  it('passes the request through unchanged apart from transport fields', async () => {
    const adapter = providers.get('openai');
    assert.ok(adapter);
    await adapter.chat(
      {
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'hi', name: 'alice' }],
        response_format: { type: 'json_object' },
        seed: 7,
        stream: true,
        stream_options: { include_usage: false },
      },
      { apiKey: 'sk-1', headers: { 'x-title': 'Parapet' } },
    );
    const sent = fake.lastRequest();
    assert.equal(sent?.path, '/openai/v1/chat/completions');
    assert.equal(sent?.headers['authorization'], 'Bearer sk-1');
    assert.equal(sent?.headers['x-title'], 'Parapet');
    assert.deepEqual(sent?.body, {
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi', name: 'alice' }],
      response_format: { type: 'json_object' },
      seed: 7,
    });
  });

  it('asks for stream usage everywhere except Mistral, which sends it unasked', async () => {
    for (const id of ['openai', 'groq', 'together', 'fireworks', 'openrouter', 'mistral'] as const) {
      const adapter = providers.get(id);
      assert.ok(adapter);
      let usageSeen = false;
      for await (const c of adapter.stream(
        { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
        { apiKey: 'k' },
      )) {
        if (c.usage) usageSeen = true;
      }
      const body = fake.lastRequest()?.body as Obj;
      assert.equal(body['stream'], true, id);
      assert.deepEqual(body['stream_options'], id === 'mistral' ? undefined : { include_usage: true }, id);
      assert.ok(usageSeen, `${id} stream carries usage`);
    }
  });

  it('rewrites tool-call ids consistently for Mistral and drops content beside tool calls', async () => {
    const adapter = providers.get('mistral');
    assert.ok(adapter);
    await adapter.chat(
      {
        model: 'mistral-small-latest',
        messages: [
          { role: 'user', content: 'weather?' },
          {
            role: 'assistant',
            content: 'calling',
            tool_calls: [
              { id: 'call_abc_long-id', type: 'function', function: { name: 'w', arguments: '{}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_abc_long-id', content: 'sunny' },
        ],
      },
      { apiKey: 'k' },
    );
    const messages = ((fake.lastRequest()?.body ?? {}) as Obj)['messages'] as Obj[];
    const calls = (messages[1]?.['tool_calls'] ?? []) as Obj[];
    const callId = calls[0]?.['id'];
    assert.match(String(callId), /^[a-zA-Z0-9]{9}$/);
    assert.equal(messages[2]?.['tool_call_id'], callId);
    assert.equal(messages[1]?.['content'], '');
  });
});

describe('mistralToolId', () => {
  it('keeps valid ids and maps others deterministically to 9 alphanumerics', () => {
    assert.equal(mistralToolId('abcDEF123'), 'abcDEF123');
    const a = mistralToolId('call_1');
    assert.match(a, /^[a-zA-Z0-9]{9}$/);
    assert.equal(mistralToolId('call_1'), a);
    assert.notEqual(mistralToolId('call_2'), a);
  });
});

describe('OpenAI stream normalisation', () => {
  async function* events(...data: unknown[]): AsyncGenerator<SseEvent> {
    for (const d of data) yield { event: undefined, data: typeof d === 'string' ? d : JSON.stringify(d) };
  }
  async function run(...data: unknown[]): Promise<ChatChunk[]> {
    const out: ChatChunk[] = [];
    const format = openAiLikeFormatFor('groq');
    for await (const c of format.translateStream(events(...data), { model: 'm', messages: [] })) out.push(c);
    return out;
  }

  it('moves Groq x_groq usage and usage on a content chunk into a final usage-only chunk', async () => {
    const chunks = await run(
      { id: 'a', choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: null }] },
      {
        id: 'a',
        choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
        x_groq: { usage: { prompt_tokens: 2, completion_tokens: 1, total_tokens: 3 } },
      },
      '[DONE]',
    );
    assert.equal(chunks.length, 3);
    assert.equal(chunks[1]?.usage, undefined);
    assert.deepEqual(chunks[2]?.choices, []);
    assert.equal(chunks[2]?.usage?.total_tokens, 3);
  });

  it('drops choice-less chunks without usage (Azure filter results) and tolerates choices: null', async () => {
    const chunks = await run(
      { id: 'a', choices: [], prompt_filter_results: [] },
      { id: 'a', choices: null },
      { id: 'a', choices: [{ index: 0, delta: { content: 'x' }, finish_reason: 'stop' }] },
      '[DONE]',
    );
    assert.equal(chunks.length, 1);
  });

  it('treats a stream that ends with neither [DONE] nor a finish reason as cut', async () => {
    await assert.rejects(
      run({ id: 'a', choices: [{ index: 0, delta: { content: 'x' }, finish_reason: null }] }),
      {
        code: 'stream_error',
      },
    );
  });
});
