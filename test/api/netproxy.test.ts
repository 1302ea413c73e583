import { request as httpRequest } from 'node:http';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { FakeProviderServer } from '../fakes/provider-server.js';
import type { Tenant } from '../support/harness.js';
import { sseEvents } from './gateway-support.js';
import { until } from '../support/until.js';
import { parapetError, setErrorFormat, startNetProxy } from './netproxy-support.js';

// The network proxy at the HTTP level: native formats the SDK tests do not reach, the wire rules
// (compression, unknown paths, unchanged bytes) and every fault, each relayed without a hang.
const EMAIL = 'tomas.berg@example.com';
const PROMPT = `Reply to ${EMAIL} with the invoice.`;

let env: Awaited<ReturnType<typeof startNetProxy>>;
let fake: FakeProviderServer;
let mine: Tenant;

before(async () => {
  // A short idle timeout, so that the timeout case is quick; the fake answers at once otherwise.
  env = await startNetProxy({ idleTimeoutMs: 500 });
  fake = env.fake;
  mine = await env.t.tenant({ name: 'Wire rules' });
});
after(async () => env.close());
beforeEach(() => fake.reset());

function call(
  path: string,
  init: { body?: unknown; raw?: Buffer | string; headers?: Record<string, string>; method?: string } = {},
) {
  const headers: Record<string, string> = {
    'x-service-key': mine.al,
    authorization: 'Bearer sk-caller',
    ...(init.body !== undefined || init.raw !== undefined ? { 'content-type': 'application/json' } : {}),
    ...init.headers,
  };
  const body = init.raw ?? (init.body !== undefined ? JSON.stringify(init.body) : undefined);
  return fetch(`${env.proxyUrl}${path}`, {
    method: init.method ?? (body ? 'POST' : 'GET'),
    headers,
    ...(body ? { body } : {}),
  });
}

const chatBody = (extra: Record<string, unknown> = {}) => ({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: PROMPT }],
  ...extra,
});

/** One inspected operation of each provider: its path as the SDK sends it and a body with PROMPT. */
const inspectedOps = (): Array<[string, string, unknown]> => [
  ['openai', '/v1/chat/completions', chatBody()],
  ['groq', '/openai/v1/chat/completions', chatBody()],
  ['mistral', '/v1/chat/completions', chatBody()],
  [
    'anthropic',
    '/v1/messages',
    { model: 'claude', max_tokens: 5, messages: [{ role: 'user', content: PROMPT }] },
  ],
  [
    'google',
    '/v1beta/models/gemini-2.0-flash:generateContent',
    { contents: [{ role: 'user', parts: [{ text: PROMPT }] }] },
  ],
  ['cohere', '/v2/chat', { model: 'command-r', messages: [{ role: 'user', content: PROMPT }] }],
];

describe('network proxy: native formats', () => {
  it('Gemini streamGenerateContent without alt=sse: a streamed JSON array, rehydrated element by element', async () => {
    fake.setBehavior({ chunkSize: 3 });
    const res = await call('/proxy/google/v1beta/models/gemini-2.0-flash:streamGenerateContent', {
      body: { contents: [{ role: 'user', parts: [{ text: PROMPT }] }] },
      headers: { 'x-goog-api-key': 'g-key' },
    });
    assert.equal(res.status, 200);
    const items = JSON.parse(await res.text()) as Array<{
      candidates?: Array<{ content?: { parts?: Array<{ text?: string }> } }>;
    }>;
    const text = items
      .map((i) => i.candidates?.[0]?.content?.parts?.map((p) => p.text ?? '').join('') ?? '')
      .join('');
    assert.equal(text, PROMPT);
    assert.ok(!JSON.stringify(fake.lastRequest()?.body).includes(EMAIL));
  });

  it('Gemini ?key= passes through to the provider in the query', async () => {
    const res = await call('/proxy/google/v1beta/models/gemini-2.0-flash:generateContent?key=g-query-key', {
      body: { contents: [{ role: 'user', parts: [{ text: PROMPT }] }] },
    });
    assert.equal(res.status, 200, await res.text());
    assert.equal(fake.lastRequest()?.query['key'], 'g-query-key');
  });

  it('Cohere v2 stream: content-delta events rehydrated, the trailing [DONE] kept last', async () => {
    fake.setBehavior({ chunkSize: 2 });
    const res = await call('/proxy/cohere/v2/chat', {
      body: { model: 'command-r', stream: true, messages: [{ role: 'user', content: PROMPT }] },
    });
    const events = sseEvents(await res.text());
    const text = events
      .map((e) => e.json)
      .filter((j) => j?.type === 'content-delta')
      .map((j) => j.delta.message.content.text)
      .join('');
    assert.equal(text, PROMPT);
  });
});

