// The optional LLM judge of POST /api/v1/hallucination (`mode: "llm"`), against the fake provider server: a
// real HTTP server speaking OpenAI's wire format on loopback.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { FakeProviderServer } from '../fakes/provider-server.js';
import type { Tenant, TestServer } from '../support/harness.js';
import { startGatewayServer } from './gateway-support.js';

let t: TestServer;
let fake: FakeProviderServer;
let keyed: Tenant;
let bare: Tenant;

const EMAIL = 'jane.doe@example.com';
const SOURCES = [
  `The support desk of Lumen Ltd answers at ${EMAIL} and closes at six in the evening.`,
  'Lumen Ltd was founded in Basel in 2011 and employs 240 people.',
];
// Said in other words than the source.
const PARAPHRASE = `Customers of Lumen Ltd can write to ${EMAIL} until 6 pm.`;

const check = (tenant: Tenant, body: Record<string, unknown>) =>
  t.request('POST', '/api/v1/hallucination', { key: tenant.al, body });

before(async () => {
  ({ t, fake } = await startGatewayServer());
  keyed = await t.tenant({ name: 'Judged' });
  bare = await t.tenant({ name: 'Offline only' });
  const owner = await keyed.session('owner');
  const put = await t.request('PUT', '/api/dashboard/gateway/providers/openai', {
    cookie: owner,
    body: { apiKey: 'sk-judge-key-0123456789' },
  });
  assert.equal(put.status, 200, put.text);
});
after(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => fake.reset());

