import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ChatRequest, collectStream, getAdapter, OFFLINE_MODEL_ID, ProviderError } from '../index.js';
import { splitWords } from './offline.adapter.js';

const request: ChatRequest = {
  model: OFFLINE_MODEL_ID,
  messages: [
    { role: 'system', content: 'Be nice.' },
    { role: 'user', content: 'first' },
    { role: 'assistant', content: 'ok' },
    { role: 'user', content: [{ type: 'text', text: 'Send it to TKN_EMAIL_9f2c please' }] },
  ],
};

describe('offline provider (parapet-offline-echo)', () => {
  const adapter = getAdapter('parapet');

  it('answers deterministically from the last user message, keeping tokens intact', async () => {
    assert.ok(adapter);
    const a = await adapter.chat(request, { apiKey: '' });
    const b = await adapter.chat(request, { apiKey: '' });
    const text = a.choices[0]?.message.content;
    assert.equal(typeof text, 'string');
    assert.ok(String(text).includes('Send it to TKN_EMAIL_9f2c please'));
    assert.deepEqual({ ...a, created: 0 }, { ...b, created: 0 });
    assert.equal(a.model, OFFLINE_MODEL_ID);
    assert.ok((a.usage?.prompt_tokens ?? 0) > 0);
    assert.equal(a.usage?.total_tokens, (a.usage?.prompt_tokens ?? 0) + (a.usage?.completion_tokens ?? 0));
  });

  it('streams the same reply word by word, then finish and usage', async () => {
    assert.ok(adapter);
    const plain = await adapter.chat(request, { apiKey: '' });
    const streamed = await collectStream(adapter.stream(request, { apiKey: '' }));
    assert.equal(streamed.choices[0]?.message.content, plain.choices[0]?.message.content);
    assert.equal(streamed.choices[0]?.finish_reason, 'stop');
    assert.deepEqual(streamed.usage, plain.usage);
  });

  it('stops with an aborted error when the signal fires mid-stream', async () => {
    assert.ok(adapter);
    const controller = new AbortController();
    let pieces = 0;
    await assert.rejects(
      (async () => {
        for await (const c of adapter.stream(request, { apiKey: '', signal: controller.signal })) {
          if (c.choices[0]?.delta.content) pieces++;
          if (pieces === 2) controller.abort();
        }
      })(),
      (e: unknown) => e instanceof ProviderError && e.code === 'aborted',
    );
    assert.equal(pieces, 2);
  });

  it('splits text into pieces that join back exactly', () => {
    const text = '  two  spaces\nnew line end ';
    assert.equal(splitWords(text).join(''), text);
  });
});
