import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { FakeProviderId, FakeProviderServer } from '../fakes/provider-server.js';
import type { Tenant, TestServer } from '../support/harness.js';
import { sseEvents, startGatewayServer } from './gateway-support.js';

let t: TestServer;
let fake: FakeProviderServer;
let mine: Tenant;

const EMAIL = 'marc.dubois@example.org';
const PII = `Contact ${EMAIL} before Friday.`;

const MODELS: Record<FakeProviderId, string> = {
  openai: 'gpt-4o-mini',
  azure: 'gpt-4o-mini',
  anthropic: 'claude-haiku-4-5',
  google: 'gemini-2.0-flash',
  mistral: 'mistral-small-latest',
  cohere: 'command-r',
  openrouter: 'openai/gpt-4o-mini',
  together: 'meta-llama/Llama-3.3-70B-Instruct-Turbo',
  fireworks: 'accounts/fireworks/models/llama-v3p1-8b-instruct',
  groq: 'llama-3.1-8b-instant',
};

before(async () => {
  ({ t, fake } = await startGatewayServer());
  mine = await t.tenant({ name: 'Proxy org' });
});
after(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => fake.reset());

function proxy(provider: string, body: unknown, extra: Record<string, string> = {}, tenant = mine) {
  return t.request('POST', `/api/v1/proxy/${provider}/v1/chat/completions`, {
    headers: {
      authorization: 'Bearer caller-provider-key',
      'x-service-key': tenant.al,
      'x-service-organization': tenant.org.id,
      ...extra,
    },
    body,
  });
}

function streamedText(text: string): { content: string; args: Map<number, string>; chunks: any[] } {
  const chunks = sseEvents(text)
    .filter((e) => e.data !== '[DONE]')
    .map((e) => e.json);
  let content = '';
  const args = new Map<number, string>();
  for (const c of chunks) {
    for (const choice of c.choices ?? []) {
      if (typeof choice.delta?.content === 'string') content += choice.delta.content;
      for (const tc of choice.delta?.tool_calls ?? []) {
        args.set(tc.index, (args.get(tc.index) ?? '') + (tc.function?.arguments ?? ''));
      }
    }
  }
  return { content, args, chunks };
}

