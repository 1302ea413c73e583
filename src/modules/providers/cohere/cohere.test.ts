import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeProviderServer, startFakeProviderServer } from '../../../../test/fakes/provider-server.js';
import { collectStream, createProviders, type ProviderAdapter } from '../index.js';
import { toCohereBody } from './cohere.request.js';
import { fromCohereResponse } from './cohere.response.js';

describe('cohere v2 request translation', () => {
  it('maps roles, tool calls, tool results and sampling settings', () => {
    const body = toCohereBody(
      {
        model: 'command-r-08-2024',
        messages: [
          { role: 'developer', content: 'Answer in French.' },
          { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
          {
            role: 'assistant',
            content: 'I will look it up.',
            tool_calls: [
              { id: 't1', type: 'function', function: { name: 'weather', arguments: '{"city":"Lyon"}' } },
            ],
          },
          { role: 'tool', tool_call_id: 't1', content: 'sunny' },
        ],
        top_p: 0.9,
        stop: 'STOP',
        max_tokens: 50,
        tool_choice: 'required',
        tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object' } } }],
      },
      true,
    );
    assert.deepEqual(body['messages'], [
      { role: 'system', content: 'Answer in French.' },
      { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
      {
        role: 'assistant',
        tool_plan: 'I will look it up.',
        tool_calls: [
          { id: 't1', type: 'function', function: { name: 'weather', arguments: '{"city":"Lyon"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 't1', content: 'sunny' },
    ]);
    assert.equal(body['p'], 0.9);
    assert.deepEqual(body['stop_sequences'], ['STOP']);
    assert.equal(body['max_tokens'], 50);
    assert.equal(body['tool_choice'], 'REQUIRED');
    assert.equal(body['stream'], true);
    assert.equal(body['top_p'], undefined);
  });
});

describe('cohere v2 response translation', () => {
  it('uses tool_plan as content when the model calls tools, and maps usage and finish reason', () => {
    const res = fromCohereResponse(
      {
        id: 'c1',
        finish_reason: 'TOOL_CALL',
        message: {
          role: 'assistant',
          tool_plan: 'Checking the weather.',
          tool_calls: [
            { id: 'x', type: 'function', function: { name: 'weather', arguments: '{"city":"Nice"}' } },
          ],
        },
        usage: {
          billed_units: { input_tokens: 3, output_tokens: 2 },
          tokens: { input_tokens: 30, output_tokens: 5 },
        },
      },
      { model: 'command-r-08-2024', messages: [] },
    );
    assert.equal(res.choices[0]?.message.content, 'Checking the weather.');
    assert.equal(res.choices[0]?.finish_reason, 'tool_calls');
    assert.equal(res.choices[0]?.message.tool_calls?.[0]?.function.arguments, '{"city":"Nice"}');
    assert.deepEqual(res.usage, { prompt_tokens: 30, completion_tokens: 5, total_tokens: 35 });
    assert.equal(res.model, 'command-r-08-2024');
  });

  it('maps ERROR, TIMEOUT and an unknown finish reason to length (not finished: fail closed)', () => {
    for (const reason of ['ERROR', 'TIMEOUT', 'SOMETHING_NEW']) {
      const res = fromCohereResponse(
        {
          id: 'c2',
          finish_reason: reason,
          message: { role: 'assistant', content: [{ type: 'text', text: 'Pay to DE89 3704' }] },
        },
        { model: 'command-r-08-2024', messages: [] },
      );
      assert.equal(res.choices[0]?.finish_reason, 'length', reason);
    }
  });
});

describe('cohere adapter over HTTP', () => {
  let fake: FakeProviderServer;
  let adapter: ProviderAdapter;
  before(async () => {
    fake = await startFakeProviderServer();
    const a = createProviders({ baseUrls: fake.baseUrls }).get('cohere');
    assert.ok(a);
    adapter = a;
  });
  after(() => fake.close());

  it('posts to /v2/chat with a Bearer key and streams the tool plan as content', async () => {
    fake.setBehavior({
      reply: 'Plan: call weather.',
      toolCalls: [{ name: 'weather', arguments: { city: 'Nice' } }],
    });
    const res = await collectStream(
      adapter.stream(
        { model: 'command-r-08-2024', messages: [{ role: 'user', content: 'hi' }] },
        { apiKey: 'co-key' },
      ),
    );
    const sent = fake.lastRequest();
    assert.equal(sent?.path, '/cohere/v2/chat');
    assert.equal(sent?.headers['authorization'], 'Bearer co-key');
    assert.equal(res.choices[0]?.message.content, 'Plan: call weather.');
    assert.deepEqual(JSON.parse(res.choices[0]?.message.tool_calls?.[0]?.function.arguments ?? ''), {
      city: 'Nice',
    });
  });
});