describe('network proxy: streams read byte by byte', () => {
  // A provider's TCP segments end anywhere, inside a multi-byte character too: the rehydrated stream must
  // carry every character whole (a per-read UTF-8 decode turned each split one into two U+FFFD).
  const WIDE = `Grüße an ${EMAIL} — ça coûte 5 €, 日本語 😀 fin.`;
  const cases: Array<{
    name: string;
    path: string;
    body: unknown;
    headers?: Record<string, string>;
    text(raw: string): string;
  }> = [
    {
      name: 'OpenAI chat SSE',
      path: '/proxy/openai/v1/chat/completions',
      body: chatBody({ stream: true, messages: [{ role: 'user', content: WIDE }] }),
      text: (raw) =>
        sseEvents(raw)
          .map(
            (e) =>
              (e.json as { choices?: Array<{ delta?: { content?: string } }> })?.choices?.[0]?.delta
                ?.content ?? '',
          )
          .join(''),
    },
    {
      name: 'Anthropic Messages SSE',
      path: '/proxy/anthropic/v1/messages',
      headers: { 'x-api-key': 'a-key', 'anthropic-version': '2023-06-01' },
      body: {
        model: 'claude-3-5-haiku-latest',
        max_tokens: 64,
        stream: true,
        messages: [{ role: 'user', content: WIDE }],
      },
      text: (raw) =>
        sseEvents(raw)
          .map((e) => (e.json as { type?: string; delta?: { text?: string } })?.delta?.text ?? '')
          .join(''),
    },
    {
      name: 'Gemini SSE (CRLF)',
      path: '/proxy/google/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse',
      headers: { 'x-goog-api-key': 'g-key' },
      body: { contents: [{ role: 'user', parts: [{ text: WIDE }] }] },
      text: (raw) =>
        sseEvents(raw)
          .map(
            (e) =>
              (
                e.json as { candidates?: Array<{ content?: { parts?: Array<{ text?: string }> } }> }
              )?.candidates?.[0]?.content?.parts
                ?.map((p) => p.text ?? '')
                .join('') ?? '',
          )
          .join(''),
    },
    {
      name: 'Gemini streamed JSON array',
      path: '/proxy/google/v1beta/models/gemini-2.0-flash:streamGenerateContent',
      headers: { 'x-goog-api-key': 'g-key' },
      body: { contents: [{ role: 'user', parts: [{ text: WIDE }] }] },
      text: (raw) =>
        (JSON.parse(raw) as Array<{ candidates?: Array<{ content?: { parts?: Array<{ text?: string }> } }> }>)
          .map((i) => i.candidates?.[0]?.content?.parts?.map((p) => p.text ?? '').join('') ?? '')
          .join(''),
    },
    {
      name: 'Cohere v2 SSE',
      path: '/proxy/cohere/v2/chat',
      body: { model: 'command-r', stream: true, messages: [{ role: 'user', content: WIDE }] },
      text: (raw) =>
        sseEvents(raw)
          .map((e) => e.json as { type?: string; delta?: { message?: { content?: { text?: string } } } })
          .filter((j) => j?.type === 'content-delta')
          .map((j) => j.delta?.message?.content?.text ?? '')
          .join(''),
    },
  ];
  for (const c of cases) {
    it(`${c.name}: characters split between reads come out whole, the token restored`, async () => {
      fake.setBehavior({ chunkSize: 5, byteChunk: 1 });
      const res = await call(c.path, { body: c.body, ...(c.headers ? { headers: c.headers } : {}) });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-svc-tokenized-count'), '1');
      const raw = await res.text();
      assert.ok(!raw.includes('\uFFFD'), raw);
      assert.equal(c.text(raw), WIDE);
      assert.ok(!String(fake.lastRequest()?.raw).includes(EMAIL));
    });
  }
});