describe('provider proxy, every provider against the fake', () => {
  for (const provider of Object.keys(MODELS) as FakeProviderId[]) {
    const model = MODELS[provider];
    const messages = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: PII },
    ];

    it(`${provider}: tokenizes upstream, rehydrates the answer, sets the x-svc headers`, async () => {
      const res = await proxy(provider, { model, messages });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.object, 'chat.completion');
      assert.equal(res.body.choices[0].message.content, PII);
      const up = fake.lastRequest();
      assert.equal(up?.provider, provider);
      assert.ok(!JSON.stringify(up?.body).includes(EMAIL), 'the original never leaves');
      assert.match(JSON.stringify(up?.body), /TKN_EMAIL_/);
      assert.match(res.headers.get('x-svc-vault-session') ?? '', /^sess_/);
      assert.equal(res.headers.get('x-svc-tokenized-count'), '1');
      assert.equal(res.headers.get('x-svc-rehydrated-count'), '1');
      assert.match(res.headers.get('server-timing') ?? '', /app;dur=.*dlp;dur=.*upstream;dur=/);
      const auth = JSON.stringify(up?.headers);
      assert.ok(auth.includes('caller-provider-key'), 'the caller key is passed through');
    });

    it(`${provider}: streams OpenAI chunks, rehydrated, ending with [DONE]`, async () => {
      fake.setBehavior({ chunkSize: 3 });
      const res = await proxy(provider, { model, messages, stream: true });
      assert.equal(res.status, 200, res.text);
      assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
      assert.ok(res.headers.get('x-ratelimit-limit'));
      assert.match(res.headers.get('x-svc-vault-session') ?? '', /^sess_/);
      const events = sseEvents(res.text);
      assert.equal(events[events.length - 1]?.data, '[DONE]');
      const { content, chunks } = streamedText(res.text);
      assert.equal(content, PII);
      assert.ok(chunks.every((c) => c.object === 'chat.completion.chunk'));
      // The adapter asks the provider for usage to bill it, but OpenAI sends the usage-only chunk (with
      // empty choices) only to callers that ask for it: clients reading choices[0] of every chunk break.
      assert.ok(
        chunks.every((c) => c.choices.length > 0 && !c.usage),
        'no usage chunk the caller did not ask for',
      );
      const asked = await proxy(provider, {
        model,
        messages,
        stream: true,
        stream_options: { include_usage: true },
      });
      assert.equal(asked.status, 200, asked.text);
      const usageChunks = streamedText(asked.text).chunks.filter((c) => c.usage);
      assert.equal(usageChunks.length, 1, asked.text);
      assert.deepEqual(usageChunks[0]!.choices, []);
    });

    it(`${provider}: relays tool calls, plain and streamed`, async () => {
      const toolCalls = [{ name: 'lookup_weather', arguments: { city: 'Bern', unit: 'C' } }];
      fake.setBehavior({ toolCalls });
      const plain = await proxy(provider, { model, messages });
      assert.equal(plain.status, 200, plain.text);
      const call = plain.body.choices[0].message.tool_calls[0];
      assert.equal(call.function.name, 'lookup_weather');
      assert.deepEqual(JSON.parse(call.function.arguments), toolCalls[0]!.arguments);
      const streamed = await proxy(provider, { model, messages, stream: true });
      const { args } = streamedText(streamed.text);
      assert.deepEqual(JSON.parse(args.get(0) ?? ''), toolCalls[0]!.arguments);
    });

    it(`${provider}: relays an upstream error with its status and the provider's own body`, async () => {
      fake.setBehavior({ status: 429, retryAfter: 7, errorMessage: 'slow down' });
      const res = await proxy(provider, { model, messages });
      assert.equal(res.status, 429, res.text);
      assert.equal(res.body.statusCode, undefined, 'not our error body');
      assert.ok(res.text.includes('slow down'));
      assert.equal(res.headers.get('retry-after'), '7');
      assert.match(res.headers.get('server-timing') ?? '', /dlp;dur=.*upstream;dur=/);
      const streamed = await proxy(provider, { model, messages, stream: true });
      assert.equal(streamed.status, 429, 'a stream that fails before its first byte keeps the status');
      assert.match(streamed.headers.get('server-timing') ?? '', /dlp;dur=.*upstream;dur=/);
    });
  }
});

