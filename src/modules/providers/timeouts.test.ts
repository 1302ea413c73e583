import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type FakeProviderServer, startFakeProviderServer } from '../../../test/fakes/provider-server.js';
import { collectStream, createProviders, ProviderError, type Providers } from './index.js';

describe('idle timeout', () => {
  let fake: FakeProviderServer;
  let providers: Providers;
  before(async () => {
    fake = await startFakeProviderServer();
    providers = createProviders({ baseUrls: fake.baseUrls });
  });
  after(() => fake.close());
  beforeEach(() => fake.reset());

  for (const [id, model] of [
    ['openai', 'gpt-4o-mini'],
    ['anthropic', 'claude-haiku-4-5'],
  ] as const) {
    it(`${id}: gives up on a stream whose first token does not come`, async () => {
      fake.setBehavior({ firstChunkDelayMs: 10_000 });
      const adapter = providers.get(id);
      assert.ok(adapter);
      await assert.rejects(
        collectStream(
          adapter.stream(
            { model, messages: [{ role: 'user', content: 'hi' }] },
            { apiKey: 'k', idleTimeoutMs: 100 },
          ),
        ),
        (e: unknown) =>
          e instanceof ProviderError &&
          e.code === 'timeout' &&
          e.status === 504 &&
          /sent nothing/.test(e.message),
      );
      await fake.waitFor(() => fake.lastRequest()?.closedEarly === true);
    });

    it(`${id}: lets a stream that keeps flowing outlive the idle timeout`, async () => {
      // 30 frames, 20 ms apart: the whole answer takes longer than the idle limit, no gap comes close.
      fake.setBehavior({ chunkSize: 1, chunkDelayMs: 20, reply: 'abcdefghijklmnopqrstuvwxyz1234' });
      const adapter = providers.get(id);
      assert.ok(adapter);
      const res = await collectStream(
        adapter.stream(
          { model, messages: [{ role: 'user', content: 'hi' }] },
          { apiKey: 'k', idleTimeoutMs: 400 },
        ),
      );
      assert.equal(res.choices[0]?.message.content, 'abcdefghijklmnopqrstuvwxyz1234');
    });
  }
});
