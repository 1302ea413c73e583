import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type FakeProviderServer, startFakeProviderServer } from '../../../../test/fakes/provider-server.js';
import { type ChatChunk, createProviders, getAdapter, ProviderError, type Providers } from '../index.js';
import { AZURE_DEFAULT_API_VERSION } from './azure.format.js';

describe('azure adapter', () => {
  let fake: FakeProviderServer;
  let providers: Providers;
  before(async () => {
    fake = await startFakeProviderServer();
    providers = createProviders({ baseUrls: fake.baseUrls });
  });
  after(() => fake.close());
  beforeEach(() => fake.reset());

  it('calls the deployment URL with api-version and the api-key header', async () => {
    const adapter = providers.get('azure');
    assert.ok(adapter);
    await adapter.chat(
      { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] },
      { apiKey: 'az-key', azure: { deployment: 'prod-4o' } },
    );
    const sent = fake.lastRequest();
    assert.equal(sent?.path, '/azure/openai/deployments/prod-4o/chat/completions');
    assert.equal(sent?.query['api-version'], AZURE_DEFAULT_API_VERSION);
    assert.equal(sent?.headers['api-key'], 'az-key');
    assert.equal(sent?.headers['authorization'], undefined);
  });

  it('uses the v1 surface with the deployment as model, and Bearer for Entra tokens', async () => {
    const adapter = providers.get('azure');
    assert.ok(adapter);
    await adapter.chat(
      { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] },
      { apiKey: 'Bearer entra-token', azure: { deployment: 'prod-4o', apiVersion: 'v1' } },
    );
    const sent = fake.lastRequest();
    assert.equal(sent?.path, '/azure/openai/v1/chat/completions');
    assert.equal((sent?.body as Record<string, unknown> | undefined)?.['model'], 'prod-4o');
    assert.equal(sent?.headers['authorization'], 'Bearer entra-token');
  });

  it('drops the choice-less filter-results chunk Azure opens streams with', async () => {
    const adapter = providers.get('azure');
    assert.ok(adapter);
    const chunks: ChatChunk[] = [];
    for await (const c of adapter.stream(
      { model: 'gpt-4o', messages: [{ role: 'user', content: 'hey' }] },
      { apiKey: 'k' },
    )) {
      chunks.push(c);
    }
    const empty = chunks.filter((c) => c.choices.length === 0);
    assert.equal(empty.length, 1, 'only the final usage chunk has no choices');
    assert.ok(empty[0]?.usage);
  });

  it('refuses to guess a resource URL when none is configured', async () => {
    const adapter = getAdapter('azure');
    assert.ok(adapter);
    await assert.rejects(
      adapter.chat({ model: 'gpt-4o', messages: [] }, { apiKey: 'k' }),
      (e: unknown) => e instanceof ProviderError && e.code === 'config_error' && !e.retryable,
    );
  });
});
