import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type FakeProviderServer, startFakeProviderServer } from './provider-server.js';

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe('fake provider server (raw wire)', () => {
  let fake: FakeProviderServer;
  before(async () => {
    fake = await startFakeProviderServer();
  });
  after(() => fake.close());
  beforeEach(() => fake.reset());

  it('records headers and bodies and labels the provider from the base URL', async () => {
    await post(
      `${fake.baseUrls.groq}/chat/completions`,
      { model: 'm', messages: [] },
      { authorization: 'Bearer x' },
    );
    const r = fake.lastRequest();
    assert.equal(r?.provider, 'groq');
    assert.equal(r?.format, 'openai');
    assert.equal(r?.headers['authorization'], 'Bearer x');
    assert.deepEqual(r?.body, { model: 'm', messages: [] });
    assert.equal(r?.completed, true);
  });

  it('streams OpenAI SSE chunks ending with data: [DONE]', async () => {
    const res = await post(`${fake.baseUrls.openai}/chat/completions`, {
      model: 'm',
      stream: true,
      messages: [{ role: 'user', content: 'echo me' }],
    });
    assert.equal(res.headers.get('content-type'), 'text/event-stream');
    assert.ok(res.text.endsWith('data: [DONE]\n\n'));
    const content = res.text
      .split('\n\n')
      .filter((f) => f.startsWith('data: {'))
      .map((f) => JSON.parse(f.slice(6)).choices[0]?.delta?.content ?? '')
      .join('');
    assert.equal(content, 'echo me');
  });

  it('streams Anthropic named events in order', async () => {
    const res = await post(`${fake.baseUrls.anthropic}/v1/messages`, {
      model: 'c',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const events = [...res.text.matchAll(/^event: (\S+)$/gm)].map((m) => m[1]);
    assert.deepEqual(events, [
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
  });

  it('streams Gemini as CRLF SSE with alt=sse and as a JSON array without it', async () => {
    const path = `${fake.baseUrls.google}/v1beta/models/g:streamGenerateContent`;
    const body = { contents: [{ role: 'user', parts: [{ text: 'hello gemini' }] }] };
    const sse = await post(`${path}?alt=sse`, body);
    assert.ok(sse.text.includes('\r\n\r\n'));
    assert.ok(!sse.text.includes('[DONE]'));
    const array = await post(path, body);
    const parsed = JSON.parse(array.text) as Array<{
      candidates: Array<{ content: { parts: Array<{ text?: string }> } }>;
    }>;
    assert.equal(parsed.map((c) => c.candidates[0]?.content.parts[0]?.text ?? '').join(''), 'hello gemini');
  });

  it('streams Cohere v2 typed events', async () => {
    const res = await post(`${fake.baseUrls.cohere}/v2/chat`, {
      model: 'c',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const types = [...res.text.matchAll(/"type":"([a-z-]+)"/g)].map((m) => m[1]);
    assert.deepEqual(types.slice(0, 2), ['message-start', 'content-start']);
    assert.equal(types[types.length - 1], 'message-end');
  });

  it('serves queued behaviours once, in order, before the default', async () => {
    fake.setBehavior({ reply: 'default' });
    fake.queue({ status: 429, retryAfter: 3 }, { reply: 'second' });
    const url = `${fake.baseUrls.openai}/chat/completions`;
    const first = await post(url, { model: 'm', messages: [] });
    assert.equal(first.status, 429);
    assert.equal(first.headers.get('retry-after'), '3');
    assert.equal(JSON.parse(first.text).error.code, 'rate_limit_exceeded');
    assert.equal(
      JSON.parse((await post(url, { model: 'm', messages: [] })).text).choices[0].message.content,
      'second',
    );
    assert.equal(
      JSON.parse((await post(url, { model: 'm', messages: [] })).text).choices[0].message.content,
      'default',
    );
  });

  it('answers 404 for paths no provider serves', async () => {
    const res = await post(`${fake.url}/nowhere`, {});
    assert.equal(res.status, 404);
    assert.equal(fake.lastRequest()?.format, 'unknown');
  });
});
