import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type FakeProviderServer, startFakeProviderServer } from '../../../../test/fakes/provider-server.js';
import { collectStream, createProviders, type ProviderAdapter, ProviderError } from '../index.js';
import { ANTHROPIC_DEFAULT_MAX_TOKENS, toAnthropicBody } from './anthropic.request.js';
import { fromAnthropicResponse } from './anthropic.response.js';

describe('anthropic request translation', () => {
  it('moves system and developer prompts to `system` and keeps turns alternating', () => {
    const body = toAnthropicBody(
      {
        model: 'claude-haiku-4-5',
        messages: [
          { role: 'system', content: 'Rule one.' },
          { role: 'developer', content: [{ type: 'text', text: 'Rule two.' }] },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is in this picture?' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            ],
          },
          {
            role: 'assistant',
            content: 'Let me check two things.',
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"a"}' } },
              { id: 'call_2', type: 'function', function: { name: 'lookup', arguments: '{"q":"b"}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', content: 'A result' },
          { role: 'tool', tool_call_id: 'call_2', content: 'B result' },
          { role: 'user', content: 'Thanks' },
        ],
        stop: 'END',
        tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
        tool_choice: 'required',
        parallel_tool_calls: false,
      },
      false,
    );
    assert.equal(body['system'], 'Rule one.\n\nRule two.');
    assert.equal(body['max_tokens'], ANTHROPIC_DEFAULT_MAX_TOKENS);
    assert.deepEqual(body['stop_sequences'], ['END']);
    assert.deepEqual(body['tool_choice'], { type: 'any', disable_parallel_tool_use: true });
    assert.deepEqual(body['tools'], [{ name: 'lookup', input_schema: { type: 'object' } }]);
    const messages = body['messages'] as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    assert.deepEqual(
      messages.map((m) => m.role),
      ['user', 'assistant', 'user'],
    );
    assert.deepEqual(messages[0]?.content[1], {
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' },
    });
    assert.deepEqual(messages[1]?.content, [
      { type: 'text', text: 'Let me check two things.' },
      { type: 'tool_use', id: 'call_1', name: 'lookup', input: { q: 'a' } },
      { type: 'tool_use', id: 'call_2', name: 'lookup', input: { q: 'b' } },
    ]);
    // Both tool results and the next user text share one user turn.
    assert.deepEqual(messages[2]?.content, [
      { type: 'tool_result', tool_use_id: 'call_1', content: 'A result' },
      { type: 'tool_result', tool_use_id: 'call_2', content: 'B result' },
      { type: 'text', text: 'Thanks' },
    ]);
  });

  it('maps a named tool_choice and keeps an explicit max_tokens', () => {
    const body = toAnthropicBody(
      {
        model: 'm',
        messages: [{ role: 'user', content: 'x' }],
        max_tokens: 12,
        tool_choice: { type: 'function', function: { name: 'lookup' } },
      },
      true,
    );
    assert.equal(body['max_tokens'], 12);
    assert.equal(body['stream'], true);
    assert.deepEqual(body['tool_choice'], { type: 'tool', name: 'lookup' });
  });
});

describe('anthropic response translation', () => {
  it('joins text blocks, turns tool_use into tool_calls and skips thinking blocks', () => {
    const res = fromAnthropicResponse(
      {
        id: 'msg_1',
        type: 'message',
        model: 'claude-haiku-4-5',
        content: [
          { type: 'thinking', thinking: 'secret reasoning', signature: 'sig' },
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { q: 'x' } },
        ],
        stop_reason: 'tool_use',
        usage: { input_tokens: 10, cache_read_input_tokens: 5, output_tokens: 3 },
      },
      { model: 'claude-haiku-4-5', messages: [] },
    );
    const choice = res.choices[0];
    assert.equal(choice?.message.content, 'Checking.');
    assert.deepEqual(choice?.message.tool_calls, [
      { id: 'toolu_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } },
    ]);
    assert.equal(choice?.finish_reason, 'tool_calls');
    assert.deepEqual(res.usage, { prompt_tokens: 15, completion_tokens: 3, total_tokens: 18 });
  });

  it('maps max_tokens to length', () => {
    const res = fromAnthropicResponse(
      { id: 'm', content: [{ type: 'text', text: 'cut' }], stop_reason: 'max_tokens', usage: {} },
      { model: 'x', messages: [] },
    );
    assert.equal(res.choices[0]?.finish_reason, 'length');
  });

  it('maps model_context_window_exceeded to length (the answer was cut, not finished)', () => {
    const res = fromAnthropicResponse(
      {
        id: 'm',
        content: [{ type: 'text', text: 'Pay to DE89 3704' }],
        stop_reason: 'model_context_window_exceeded',
        usage: {},
      },
      { model: 'x', messages: [] },
    );
    assert.equal(res.choices[0]?.finish_reason, 'length');
  });

  it('maps pause_turn and a stop reason it does not know to length (not finished: fail closed)', () => {
    for (const reason of ['pause_turn', 'some_future_reason']) {
      const res = fromAnthropicResponse(
        { id: 'm', content: [{ type: 'text', text: 'Pay to DE89 3704' }], stop_reason: reason, usage: {} },
        { model: 'x', messages: [] },
      );
      assert.equal(res.choices[0]?.finish_reason, 'length', reason);
    }
  });
});

describe('anthropic adapter over HTTP', () => {
  let fake: FakeProviderServer;
  let adapter: ProviderAdapter;
  before(async () => {
    fake = await startFakeProviderServer();
    const a = createProviders({ baseUrls: fake.baseUrls }).get('anthropic');
    assert.ok(a);
    adapter = a;
  });
  after(() => fake.close());
  beforeEach(() => fake.reset());

  it('posts to /v1/messages with x-api-key and anthropic-version', async () => {
    await adapter.chat(
      { model: 'claude-haiku-4-5', messages: [{ role: 'user', content: 'hi' }] },
      { apiKey: 'sk-ant' },
    );
    const sent = fake.lastRequest();
    assert.equal(sent?.path, '/anthropic/v1/messages');
    assert.equal(sent?.headers['x-api-key'], 'sk-ant');
    assert.equal(sent?.headers['anthropic-version'], '2023-06-01');
    assert.equal(sent?.headers['authorization'], undefined);
  });

  it('streams text followed by a tool call, numbering tool calls from 0', async () => {
    fake.setBehavior({
      reply: 'Looking it up.',
      toolCalls: [{ name: 'lookup', arguments: { q: 'Zürich' } }],
    });
    const res = await collectStream(
      adapter.stream(
        { model: 'claude-haiku-4-5', messages: [{ role: 'user', content: 'hi' }] },
        { apiKey: 'k' },
      ),
    );
    assert.equal(res.choices[0]?.message.content, 'Looking it up.');
    assert.equal(res.choices[0]?.message.tool_calls?.length, 1);
    assert.deepEqual(JSON.parse(res.choices[0]?.message.tool_calls?.[0]?.function.arguments ?? ''), {
      q: 'Zürich',
    });
    assert.equal(res.id, 'msg_fake_1');
  });

  it('reports an overloaded_error event mid-stream as status 529', async () => {
    fake.setBehavior({ errorAfterChunks: 1 });
    await assert.rejects(
      collectStream(
        adapter.stream({ model: 'm', messages: [{ role: 'user', content: 'hello there' }] }, { apiKey: 'k' }),
      ),
      (e: unknown) => e instanceof ProviderError && e.status === 529 && e.retryable,
    );
  });
});