describe('network proxy: wire rules', () => {
  it('a Parapet key in a header or the query that would go to the provider is refused, nothing sent', async () => {
    const sent = fake.requests.length;
    const cases: Array<{ path: string; headers?: Record<string, string>; body: unknown }> = [
      {
        path: '/proxy/openai/v1/chat/completions',
        headers: { authorization: `Bearer ${mine.al}` },
        body: chatBody(),
      },
      { path: '/proxy/openai/v1/models', headers: { 'x-api-key': mine.al }, body: undefined },
      {
        path: '/proxy/anthropic/v1/messages',
        headers: { 'x-api-key': mine.al, 'anthropic-version': '2023-06-01' },
        body: {
          model: 'claude-3-5-haiku-latest',
          max_tokens: 8,
          messages: [{ role: 'user', content: 'hi' }],
        },
      },
      {
        path: `/proxy/google/v1beta/models/gemini-2.0-flash:generateContent?key=${encodeURIComponent(mine.al)}`,
        body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
      },
    ];
    for (const c of cases) {
      const res = await call(c.path, {
        ...(c.body !== undefined ? { body: c.body } : {}),
        ...(c.headers ? { headers: c.headers } : {}),
      });
      const text = await res.text();
      assert.equal(res.status, 400, `${c.path}: ${text}`);
      assert.match(text, /Parapet key/);
      assert.ok(!text.includes(mine.al), 'the answer does not echo the key');
    }
    assert.equal(fake.requests.length, sent, 'nothing reached the provider');
  });

  it("the provider's cookies are not relayed, whole, streamed or on a path relayed as it came", async () => {
    fake.setBehavior({ headers: { 'set-cookie': 'parapet_session=planted; Path=/' } });
    for (const body of [
      chatBody(),
      chatBody({ stream: true }),
      chatBody({ messages: [{ role: 'user', content: 'hello' }] }),
    ]) {
      const res = await call('/proxy/openai/v1/chat/completions', { body });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('set-cookie'), null);
      await res.text();
    }
  });

  it('a body without personal data is forwarded as its original bytes, headers x-svc-* zero', async () => {
    const raw = '{ "model":"gpt-4o-mini",   "messages":[{"role":"user","content":"hello there"}] }';
    const res = await call('/proxy/openai/v1/chat/completions', { raw });
    assert.equal(res.status, 200);
    assert.equal(fake.lastRequest()?.raw, raw);
    assert.equal(res.headers.get('x-svc-tokenized-count'), '0');
    assert.equal(res.headers.get('x-svc-rehydrated-count'), '0');
    assert.equal(res.headers.get('x-svc-vault-session'), null);
  });

  it('an unknown provider path is forwarded byte for byte, method and all, and the answer relayed as it came', async () => {
    const res = await call('/proxy/openai/v1/models?limit=2');
    const text = await res.text();
    assert.equal(fake.lastRequest()?.method, 'GET');
    assert.equal(fake.lastRequest()?.url, '/openai/v1/models?limit=2');
    assert.equal(res.status, 404, 'the fake has no such route: its own answer comes back');
    assert.match(text, /fake provider: no route/);
  });

  it('a gzip body is decompressed and inspected; the rewritten body goes up uncompressed with its new length', async () => {
    const res = await call('/proxy/openai/v1/chat/completions', {
      raw: gzipSync(JSON.stringify(chatBody())),
      headers: { 'content-encoding': 'gzip' },
    });
    assert.equal(res.status, 200, await res.clone().text());
    const up = fake.lastRequest();
    assert.ok(!up?.raw.includes(EMAIL));
    assert.equal(up?.headers['content-encoding'], undefined);
    assert.equal(Number(up?.headers['content-length']), Buffer.byteLength(up?.raw ?? ''));
    assert.equal(
      ((await res.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message
        .content,
      PROMPT,
    );
  });

  it('a zstd body is decompressed and inspected (fzstd on Node 20); a wide window or a bomb is refused', async () => {
    const zstd = (input: string, ...args: string[]) =>
      spawnSync('zstd', ['-q', '-c', ...args], { input: Buffer.from(input) }).stdout;
    const res = await call('/proxy/openai/v1/chat/completions', {
      raw: zstd(JSON.stringify(chatBody())),
      headers: { 'content-encoding': 'zstd' },
    });
    assert.equal(res.status, 200, await res.clone().text());
    const up = fake.lastRequest();
    assert.ok(!up?.raw.includes(EMAIL));
    assert.match(up?.raw ?? '', /TKN_EMAIL_/);
    assert.equal(up?.headers['content-encoding'], undefined);
    assert.equal(
      ((await res.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message
        .content,
      PROMPT,
    );
    fake.reset();
    const wide = await call('/proxy/openai/v1/chat/completions', {
      raw: zstd(JSON.stringify(chatBody()), '--long=24'),
      headers: { 'content-encoding': 'zstd' },
    });
    assert.equal(wide.status, 415);
    assert.match((await parapetError(wide)).message, /window/);
    const bomb = await call('/proxy/openai/v1/chat/completions', {
      raw: zstd(`{"model":"x","messages":[],"pad":"${' '.repeat(3 * 1024 * 1024)}"}`),
      headers: { 'content-encoding': 'zstd' },
    });
    assert.equal(bomb.status, 413);
    const broken = await call('/proxy/openai/v1/chat/completions', {
      raw: Buffer.from('(not zstd)'),
      headers: { 'content-encoding': 'zstd' },
    });
    assert.equal(broken.status, 400);
    assert.equal(fake.requests.length, 0);
  });

  it('an encoding it cannot read is refused, never forwarded', async () => {
    const res = await call('/proxy/openai/v1/chat/completions', {
      raw: Buffer.from('not really compressed'),
      headers: { 'content-encoding': 'compress' },
    });
    assert.equal(res.status, 415);
    assert.equal((await parapetError(res)).code, 'unsupported_media_type');
    assert.equal(fake.requests.length, 0);
  });
});

describe('network proxy: faults', () => {
  it('unknown provider: 404 in the spec body', async () => {
    const res = await call('/proxy/acme/v1/chat/completions', { body: chatBody() });
    assert.equal(res.status, 404);
    const body = (await res.json()) as { error: string; statusCode: number };
    assert.equal(body.error, 'not_found');
    assert.equal(body.statusCode, 404);
  });

  it('an inspected path in a disguise (escapes, trailing slash, another method) is refused, never sent in clear', async () => {
    for (const [path, method] of [
      ['/proxy/openai/v1/chat/%63ompletions', 'POST'],
      ['/proxy/openai/v1/chat/completions/', 'POST'],
      ['/proxy/anthropic/v1/messages/', 'POST'],
      ['/proxy/google/v1beta/models/gemini-2.0-flash%3AgenerateContent', 'POST'],
      ['/proxy/openai/v1/chat/completions', 'PUT'],
    ] as const) {
      const res = await call(path, { body: chatBody(), method });
      assert.equal(res.status, 400, `${method} ${path}`);
      const body = await parapetError(res);
      assert.equal(body.code, 'invalid_request');
      assert.match(body.message, /uninspected/);
    }
    assert.equal(fake.requests.length, 0);
    // A GET of the same path (OpenAI lists stored completions there) and other escaped paths still go through.
    await (await call('/proxy/openai/v1/chat/completions?limit=1')).text();
    await (await call('/proxy/openai/v1/files/file%2Dabc')).text();
    assert.equal(fake.requests.length, 2);
  });

  it('an inspected path written in other letter cases is inspected, never relayed in clear', async () => {
    // Audit finding F2: an upstream (or a front before it) that folds case reads these as the operation.
    for (const [provider, written, body] of inspectedOps()) {
      const path = written.toUpperCase();
      fake.reset();
      const res = await call(`/proxy/${provider}${path}`, { body });
      await res.arrayBuffer();
      assert.equal(fake.requests.length, 1, `${provider} ${path} went upstream`);
      assert.equal(fake.lastRequest()?.url.split('?')[0]?.endsWith(path), true, 'its path as written');
      assert.doesNotMatch(fake.lastRequest()?.raw ?? '', /tomas\.berg/, `${provider} ${path}`);
      assert.equal(res.headers.get('x-svc-tokenized-count'), '1', `${provider} ${path}`);
    }
    // Gemini names its model in the path only: read there without regard to case too, as written, so the
    // call is counted with its model (review: an empty model priced it at 0). `Models` in another case
    // is a path the fake upstream still answers as Gemini.
    const gemini = await call('/proxy/google/v1beta/Models/gemini-2.0-flash:generateContent', {
      body: { contents: [{ role: 'user', parts: [{ text: PROMPT }] }] },
    });
    assert.equal(gemini.status, 200, await gemini.text());
    await until('the Gemini call is counted with its model', async () => {
      const rows = await env.t.ctx.storage.db
        .selectFrom('gateway_usage')
        .select(['model'])
        .where('org_id', '=', mine.org.id)
        .where('provider', '=', 'google')
        .execute();
      return rows.some((r) => r.model === 'google/gemini-2.0-flash');
    });
  });

  it('doubled slashes, leading (read as a host by a URL parser) or inside, are refused for every provider', async () => {
    const ops = inspectedOps();
    for (const [provider, path, body] of ops) {
      const inner = path.replace(/\/([^/]+)$/, '//$1');
      for (const odd of [`/${path}`, `/${inner}`, `//${inner}`]) {
        const res = await call(`/proxy/${provider}${odd}`, { body });
        assert.equal(res.status, 400, `${provider} ${odd}: ${res.status}`);
        assert.match((await parapetError(res)).message, /uninspected/);
      }
    }
    assert.equal(fake.requests.length, 0, JSON.stringify(fake.requests.map((r) => r.url)));
  });

  it('token ids in place of text (completions prompt, embeddings input) are refused, naming the field', async () => {
    // The provider decodes ids to text the proxy never read: [83, 316] is text in clear all the same.
    for (const [path, field, body] of [
      [
        '/proxy/openai/v1/completions',
        'prompt',
        { model: 'gpt-3.5-turbo-instruct', prompt: [[83, 316, 1008]] },
      ],
      [
        '/proxy/openai/v1/completions',
        'prompt',
        { model: 'gpt-3.5-turbo-instruct', prompt: [83, 316, 1008] },
      ],
      ['/proxy/groq/openai/v1/completions', 'prompt', { model: 'x', prompt: ['text', [83, 316]] }],
      ['/proxy/mistral/v1/fim/completions', 'prompt', { model: 'codestral-latest', prompt: [83, 316] }],
      ['/proxy/openai/v1/embeddings', 'input', { model: 'text-embedding-3-small', input: [[83, 316, 1008]] }],
      ['/proxy/openai/v1/embeddings', 'input', { model: 'text-embedding-3-small', input: [83, 316, 1008] }],
      ['/proxy/mistral/v1/embeddings', 'input', { model: 'mistral-embed', input: [[83, 316]] }],
    ] as const) {
      const res = await call(path, { body });
      assert.equal(res.status, 400, `${path} ${JSON.stringify(body)}`);
      const err = await parapetError(res);
      assert.equal(err.code, 'invalid_request');
      assert.match(err.message, new RegExp(`'${field}' holds token ids`));
      assert.match(err.message, /cannot read/);
    }
    assert.equal(fake.requests.length, 0);
    // Text, as a string or a list of strings, is read and tokenized as before.
    const ok = await call('/proxy/openai/v1/embeddings', {
      body: { model: 'text-embedding-3-small', input: [PROMPT, 'hello'] },
    });
    assert.equal(ok.status, 200, await ok.text());
    assert.doesNotMatch(fake.lastRequest()?.raw ?? '', /tomas\.berg/);
  });

  it('text in a container of the wrong type is refused, never relayed uninspected', async () => {
    for (const [path, body] of [
      ['/proxy/openai/v1/chat/completions', { model: 'gpt-4o-mini', messages: PROMPT }],
      [
        '/proxy/openai/v1/chat/completions',
        { model: 'gpt-4o-mini', messages: [{ role: 'user', content: { text: PROMPT } }] },
      ],
      [
        '/proxy/anthropic/v1/messages',
        { model: 'claude', max_tokens: 5, system: { text: PROMPT }, messages: [] },
      ],
      ['/proxy/openai/v1/responses', { model: 'gpt-4o-mini', input: { text: PROMPT } }],
      [
        '/proxy/google/v1beta/models/gemini-2.0-flash:generateContent',
        { contents: { parts: [{ text: PROMPT }] } },
      ],
      ['/proxy/google/v1beta/models/gemini-2.0-flash:generateContent', { contents: [PROMPT] }],
      [
        '/proxy/google/v1beta/models/gemini-2.0-flash:generateContent',
        { contents: [{ role: 'user', parts: { text: PROMPT } }] },
      ],
      [
        '/proxy/google/v1beta/models/gemini-2.0-flash:generateContent',
        { systemInstruction: PROMPT, contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
      ],
      [
        '/proxy/anthropic/v1/messages',
        {
          model: 'claude',
          max_tokens: 5,
          messages: [
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: { text: PROMPT } }] },
          ],
        },
      ],
    ] as const) {
      const res = await call(path, { body });
      assert.equal(res.status, 400, `${path} ${JSON.stringify(body).slice(0, 60)}`);
      assert.match((await parapetError(res)).message, /cannot be inspected/);
    }
    assert.equal(fake.requests.length, 0);
    // An assistant turn with tool calls and no content is an ordinary shape.
    const ok = await call('/proxy/openai/v1/chat/completions', {
      body: chatBody({
        messages: [
          { role: 'assistant', content: null, tool_calls: [] },
          { role: 'user', content: PROMPT },
        ],
      }),
    });
    assert.equal(ok.status, 200, await ok.text());
    assert.doesNotMatch(fake.lastRequest()?.raw ?? '', /tomas\.berg/);
  });

  it('a path a URL parser reads otherwise (fragment, escapes, dot segments, backslash, `;`) is refused, never sent in clear', async () => {
    // fetch drops fragments and resolves dot segments before sending; node:http sends the path as written,
    // as any client may. The upstream URL is built with a URL parser: the proxy must read what it sends.
    const raw = (path: string, body: unknown) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const payload = JSON.stringify(body);
        const url = new URL(env.proxyUrl as string);
        const req = httpRequest(
          {
            host: url.hostname,
            port: url.port,
            path,
            method: 'POST',
            headers: {
              'x-service-key': mine.al,
              authorization: 'Bearer sk-caller',
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(payload),
            },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => {
              text += c;
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on('error', reject);
        req.end(payload);
      });
    const anthropic = { model: 'claude', max_tokens: 5, messages: [{ role: 'user', content: PROMPT }] };
    const gemini = { contents: [{ role: 'user', parts: [{ text: PROMPT }] }] };
    const table: Array<[string, unknown]> = [
      ['/proxy/openai/v1/chat/completions#x', chatBody()],
      ['/proxy/openai/v1/chat/completions#', chatBody()],
      ['/proxy/openai/v1/chat/completions?#x', chatBody()],
      ['/proxy/anthropic/v1/messages#', anthropic],
      ['/proxy/google/v1beta/models/gemini-2.0-flash:generateContent#', gemini],
      ['/proxy/google/v1beta/models/gemini-2.0-flash:generateContent#x?alt=sse', gemini],
      ['/proxy/openai/v1/chat/completions%23x', chatBody()],
      ['/proxy/openai/v1/chat/completions%3Fx', chatBody()],
      ['/proxy/openai/v1/chat%2Fcompletions', chatBody()],
      ['/proxy/openai/v1/chat%252Fcompletions', chatBody()],
      ['/proxy/openai/v1/chat/completions;x', chatBody()],
      ['/proxy/openai/v1/chat;x/completions', chatBody()],
      ['/proxy/anthropic/v1/messages;', anthropic],
      ['/proxy/openai/v1/chat/./completions', chatBody()],
      ['/proxy/openai/v1/chat/x/../completions', chatBody()],
      ['/proxy/openai/v1/chat/%2e/completions', chatBody()],
      ['/proxy/openai/v1/chat/%2E%2E/chat/completions', chatBody()],
      ['/proxy/openai/v1/chat\\completions', chatBody()],
      ['/proxy/anthropic/v1/./messages', anthropic],
      ['/proxy/openai/../openai/v1/chat/completions', chatBody()],
    ];
    const before = fake.requests.length;
    for (const [path, body] of table) {
      const res = await raw(path, body);
      assert.equal(res.status, 400, `${path}: ${res.body}`);
      const err = await parapetError(new Response(res.body));
      assert.equal(err.code, 'invalid_request', path);
      assert.match(err.message, /uninspected|reads otherwise/, path);
    }
    assert.equal(fake.requests.length, before, JSON.stringify(fake.requests.map((r) => r.url)));
  });

  it('malformed JSON: 400 in the spec body, nothing sent', async () => {
    const res = await call('/proxy/anthropic/v1/messages', { raw: '{"model": "x", "messages": [' });
    assert.equal(res.status, 400);
    const body = (await res.json()) as {
      error: string;
      message: string;
      statusCode: number;
      requestId: string;
    };
    assert.equal(body.error, 'invalid_request');
    assert.equal(body.statusCode, 400);
    assert.ok(body.message && body.requestId);
    assert.equal(fake.requests.length, 0);
  });

  it("Parapet's own errors: the spec's Error body by default, the provider's shape with errorFormat native", async () => {
    const refusals = async () => [
      await call('/proxy/openai/v1/chat/completions', { raw: '{"model": ' }),
      await call('/proxy/anthropic/v1/messages', { raw: '{"model": ' }),
      await call('/proxy/google/v1beta/models/gemini-2.0-flash:generateContent', { raw: '{' }),
      await call('/proxy/cohere/v2/chat', { raw: '{' }),
    ];
    const owner = await mine.session('admin');
    const shown = await env.t.request('GET', '/api/dashboard/netproxy/settings', { cookie: owner });
    assert.equal((shown.body as { errorFormat: string }).errorFormat, 'spec');
    for (const res of await refusals()) {
      assert.equal(res.status, 400);
      const body = (await res.json()) as Record<string, unknown>;
      assert.equal(body['error'], 'invalid_request', JSON.stringify(body));
      assert.equal(body['statusCode'], 400);
      assert.equal(typeof body['message'], 'string');
    }
    assert.equal((await setErrorFormat(env.t, mine, 'native')).errorFormat, 'native');
    try {
      const [openai, anthropic, google, cohere] = (await Promise.all(
        (await refusals()).map((r) => r.json()),
      )) as any[];
      assert.equal(openai.error.code, 'invalid_request');
      assert.equal(openai.error.type, 'invalid_request_error');
      assert.match(openai.error.message, /^Parapet: /);
      assert.equal(anthropic.type, 'error');
      assert.equal(anthropic.error.code, 'invalid_request');
      assert.equal(google.error.status, 'INVALID_ARGUMENT');
      assert.equal(google.error.details[0].reason, 'invalid_request');
      assert.equal(cohere.code, 'invalid_request');
      // A PUT without the field keeps the choice; a value outside the list is refused.
      const kept = await env.t.request('PUT', '/api/dashboard/netproxy/settings', {
        cookie: owner,
        body: { clientNetworks: [] },
      });
      assert.equal((kept.body as { errorFormat: string }).errorFormat, 'native');
      const wrong = await env.t.request('PUT', '/api/dashboard/netproxy/settings', {
        cookie: owner,
        body: { clientNetworks: [], errorFormat: 'openai' },
      });
      assert.equal(wrong.status, 400);
    } finally {
      await setErrorFormat(env.t, mine, 'spec');
    }
    // Errors the provider sent are relayed as it sent them either way (the faults below).
    assert.equal(fake.requests.length, 0);
  });

  it('oversized body: 413', async () => {
    const res = await call('/proxy/openai/v1/chat/completions', {
      raw: JSON.stringify(chatBody({ pad: 'x'.repeat(1024 * 1024 + 10) })),
    });
    assert.equal(res.status, 413);
    assert.equal((await parapetError(res)).code, 'payload_too_large');
  });

  it('no service key: 401; the rate-limit headers are there', async () => {
    const res = await fetch(`${env.proxyUrl}/proxy/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(chatBody()),
    });
    assert.equal(res.status, 401);
    assert.ok(res.headers.get('x-ratelimit-limit'));
  });

  it("upstream 4xx and 5xx are relayed with their status, Retry-After and the provider's own body", async () => {
    fake.queue({ status: 429, retryAfter: 7, errorMessage: 'slow down' }, { status: 500 }, { status: 529 });
    const r1 = await call('/proxy/openai/v1/chat/completions', { body: chatBody() });
    assert.equal(r1.status, 429);
    assert.equal(r1.headers.get('retry-after'), '7');
    assert.equal(((await r1.json()) as { error: { message: string } }).error.message, 'slow down');
    const r2 = await call('/proxy/google/v1beta/models/gemini-2.0-flash:generateContent', {
      body: { contents: [{ parts: [{ text: PROMPT }] }] },
    });
    assert.equal(r2.status, 500);
    assert.equal(((await r2.json()) as { error: { code: number } }).error.code, 500);
    const r3 = await call('/proxy/anthropic/v1/messages', {
      body: {
        model: 'claude-3-5-haiku-latest',
        max_tokens: 10,
        messages: [{ role: 'user', content: PROMPT }],
      },
    });
    assert.equal(r3.status, 529);
    assert.equal(((await r3.json()) as { type: string }).type, 'error');
  });

  it("upstream timeout: 504 in the provider's error format", async () => {
    fake.setBehavior({ firstChunkDelayMs: 3000 });
    const res = await call('/proxy/anthropic/v1/messages', {
      body: {
        model: 'claude-3-5-haiku-latest',
        max_tokens: 10,
        messages: [{ role: 'user', content: PROMPT }],
      },
    });
    assert.equal(res.status, 504);
    const body = (await res.json()) as { type: string; error: { type: string } };
    assert.equal(body.type, 'error');
    assert.equal(body.error.type, 'timeout_error');
  });

  it("unreachable upstream: 502 in the provider's error format", async () => {
    fake.setBehavior({ dropConnection: true });
    const res = await call('/proxy/openai/v1/chat/completions', { body: chatBody() });
    assert.equal(res.status, 502);
    assert.ok(((await res.json()) as { error: { message: string } }).error.message);
  });

  it('Gemini JSON-array stream cut before its first element: the answer is still one valid JSON array', async () => {
    fake.setBehavior({ dropAfterChunks: 0, chunkSize: 4 });
    const res = await call('/proxy/google/v1beta/models/gemini-2.0-flash:streamGenerateContent', {
      body: { contents: [{ role: 'user', parts: [{ text: PROMPT }] }] },
      headers: { 'x-goog-api-key': 'g-key' },
    });
    assert.equal(res.status, 200);
    const text = await res.text();
    const items = JSON.parse(text) as Array<{ error?: { message: string } }>;
    assert.match(items[items.length - 1]?.error?.message ?? '', /google stream failed/, text);
  });

  for (const pii of [true, false]) {
    it(`reset mid-stream (${pii ? 'rehydrated' : 'relayed as it came'}): an in-band error, then the stream ends`, async () => {
      fake.setBehavior({ dropAfterChunks: 2, chunkSize: 4 });
      const content = pii ? PROMPT : 'A long enough text without any personal data in it.';
      const res = await call('/proxy/openai/v1/chat/completions', {
        body: chatBody({ stream: true, messages: [{ role: 'user', content }] }),
      });
      assert.equal(res.status, 200);
      const events = sseEvents(await res.text());
      assert.ok(
        events.some((e) => e.json?.error),
        JSON.stringify(events),
      );
    });
  }

  it('a stream relayed as it came holds at most the body limit of an unfinished event, then lets it go', async () => {
    // The provider sends 1.5 MB of one event (over the 1 MiB limit) and stalls: the held part went out
    // (it was held without bound before, and dropped when the stream failed), then the in-band error.
    fake.setBehavior({ reply: 'x'.repeat(3_000_000), chunkSize: 3_000_000, stallInsideFrameAfterChunks: 0 });
    const res = await call('/proxy/openai/v1/chat/completions', {
      body: chatBody({ stream: true, messages: [{ role: 'user', content: 'no personal data here' }] }),
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-svc-vault-session'), null, 'relayed as it came');
    const text = await res.text();
    const xs = text.match(/x+/g)?.reduce((n, run) => n + run.length, 0) ?? 0;
    assert.ok(xs > 1024 * 1024, `${xs} bytes of the unfinished event relayed`);
    assert.match(
      text.slice(-300),
      /x\n\ndata: \{"error":\{"message":"[^"]*stream failed/,
      'the error is an event of its own',
    );
  });

  it('a vault write that fails after the request went up (tokenized): no answer reaches the client', async () => {
    // The commit runs while the provider answers; the answer waits for it. A missing table makes it fail.
    await sql`alter table dlp_tokens rename to dlp_tokens_away`.execute(env.t.ctx.storage.db);
    try {
      for (const stream of [false, true]) {
        const res = await call('/proxy/openai/v1/chat/completions', {
          body: chatBody(stream ? { stream: true } : {}),
        });
        const text = await res.text();
        assert.equal(res.status, 500, text);
        assert.ok(!text.includes(EMAIL), text);
        assert.equal(res.headers.get('x-svc-vault-session'), null);
      }
      assert.equal(fake.requests.length, 2, 'the tokenized requests were sent');
      assert.ok(!JSON.stringify(fake.requests).includes(EMAIL), 'never in clear');
    } finally {
      await sql`alter table dlp_tokens_away rename to dlp_tokens`.execute(env.t.ctx.storage.db);
    }
  });

  it('an unreachable provider does not hide a failed vault write: the request fails with it', async () => {
    // The commit went on while the request travelled: its failure must not pass unseen behind the 502.
    fake.setBehavior({ dropConnection: true });
    await sql`alter table dlp_tokens rename to dlp_tokens_away`.execute(env.t.ctx.storage.db);
    try {
      const res = await call('/proxy/openai/v1/chat/completions', { body: chatBody() });
      const text = await res.text();
      assert.equal(res.status, 500, text);
      assert.equal(res.headers.get('x-svc-vault-session'), null);
    } finally {
      await sql`alter table dlp_tokens_away rename to dlp_tokens`.execute(env.t.ctx.storage.db);
    }
  });

  it('force mode: 403 gateway_force_blocked', async () => {
    const owner = await mine.session('owner');
    await env.t.request('POST', '/api/dashboard/gateway/force', { cookie: owner, body: { enabled: true } });
    try {
      const res = await call('/proxy/openai/v1/chat/completions', { body: chatBody() });
      assert.equal(res.status, 403);
      assert.equal((await parapetError(res)).code, 'gateway_force_blocked');
    } finally {
      await env.t.request('POST', '/api/dashboard/gateway/force', {
        cookie: owner,
        body: { enabled: false },
      });
    }
  });
});