describe('mode llm', () => {
  it('asks the configured provider with tokenized text and takes its verdict', async () => {
    const local = await check(keyed, { claim: PARAPHRASE, sources: SOURCES });
    assert.equal(local.status, 200, local.text);
    assert.equal(local.body.mode, 'local');
    assert.equal(fake.requests.length, 0, 'local mode calls no provider');

    // The model is told to disagree with the local checker, so its verdict visibly wins.
    const localSupported = local.body.verdict === 'supported';
    fake.queue({ reply: localSupported ? '1: NOT_ENOUGH_INFO' : '1: SUPPORTED' });
    const res = await check(keyed, { claim: PARAPHRASE, sources: SOURCES, mode: 'llm' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.mode, 'llm');
    const expected = localSupported ? 'unsupported' : 'supported';
    assert.equal(res.body.verdict, expected);
    assert.equal(res.body.claims[0].verdict, expected);
    assert.equal(res.body.evidence[0].verdict, expected);
    assert.match(res.body.judge.model, /^openai\//);
    assert.equal(fake.requests.length, 1);
    const sent = fake.lastRequest()!;
    assert.equal(sent.headers['authorization'], 'Bearer sk-judge-key-0123456789');
    const text = JSON.stringify(sent.body);
    assert.ok(!text.includes(EMAIL), 'personal data is tokenized before it leaves');
    assert.ok(text.includes('support desk of Lumen Ltd'), 'the best evidence is sent with the claim');
    // One token map for the request: the same address is the same token in claim and evidence.
    const tokens = text.match(/\[?[A-Z_]*EMAIL[A-Z_0-9]*\]?|TKN_[A-Za-z0-9_]+/g) ?? [];
    assert.ok(tokens.length >= 2, `tokens in ${text}`);
    assert.equal(new Set(tokens).size, 1);
  });

  it('keeps the local verdict when the model contradicts it… and says contradicted when the model does', async () => {
    fake.queue({ reply: '**1:** CONTRADICTED' });
    const res = await check(keyed, {
      claim: 'Lumen Ltd was founded in Basel in 2011.',
      sources: SOURCES,
      mode: 'llm',
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.mode, 'llm');
    assert.equal(res.body.verdict, 'contradicted');
    assert.ok(res.body.score <= 0.25);
  });

  it('falls back to the local verdict, and says why, when the provider fails or answers nonsense', async () => {
    const local = await check(keyed, { claim: PARAPHRASE, sources: SOURCES });
    fake.setBehavior({ status: 500, errorMessage: 'upstream down' });
    const failed = await check(keyed, { claim: PARAPHRASE, sources: SOURCES, mode: 'llm' });
    assert.equal(failed.status, 200, failed.text);
    assert.equal(failed.body.mode, 'local');
    assert.equal(failed.body.judge.fallback, 'provider_error');
    assert.equal(failed.body.verdict, local.body.verdict);
    assert.ok(fake.requests.length >= 1);

    fake.reset();
    fake.setBehavior({ reply: 'It depends on what you mean.' });
    const unreadable = await check(keyed, { claim: PARAPHRASE, sources: SOURCES, mode: 'llm' });
    assert.equal(unreadable.body.mode, 'local');
    assert.equal(unreadable.body.judge.fallback, 'unreadable_answer');
    assert.equal(unreadable.body.verdict, local.body.verdict);
  });

  it('works offline for an organization without a provider: local verdict, fallback no_provider', async () => {
    const res = await check(bare, { claim: PARAPHRASE, sources: SOURCES, mode: 'llm' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.mode, 'local');
    assert.equal(res.body.judge.fallback, 'no_provider');
    assert.equal(fake.requests.length, 0);
  });

  it('never overrides a stored correction', async () => {
    const stored = await t.request('POST', '/api/v1/hallucination/correct', {
      key: keyed.al,
      body: {
        originalClaim: 'Lumen Ltd employs 240 people.',
        correctedClaim: 'Lumen Ltd employs 310 people.',
        source: 'HR report 2026',
      },
    });
    assert.equal(stored.status, 201, stored.text);
    fake.setBehavior({ reply: '1: SUPPORTED' });
    const res = await check(keyed, { claim: 'Lumen Ltd employs 240 people.', sources: SOURCES, mode: 'llm' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.verdict, 'contradicted');
    assert.equal(res.body.corrections[0].correctionId, stored.body.id);
    assert.ok(res.body.evidence.every((e: any) => e.source_index >= 0));
    assert.equal(fake.requests.length, 0, 'nothing to ask: the correction decided');
    await t.request('DELETE', `/api/v1/hallucination/corrections/${stored.body.id}`, { key: keyed.al });
  });

  it('refuses an unknown mode or model with 400 naming the field', async () => {
    const mode = await check(keyed, { claim: PARAPHRASE, sources: SOURCES, mode: 'oracle' });
    assert.equal(mode.status, 400);
    assert.match(mode.body.message, /mode/);
    const model = await check(keyed, { claim: PARAPHRASE, sources: SOURCES, mode: 'llm', model: 'acme/x-1' });
    assert.equal(model.status, 400);
    assert.match(model.body.message, /'model'/);
  });
});

describe('organization default mode', () => {
  it('an admin sets llm as the default; a request may still ask for local', async () => {
    const owner = await keyed.session('owner');
    const initial = await t.request('GET', '/api/dashboard/hallucination/settings', { cookie: owner });
    assert.equal(initial.status, 200, initial.text);
    assert.deepEqual(initial.body, { mode: 'local' });
    const put = await t.request('PUT', '/api/dashboard/hallucination/settings', {
      cookie: owner,
      body: { mode: 'llm', model: 'openai/gpt-4o-mini' },
    });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.body, { mode: 'llm', model: 'openai/gpt-4o-mini' });
    const bad = await t.request('PUT', '/api/dashboard/hallucination/settings', {
      cookie: owner,
      body: { mode: 'llm', model: 'nobody/nothing' },
    });
    assert.equal(bad.status, 400);
    assert.match(bad.body.message, /'model'/);

    fake.queue({ reply: '1: SUPPORTED' });
    const byDefault = await check(keyed, { claim: PARAPHRASE, sources: SOURCES });
    assert.equal(byDefault.body.mode, 'llm');
    assert.equal(byDefault.body.judge.model, 'openai/gpt-4o-mini');
    assert.equal((fake.lastRequest()!.body as { model?: string }).model, 'gpt-4o-mini');

    fake.reset();
    const local = await check(keyed, { claim: PARAPHRASE, sources: SOURCES, mode: 'local' });
    assert.equal(local.body.mode, 'local');
    assert.equal(fake.requests.length, 0);

    const member = await keyed.session('member');
    const denied = await t.request('PUT', '/api/dashboard/hallucination/settings', {
      cookie: member,
      body: { mode: 'local' },
    });
    assert.equal(denied.status, 403);
  });
});
