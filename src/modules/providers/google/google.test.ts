import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type FakeProviderServer, startFakeProviderServer } from '../../../../test/fakes/provider-server.js';
import { collectStream, createProviders, type ProviderAdapter } from '../index.js';
import { toGeminiBody } from './google.request.js';
import { fromGeminiResponse } from './google.response.js';

describe('gemini request translation', () => {
  const body = toGeminiBody({
    model: 'gemini-2.5-flash',
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Bern and Basel?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'c1',
            type: 'function',
            function: { name: 'weather', arguments: '{"city":"Bern"}' },
            thought_signature: 'sig-abc',
          },
          { id: 'c2', type: 'function', function: { name: 'weather', arguments: '{"city":"Basel"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: '{"temp":3}' },
      { role: 'tool', tool_call_id: 'c2', content: 'cloudy' },
    ],
    temperature: 0.2,
    max_tokens: 100,
    stop: ['###'],
    tools: [
      {
        type: 'function',
        function: {
          name: 'weather',
          parameters: {
            $schema: 'http://json-schema.org/draft-07/schema#',
            type: 'object',
            additionalProperties: false,
            properties: { city: { type: 'string' }, additionalProperties: { type: 'string' } },
          },
        },
      },
    ],
    tool_choice: { type: 'function', function: { name: 'weather' } },
  });

  it('puts system prompts in systemInstruction and assistant turns under role model', () => {
    assert.deepEqual(body['systemInstruction'], { parts: [{ text: 'Be brief.' }] });
    const contents = body['contents'] as Array<{ role: string; parts: Array<Record<string, unknown>> }>;
    assert.deepEqual(
      contents.map((c) => c.role),
      ['user', 'model', 'user'],
    );
    assert.deepEqual(contents[1]?.parts, [
      { functionCall: { name: 'weather', args: { city: 'Bern' } }, thoughtSignature: 'sig-abc' },
      { functionCall: { name: 'weather', args: { city: 'Basel' } } },
    ]);
  });

  it('sends tool results as functionResponse parts named after their call, in one turn', () => {
    const contents = body['contents'] as Array<{ role: string; parts: Array<Record<string, unknown>> }>;
    assert.deepEqual(contents[2]?.parts, [
      { functionResponse: { name: 'weather', response: { temp: 3 } } },
      { functionResponse: { name: 'weather', response: { result: 'cloudy' } } },
    ]);
  });

  it('maps generation settings, tool declarations and a forced tool', () => {
    assert.deepEqual(body['generationConfig'], {
      temperature: 0.2,
      maxOutputTokens: 100,
      stopSequences: ['###'],
    });
    assert.deepEqual(body['tools'], [
      {
        functionDeclarations: [
          {
            name: 'weather',
            parameters: {
              type: 'object',
              properties: { city: { type: 'string' }, additionalProperties: { type: 'string' } },
            },
          },
        ],
      },
    ]);
    assert.deepEqual(body['toolConfig'], {
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['weather'] },
    });
  });
});

describe('gemini response translation', () => {
  it('skips thought parts, keeps thoughtSignature on the tool call and maps finish reasons', () => {
    const res = fromGeminiResponse(
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { text: 'thinking…', thought: true },
                { functionCall: { name: 'weather', args: { city: 'Bern' } }, thoughtSignature: 'sig-1' },
              ],
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: {
          promptTokenCount: 9,
          candidatesTokenCount: 4,
          thoughtsTokenCount: 6,
          totalTokenCount: 19,
        },
        responseId: 'r1',
      },
      { model: 'gemini-2.5-flash', messages: [] },
    );
    const choice = res.choices[0];
    assert.equal(choice?.message.content, null);
    assert.equal(choice?.finish_reason, 'tool_calls');
    assert.equal(choice?.message.tool_calls?.[0]?.thought_signature, 'sig-1');
    assert.equal(choice?.message.tool_calls?.[0]?.function.arguments, '{"city":"Bern"}');
    assert.deepEqual(res.usage, { prompt_tokens: 9, completion_tokens: 10, total_tokens: 19 });
  });

  it('reports safety stops and blocked prompts as content_filter', () => {
    const stopped = fromGeminiResponse(
      { candidates: [{ content: { parts: [] }, finishReason: 'SAFETY' }] },
      { model: 'g', messages: [] },
    );
    assert.equal(stopped.choices[0]?.finish_reason, 'content_filter');
    const blocked = fromGeminiResponse(
      { promptFeedback: { blockReason: 'SAFETY' } },
      { model: 'g', messages: [] },
    );
    assert.equal(blocked.choices[0]?.finish_reason, 'content_filter');
  });

  it('maps an unfinished end (OTHER, MALFORMED_FUNCTION_CALL, an unknown reason) to length: fail closed', () => {
    for (const reason of ['OTHER', 'MALFORMED_FUNCTION_CALL', 'FINISH_REASON_UNSPECIFIED', 'SOMETHING_NEW']) {
      const res = fromGeminiResponse(
        { candidates: [{ content: { parts: [{ text: 'Pay to DE89 3704' }] }, finishReason: reason }] },
        { model: 'g', messages: [] },
      );
      assert.equal(res.choices[0]?.finish_reason, 'length', reason);
    }
    const lang = fromGeminiResponse(
      { candidates: [{ content: { parts: [] }, finishReason: 'LANGUAGE' }] },
      { model: 'g', messages: [] },
    );
    assert.equal(lang.choices[0]?.finish_reason, 'content_filter');
  });
});

describe('gemini adapter over HTTP', () => {
  let fake: FakeProviderServer;
  let adapter: ProviderAdapter;
  before(async () => {
    fake = await startFakeProviderServer();
    const a = createProviders({ baseUrls: fake.baseUrls }).get('google');
    assert.ok(a);
    adapter = a;
  });
  after(() => fake.close());
  beforeEach(() => fake.reset());

  it('calls generateContent with the key in a header, never in the URL', async () => {
    await adapter.chat(
      { model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] },
      { apiKey: 'g-key' },
    );
    const sent = fake.lastRequest();
    assert.equal(sent?.path, '/google/v1beta/models/gemini-2.5-flash:generateContent');
    assert.equal(sent?.headers['x-goog-api-key'], 'g-key');
    assert.ok(!sent?.url.includes('g-key'));
  });

  it('streams with streamGenerateContent?alt=sse and gives each whole function call its own index', async () => {
    fake.setBehavior({
      reply: '',
      toolCalls: [
        { name: 'weather', arguments: { city: 'Bern' } },
        { name: 'weather', arguments: { city: 'Chur' } },
      ],
    });
    const res = await collectStream(
      adapter.stream(
        { model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] },
        { apiKey: 'k' },
      ),
    );
    const sent = fake.lastRequest();
    assert.equal(sent?.path, '/google/v1beta/models/gemini-2.5-flash:streamGenerateContent');
    assert.equal(sent?.query['alt'], 'sse');
    const calls = res.choices[0]?.message.tool_calls ?? [];
    assert.deepEqual(
      calls.map((c) => JSON.parse(c.function.arguments)),
      [{ city: 'Bern' }, { city: 'Chur' }],
    );
    assert.notEqual(calls[0]?.id, calls[1]?.id);
    assert.equal(res.choices[0]?.finish_reason, 'tool_calls');
  });
});
