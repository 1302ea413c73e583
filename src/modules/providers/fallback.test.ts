import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type FakeProviderServer, startFakeProviderServer } from '../../../test/fakes/provider-server.js';
import {
  type Attempt,
  chatWithFallback,
  collectStream,
  createProviders,
  openStreamWithFallback,
  type ProviderAdapter,
  ProviderError,
  type Providers,
} from './index.js';

describe('fallback before the first byte', () => {
  let fake: FakeProviderServer;
  let providers: Providers;
  before(async () => {
    fake = await startFakeProviderServer();
    providers = createProviders({ baseUrls: fake.baseUrls });
  });
  after(() => fake.close());
  beforeEach(() => fake.reset());

  const attempt = (id: string, model: string): Attempt => {
    const adapter = providers.get(id) as ProviderAdapter;
    return {
      adapter,
      request: { model, messages: [{ role: 'user', content: 'fall back please' }] },
      ctx: { apiKey: 'k' },
    };
  };

  it('chat moves on after a 429 and reports what failed', async () => {
    fake.queue({ status: 429 });
    const r = await chatWithFallback([
      attempt('openai', 'gpt-4o-mini'),
      attempt('anthropic', 'claude-haiku-4-5'),
    ]);
    assert.equal(r.attempt, 1);
    assert.equal(r.errors[0]?.status, 429);
    assert.equal(r.value.choices[0]?.message.content, 'fall back please');
    assert.deepEqual(
      fake.requests.map((q) => q.provider),
      ['openai', 'anthropic'],
    );
  });

  it('chat does not fall back on a 401', async () => {
    fake.queue({ status: 401 });
    await assert.rejects(
      chatWithFallback([attempt('openai', 'gpt-4o-mini'), attempt('anthropic', 'claude-haiku-4-5')]),
      (e: unknown) => e instanceof ProviderError && e.status === 401,
    );
    assert.equal(fake.requests.length, 1);
  });

  it('stream falls back when the first attempt fails before its first chunk', async () => {
    fake.queue({ dropConnection: true });
    const r = await openStreamWithFallback([
      attempt('google', 'gemini-2.5-flash'),
      attempt('cohere', 'command-r-08-2024'),
    ]);
    assert.equal(r.attempt, 1);
    assert.equal(r.errors[0]?.code, 'network_error');
    const res = await collectStream(r.value);
    assert.equal(res.choices[0]?.message.content, 'fall back please');
  });

  it('stream errors after the first chunk are the caller’s, not another fallback', async () => {
    fake.setBehavior({ errorAfterChunks: 1, chunkSize: 3 });
    const r = await openStreamWithFallback([
      attempt('openai', 'gpt-4o-mini'),
      attempt('groq', 'llama-3.1-8b-instant'),
    ]);
    assert.equal(r.attempt, 0);
    await assert.rejects(
      collectStream(r.value),
      (e: unknown) => e instanceof ProviderError && e.code === 'stream_error',
    );
    assert.equal(fake.requests.length, 1);
  });

  it('stopping the resumed stream early cancels the upstream request', async () => {
    fake.setBehavior({ chunkSize: 2, chunkDelayMs: 20 });
    const r = await openStreamWithFallback([attempt('mistral', 'mistral-small-latest')]);
    for await (const c of r.value) {
      if (c.choices[0]?.delta.content) break;
    }
    await fake.waitFor(() => fake.lastRequest()?.closedEarly === true);
  });
});