describe('provider proxy, fields and failures', () => {
  it("keeps no copy of a request's session in the vault's cache: it is read from the database when asked for", async () => {
    // The DLP API's session is cached: with its rows gone from the database, this process still answers
    // from memory (until REVALIDATE_MS), which is what shows that the proxy's absence below is no accident.
    const analyzed = await t.request('POST', '/api/v1/dlp/analyze', { key: mine.al, body: { text: PII } });
    const proxied = await proxy('openai', {
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: PII }],
    });
    assert.equal(proxied.status, 200, proxied.text);
    const cached = analyzed.body.sessionId as string;
    const uncached = proxied.headers.get('x-svc-vault-session') ?? '';
    assert.match(uncached, /^sess_/);
    // What an erasure by another process leaves behind: the rows are gone, this process was not told.
    for (const id of [cached, uncached]) {
      await t.ctx.storage.db.deleteFrom('dlp_tokens').where('session_id', '=', id).execute();
      await t.ctx.storage.db.deleteFrom('dlp_sessions').where('id', '=', id).execute();
    }
    assert.equal((await t.ctx.vault.session(mine.org.id, cached)).id, cached);
    await assert.rejects(t.ctx.vault.session(mine.org.id, uncached), { code: 'not_found' });
  });

  it('tokenizes every text field (roles, parts, tool-call arguments, tool results) but not thinking blocks', async () => {
    const body = {
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: `Agent for ${EMAIL}` },
        {
          role: 'user',
          content: [
            { type: 'text', text: PII },
            { type: 'thinking', thinking: `note ${EMAIL}`, signature: 'sig-abc' },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'mail', arguments: JSON.stringify({ to: EMAIL, n: 2 }) },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: `sent to ${EMAIL}` },
      ],
    };
    const res = await proxy('openai', body);
    assert.equal(res.status, 200, res.text);
    const up = fake.lastRequest()?.body as any;
    assert.ok(!up.messages[0].content.includes(EMAIL));
    assert.ok(!up.messages[1].content[0].text.includes(EMAIL));
    assert.equal(up.messages[1].content[1].thinking, `note ${EMAIL}`, 'thinking blocks are left untouched');
    assert.equal(up.messages[1].content[1].signature, 'sig-abc');
    const args = JSON.parse(up.messages[2].tool_calls[0].function.arguments);
    assert.match(args.to, /^TKN_EMAIL_/);
    assert.equal(args.n, 2);
    assert.ok(!up.messages[3].content.includes(EMAIL));
    const tokens = new Set(JSON.stringify(up).match(/TKN_EMAIL_[0-9a-z]+/g));
    assert.equal(tokens.size, 1, 'one value, one token, in every field');
    assert.equal(res.headers.get('x-svc-tokenized-count'), '4');
  });

  it('restores a token split at every chunk boundary', async () => {
    for (let size = 1; size <= 14; size++) {
      fake.setBehavior({ chunkSize: size });
      const res = await proxy('openai', {
        model: 'gpt-4o-mini',
        stream: true,
        messages: [{ role: 'user', content: PII }],
      });
      assert.equal(streamedText(res.text).content, PII, `chunk size ${size}`);
    }
  });

  it('sends no vault session for a request without personal data', async () => {
    const res = await proxy('openai', {
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'What is 2+2?' }],
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-svc-vault-session'), null);
    assert.equal(res.headers.get('x-svc-tokenized-count'), '0');
  });

  it('maps the service itself to the offline model, on both paths', async () => {
    for (const path of [
      '/api/v1/proxy/parapet/v1/chat/completions',
      '/v1/proxy/service/v1/chat/completions',
    ]) {
      const res = await t.request('POST', path, {
        headers: { 'x-service-key': mine.sw, 'x-service-organization': mine.org.id },
        body: { model: 'parapet-offline-echo', messages: [{ role: 'user', content: PII }] },
      });
      assert.equal(res.status, 200, res.text);
      assert.ok(res.body.choices[0].message.content.includes(EMAIL));
    }
  });

  it('answers 400 for an unknown provider and for a missing provider key', async () => {
    const unknown = await proxy('skynet', { model: 'x', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error, 'invalid_request');
    const keyless = await t.request('POST', '/api/v1/proxy/openai/v1/chat/completions', {
      headers: { 'x-service-key': mine.al, 'x-service-organization': mine.org.id },
      body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
    });
    assert.equal(keyless.status, 400);
    assert.equal(fake.requests.length, 0);
  });

  it('refuses a Parapet key given as the provider key, and never sends it', async () => {
    const given: Array<Record<string, string>> = [
      { authorization: `Bearer ${mine.al}` },
      { authorization: '', 'api-key': mine.sw },
    ];
    for (const headers of given) {
      const res = await proxy(
        'openai',
        { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
        headers,
      );
      assert.equal(res.status, 400, res.text);
      assert.match(res.body.message, /Parapet key/);
      assert.ok(!res.text.includes(mine.al) && !res.text.includes(mine.sw));
    }
    assert.equal(fake.requests.length, 0);
    // Nor stored as the organization's provider key, which the chat would send.
    const cookie = await mine.session('owner');
    const put = await t.request('PUT', '/api/dashboard/gateway/providers/openai', {
      cookie,
      body: { apiKey: mine.al },
    });
    assert.equal(put.status, 400, put.text);
    assert.match(put.body.message, /Parapet key/);
  });

  it('answers 401 when X-Service-Organization is not the key organization', async () => {
    const other = await t.tenant({ name: 'Someone else' });
    const res = await proxy(
      'openai',
      { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
      {
        'x-service-organization': other.org.id,
      },
    );
    assert.equal(res.status, 401);
    assert.equal(res.body.error, 'unauthorized');
  });

  it('answers in our own error shape when the provider cannot be reached', async () => {
    fake.setBehavior({ dropConnection: true });
    const res = await proxy('openai', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(res.status, 502);
    assert.equal(res.body.error, 'upstream_error');
  });

  it('a vault write that fails after the request went up (tokenized): no answer reaches the client', async () => {
    // The commit runs while the provider answers; the answer waits for it. A missing table makes it fail.
    await sql`alter table dlp_tokens rename to dlp_tokens_away`.execute(t.ctx.storage.db);
    try {
      for (const stream of [false, true]) {
        const res = await proxy('openai', {
          model: 'gpt-4o-mini',
          ...(stream ? { stream: true } : {}),
          messages: [{ role: 'user', content: PII }],
        });
        assert.equal(res.status, 500, res.text);
        assert.ok(!res.text.includes(EMAIL), res.text);
        assert.equal(res.headers.get('x-svc-vault-session'), null);
      }
      assert.equal(fake.requests.length, 2, 'the tokenized requests were sent');
      assert.ok(!JSON.stringify(fake.requests).includes(EMAIL), 'never in clear');
    } finally {
      await sql`alter table dlp_tokens_away rename to dlp_tokens`.execute(t.ctx.storage.db);
    }
  });

  it('a provider failure waits for the vault write too: its answer never names a session not stored', async () => {
    // The provider's error carries x-svc-vault-session like an answer: the commit must be known first, and
    // a failed commit is the request's answer (500, no session), as when the provider answered.
    fake.setBehavior({ status: 429, retryAfter: 7, errorMessage: 'slow down' });
    await sql`alter table dlp_tokens rename to dlp_tokens_away`.execute(t.ctx.storage.db);
    try {
      for (const stream of [false, true]) {
        const res = await proxy('openai', {
          model: 'gpt-4o-mini',
          ...(stream ? { stream: true } : {}),
          messages: [{ role: 'user', content: PII }],
        });
        assert.equal(res.status, 500, res.text);
        assert.equal(res.headers.get('x-svc-vault-session'), null);
      }
      assert.equal(fake.requests.length, 2, 'the tokenized requests were sent');
    } finally {
      await sql`alter table dlp_tokens_away rename to dlp_tokens`.execute(t.ctx.storage.db);
    }
    // With the vault working, the provider's error names a session that is stored.
    const res = await proxy('openai', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: PII }] });
    assert.equal(res.status, 429, res.text);
    const id = res.headers.get('x-svc-vault-session') ?? '';
    assert.match(id, /^sess_/);
    const row = await t.ctx.storage.db
      .selectFrom('dlp_sessions')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    assert.equal(row?.id, id);
  });

  it('puts a mid-stream failure in-band, in the OpenAI error shape', async () => {
    fake.setBehavior({ chunkSize: 2, errorAfterChunks: 3 });
    const res = await proxy('openai', {
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: PII }],
    });
    assert.equal(res.status, 200);
    const last = sseEvents(res.text).pop();
    assert.ok(last?.json?.error, res.text);
  });

  it('counts streamed requests against the netproxy quota', async () => {
    const before = (await t.ctx.limits.usage(mine.org, 'netproxy')).requestsUsed;
    await proxy('openai', {
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    assert.equal((await t.ctx.limits.usage(mine.org, 'netproxy')).requestsUsed, before + 1);
    const rows = await t.ctx.gateway.usage.recent(mine.org.id, 5);
    assert.ok(rows.some((r) => r.endpoint === 'proxy' && r.usage_source === 'provider'));
  });

  it('records a provider call that failed before answering as error, whole and streamed', async () => {
    const known = new Set((await t.ctx.gateway.usage.recent(mine.org.id, 1000)).map((r) => r.id));
    fake.setBehavior({ status: 500, errorMessage: 'upstream broke' });
    const messages = [{ role: 'user', content: 'hi' }];
    assert.equal((await proxy('openai', { model: 'gpt-4o-mini', messages })).status, 500);
    assert.equal((await proxy('openai', { model: 'gpt-4o-mini', messages, stream: true })).status, 500);
    const rows = (await t.ctx.gateway.usage.recent(mine.org.id, 1000)).filter((r) => !known.has(r.id));
    assert.deepEqual(
      rows.map((r) => [r.endpoint, r.model, r.outcome, r.prompt_tokens, r.completion_tokens, r.cost]),
      [
        ['proxy', 'openai/gpt-4o-mini', 'error', 0, 0, 0],
        ['proxy', 'openai/gpt-4o-mini', 'error', 0, 0, 0],
      ],
    );
  });

  it('refuses once the monthly quota is spent, before streaming', async () => {
    const free = await t.tenant({ plan: 'free', name: 'Free org' });
    for (let i = 0; i < 1000; i++) await t.ctx.limits.consume(free.org, 'netproxy');
    const res = await proxy(
      'openai',
      { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hi' }] },
      {},
      free,
    );
    assert.equal(res.status, 403);
    assert.equal(res.body.error, 'quota_exceeded');
    assert.ok(res.headers.get('x-ratelimit-limit'));
  });
});

describe('force mode', () => {
  it('only owners and admins switch it; while on, the proxy answers 403 gateway_force_blocked', async () => {
    const org = await t.tenant({ name: 'Forced org' });
    const body = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] };
    for (const role of ['member', 'viewer'] as const) {
      const res = await t.request('POST', '/api/dashboard/gateway/force', {
        cookie: await org.session(role),
        body: { enabled: true },
      });
      assert.equal(res.status, 403, role);
      assert.equal(res.body.error, 'forbidden');
    }
    for (const role of ['owner', 'admin'] as const) {
      const cookie = await org.session(role);
      const on = await t.request('POST', '/api/dashboard/gateway/force', { cookie, body: { enabled: true } });
      assert.equal(on.status, 200, on.text);
      assert.equal(on.body.success, true);
      assert.equal(on.body.enabled, true);
      assert.match(on.body.enabledAt, /^\d{4}-\d\d-\d\dT/);
      for (const viewer of ['viewer', 'member', role] as const) {
        const status = await t.request('GET', '/api/dashboard/gateway/force', {
          cookie: await org.session(viewer),
        });
        assert.equal(status.status, 200);
        assert.equal(status.body.enabled, true);
        assert.equal(status.body.config.blockDirectProxy, true);
        assert.deepEqual(status.body.config.allowedEndpoints, ['/api/v1/gateway/chat']);
        assert.match(status.body.enabledBy, /^usr_/);
      }
      const blocked = await proxy('openai', body, {}, org);
      assert.equal(blocked.status, 403);
      assert.equal(blocked.body.error, 'gateway_force_blocked');
      assert.match(blocked.body.message, /\/api\/v1\/gateway\/chat/);
      const chat = await t.request('POST', '/api/v1/gateway/chat', { key: org.sw, body: { message: 'hi' } });
      assert.equal(chat.status, 200, 'the protected chat keeps working');

      const off = await t.request('POST', '/api/dashboard/gateway/force', {
        cookie,
        body: { enabled: false },
      });
      assert.equal(off.body.enabled, false);
      assert.equal(off.body.enabledAt, null);
      const open = await proxy('openai', body, {}, org);
      assert.equal(open.status, 200, open.text);
    }
    const audit = await t.ctx.storage.db
      .selectFrom('events')
      .selectAll()
      .where('org_id', '=', org.org.id)
      .where('type', '=', 'audit.force_mode')
      .execute();
    assert.equal(audit.length, 4);
    assert.ok(fake.requests.length >= 2);
  });
});
