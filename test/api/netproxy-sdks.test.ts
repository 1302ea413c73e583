import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { Mistral } from '@mistralai/mistralai';
import { CohereClientV2 } from 'cohere-ai';
import Groq from 'groq-sdk';
import OpenAI from 'openai';
import { fakeEmbedding } from '../fakes/openai-more-wire.js';
import type { FakeProviderServer } from '../fakes/provider-server.js';
import type { Tenant } from '../support/harness.js';
import { setErrorFormat, startNetProxy } from './netproxy-support.js';

// The official SDKs, unmodified but for their base URL and one default header, against the network
// proxy in front of a fake upstream that speaks each wire format: the upstream never sees the personal
// data, the client gets it back, and the x-svc-* headers say so.
const EMAIL = 'marta.lindqvist@example.com';
const PHONE = '+44 20 7946 0958';
const PROMPT = `Please confirm the booking for ${EMAIL}, phone ${PHONE}.`;
const TOOL_ARGS = { to: EMAIL, note: 'she said "hi" \\ bye' };

let env: Awaited<ReturnType<typeof startNetProxy>>;
let fake: FakeProviderServer;
let mine: Tenant;
let base: string;

before(async () => {
  env = await startNetProxy();
  fake = env.fake;
  mine = await env.t.tenant({ name: 'SDK users' });
  base = `${env.proxyUrl}/proxy`;
});
after(async () => env.close());
beforeEach(() => fake.reset());

const serviceHeaders = () => ({ 'x-service-key': mine.al, 'x-service-organization': mine.org.id });

/** The fake upstream saw tokens, never the values. */
function assertUpstreamClean() {
  const seen = JSON.stringify(fake.requests.map((r) => r.body));
  assert.ok(fake.requests.length > 0, 'the upstream was called');
  assert.ok(!seen.includes(EMAIL), `upstream saw ${EMAIL}: ${seen}`);
  assert.ok(!seen.includes(PHONE), `upstream saw ${PHONE}`);
  assert.match(seen, /TKN_EMAIL_/);
}

function assertSvcHeaders(h: Headers, restored: boolean) {
  assert.match(h.get('x-svc-vault-session') ?? '', /^sess_/);
  assert.ok(Number(h.get('x-svc-tokenized-count')) >= 2, `tokenized ${h.get('x-svc-tokenized-count')}`);
  if (restored)
    assert.ok(Number(h.get('x-svc-rehydrated-count')) >= 2, `rehydrated ${h.get('x-svc-rehydrated-count')}`);
}

describe('openai SDK through the network proxy', () => {
  const client = () =>
    new OpenAI({
      apiKey: 'sk-caller-key',
      baseURL: `${base}/openai/v1`,
      defaultHeaders: serviceHeaders(),
      maxRetries: 0,
    });

  it('plain: tokenized up, rehydrated down, headers right, provider key passed through', async () => {
    const { data, response } = await client()
      .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: PROMPT }] })
      .withResponse();
    assert.equal(data.choices[0]?.message.content, PROMPT);
    assertUpstreamClean();
    assertSvcHeaders(response.headers, true);
    assert.equal(fake.lastRequest()?.headers['authorization'], 'Bearer sk-caller-key');
    assert.equal(fake.lastRequest()?.headers['x-service-key'], undefined, 'the service key stays with us');
  });

  it('streamed, in small chunks so tokens split across events', async () => {
    fake.setBehavior({ chunkSize: 3 });
    const stream = await client().chat.completions.create({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: PROMPT }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    assert.equal(text, PROMPT);
    assertUpstreamClean();
  });

  it('tool call: arguments rehydrated and still valid JSON, tool results tokenized', async () => {
    fake.setBehavior({ toolCalls: [{ name: 'send_mail', arguments: { to: 'TKN_PLACEHOLDER' } }] });
    // The fake echoes what it is told; the model "answers" with the token it received.
    const first = await client().chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'user', content: PROMPT },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'c1',
              type: 'function',
              function: { name: 'send_mail', arguments: JSON.stringify(TOOL_ARGS) },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: `sent to ${EMAIL}` },
      ],
    });
    assert.ok(first.choices[0]?.message.tool_calls?.length);
    assertUpstreamClean();
    const sent = fake.lastRequest()?.body as {
      messages: Array<{ tool_calls?: Array<{ function: { arguments: string } }>; content?: string }>;
    };
    const args = JSON.parse(sent.messages[1]?.tool_calls?.[0]?.function.arguments ?? '{}');
    assert.match(args.to, /^TKN_EMAIL_/);
    assert.equal(args.note, TOOL_ARGS.note);
    // Streamed tool call whose arguments carry the token back: the client gets the address, valid JSON.
    const token = args.to as string;
    fake.setBehavior({
      toolCalls: [{ name: 'send_mail', arguments: { to: token, note: TOOL_ARGS.note } }],
      chunkSize: 4,
    });
    const stream = await client().chat.completions.create({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: PROMPT }],
    });
    let argText = '';
    for await (const chunk of stream)
      argText += chunk.choices[0]?.delta?.tool_calls?.[0]?.function?.arguments ?? '';
    // A new request has a new session: its token for the address is a different one, so the old token
    // comes back as it was sent, still valid JSON.
    assert.deepEqual(Object.keys(JSON.parse(argText)).sort(), ['note', 'to']);
  });
});

describe('openai SDK: Responses API and embeddings', () => {
  const client = () =>
    new OpenAI({
      apiKey: 'sk-caller-key',
      baseURL: `${base}/openai/v1`,
      defaultHeaders: serviceHeaders(),
      maxRetries: 0,
    });

  it('responses.create: instructions and input tokenized, output_text rehydrated', async () => {
    const { data, response } = await client()
      .responses.create({
        model: 'gpt-4.1-mini',
        instructions: `Sign as the assistant of ${EMAIL}.`,
        input: PROMPT,
      })
      .withResponse();
    assert.equal(data.output_text, PROMPT);
    assertUpstreamClean();
    const sent = fake.lastRequest()?.body as { instructions: string; input: string };
    assert.match(sent.instructions, /TKN_EMAIL_/);
    assert.equal(fake.lastRequest()?.path, '/openai/v1/responses');
    assertSvcHeaders(response.headers, true);
  });

  it('responses.create streamed: deltas split mid-token come back whole, completed response restored', async () => {
    fake.setBehavior({ chunkSize: 3 });
    const stream = await client().responses.create({
      model: 'gpt-4.1-mini',
      stream: true,
      input: [{ role: 'user', content: [{ type: 'input_text', text: PROMPT }] }],
    });
    let text = '';
    let completed = '';
    const types = new Set<string>();
    for await (const event of stream) {
      types.add(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed')
        for (const item of event.response.output)
          if (item.type === 'message')
            for (const part of item.content) if (part.type === 'output_text') completed += part.text;
    }
    assert.equal(text, PROMPT);
    assert.equal(completed, PROMPT);
    assert.ok(types.has('response.output_text.done') && types.has('response.output_item.done'));
    assertUpstreamClean();
  });

  it('responses.create streamed with a function call: tokens split across text and argument deltas come back whole, arguments valid JSON at .done and output_item.done', async () => {
    // The model writes the token it was given into the call's arguments, cut into 3-character deltas.
    fake.setBehavior({
      chunkSize: 3,
      argChunkSize: 3,
      toolCallsOf: (text) => [
        { name: 'send_mail', arguments: { to: /TKN_EMAIL_\w+/.exec(text)?.[0] ?? '', note: TOOL_ARGS.note } },
      ],
    });
    // The text ends with a token: held back until the text's .done event releases it.
    const input = `${PROMPT} Reply to ${EMAIL}`;
    const stream = await client().responses.create({ model: 'gpt-4.1-mini', stream: true, input });
    let text = '';
    let args = '';
    const deltas: string[] = [];
    const done: string[] = [];
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') {
        text += event.delta;
        deltas.push(event.delta);
      }
      if (event.type === 'response.function_call_arguments.delta') {
        args += event.delta;
        deltas.push(event.delta);
      }
      if (event.type === 'response.function_call_arguments.done') done.push(event.arguments);
      if (event.type === 'response.output_item.done' && event.item.type === 'function_call')
        done.push(event.item.arguments);
      if (event.type === 'response.completed')
        for (const item of event.response.output)
          if (item.type === 'function_call') done.push(item.arguments);
    }
    const expected = { to: EMAIL, note: TOOL_ARGS.note };
    assert.equal(text, input);
    assert.deepEqual(JSON.parse(args), expected);
    assert.equal(done.length, 3);
    for (const d of done) assert.deepEqual(JSON.parse(d), expected);
    // No delta the client got carries any part of a token.
    assert.ok(!deltas.some((d) => /TKN|_EMAIL_|EMAIL_/.test(d)), deltas.join('|'));
    assertUpstreamClean();
    // Each piece went out in deltas smaller than the token: the split happened upstream.
    assert.match(fake.lastRequest()?.raw ?? '', /TKN_EMAIL_/);
    assert.ok(deltas.length > 20);
  });

  it('responses input items: function_call arguments (valid JSON) and function_call_output tokenized', async () => {
    await client().responses.create({
      model: 'gpt-4.1-mini',
      input: [
        { role: 'user', content: PROMPT },
        { type: 'function_call', call_id: 'c1', name: 'send_mail', arguments: JSON.stringify(TOOL_ARGS) },
        { type: 'function_call_output', call_id: 'c1', output: `sent to ${EMAIL}` },
      ],
    });
    assertUpstreamClean();
    const items =
      (fake.lastRequest()?.body as { input: Array<Record<string, string>> } | undefined)?.input ?? [];
    const args = JSON.parse(items[1]?.['arguments'] ?? '{}');
    assert.match(args.to, /^TKN_EMAIL_/);
    assert.equal(args.note, TOOL_ARGS.note);
    assert.match(items[2]?.['output'] ?? '', /^sent to TKN_EMAIL_/);
  });

  it('embeddings.create: each input tokenized before it is embedded; vectors relayed', async () => {
    const other = 'A sentence with nothing personal in it.';
    const { data, response } = await client()
      .embeddings.create({ model: 'text-embedding-3-small', input: [PROMPT, other] })
      .withResponse();
    assertUpstreamClean();
    const sent = (fake.lastRequest()?.body as { input: string[] } | undefined)?.input ?? [];
    assert.equal(sent[1], other, 'an input without personal data goes up as it was');
    assert.equal(data.data.length, 2);
    // The vector is the one of the tokenized text: the provider never embedded the address.
    const expected = fakeEmbedding(sent[0] ?? '');
    for (const [i, v] of (data.data[0]?.embedding ?? []).entries())
      assert.ok(Math.abs(v - (expected[i] ?? 0)) < 1e-6);
    assert.match(response.headers.get('x-svc-vault-session') ?? '', /^sess_/);
    assert.ok(Number(response.headers.get('x-svc-tokenized-count')) >= 2);
  });
});

describe('anthropic SDK through the network proxy', () => {
  const client = () =>
    new Anthropic({
      apiKey: 'sk-ant-caller',
      baseURL: `${base}/anthropic`,
      defaultHeaders: serviceHeaders(),
      maxRetries: 0,
    });

  it('plain, with x-api-key and anthropic-version passed through', async () => {
    const { data, response } = await client()
      .messages.create({
        model: 'claude-3-5-haiku-latest',
        max_tokens: 200,
        messages: [{ role: 'user', content: PROMPT }],
      })
      .withResponse();
    const block = data.content[0];
    assert.equal(block?.type === 'text' ? block.text : '', PROMPT);
    assertUpstreamClean();
    assertSvcHeaders(response.headers, true);
    // This SDK version sends the key as a bearer token; older ones as x-api-key: either passes through.
    const h = fake.lastRequest()?.headers ?? {};
    assert.ok(h['x-api-key'] === 'sk-ant-caller' || h['authorization'] === 'Bearer sk-ant-caller');
    assert.ok(fake.lastRequest()?.headers['anthropic-version']);
  });

  it('streamed content_block_delta events, tokens split across them', async () => {
    fake.setBehavior({ chunkSize: 2 });
    const stream = client().messages.stream({
      model: 'claude-3-5-haiku-latest',
      max_tokens: 200,
      messages: [{ role: 'user', content: [{ type: 'text', text: PROMPT }] }],
    });
    const final = await stream.finalMessage();
    const block = final.content[0];
    assert.equal(block?.type === 'text' ? block.text : '', PROMPT);
    assertUpstreamClean();
  });

  it('tool_use and tool_result blocks are tokenized; streamed tool input comes back as valid JSON', async () => {
    await client().messages.create({
      model: 'claude-3-5-haiku-latest',
      max_tokens: 200,
      messages: [
        { role: 'user', content: PROMPT },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'send_mail', input: TOOL_ARGS }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: `sent to ${EMAIL}` }] },
      ],
    });
    assertUpstreamClean();
    const sent = fake.lastRequest()?.body as {
      messages: Array<{ content: Array<{ input?: { to: string } }> }>;
    };
    assert.match(sent.messages[1]?.content[0]?.input?.to ?? '', /^TKN_EMAIL_/);
    fake.setBehavior({ toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }] });
    const final = await client()
      .messages.stream({
        model: 'claude-3-5-haiku-latest',
        max_tokens: 200,
        messages: [{ role: 'user', content: PROMPT }],
      })
      .finalMessage();
    const tool = final.content.find((b) => b.type === 'tool_use');
    assert.deepEqual(tool?.type === 'tool_use' ? tool.input : null, { q: 'x' });
  });

  it('document blocks: the text of plain-text and content documents, their title and context, is tokenized', async () => {
    await client().messages.create({
      model: 'claude-3-5-haiku-latest',
      max_tokens: 200,
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'document',
              source: {
                type: 'text',
                media_type: 'text/plain',
                data: `Minutes. Call ${PHONE} or write to ${EMAIL}.`,
              },
              title: `Notes for ${EMAIL}`,
              context: `Forwarded by ${EMAIL}`,
            },
            {
              type: 'document',
              source: { type: 'content', content: [{ type: 'text', text: `Reply to ${EMAIL}.` }] },
            },
            { type: 'text', text: 'Summarise these.' },
          ],
        },
      ],
    });
    assertUpstreamClean();
    const sent = fake.lastRequest()?.body as {
      messages: Array<{
        content: Array<{ source?: { data?: string; content?: Array<{ text: string }> }; title?: string }>;
      }>;
    };
    const blocks = sent.messages[0]?.content ?? [];
    assert.match(blocks[0]?.source?.data ?? '', /TKN_EMAIL_/);
    assert.match(blocks[0]?.title ?? '', /TKN_EMAIL_/);
    assert.match(blocks[1]?.source?.content?.[0]?.text ?? '', /TKN_EMAIL_/);
  });
});

describe('google genai SDK through the network proxy', () => {
  const client = () =>
    new GoogleGenAI({
      apiKey: 'g-caller-key',
      httpOptions: { baseUrl: `${base}/google`, headers: serviceHeaders() },
    });

  it('generateContent: plain', async () => {
    const res = await client().models.generateContent({ model: 'gemini-2.0-flash', contents: PROMPT });
    assert.equal(res.text, PROMPT);
    assertUpstreamClean();
    assert.equal(fake.lastRequest()?.headers['x-goog-api-key'], 'g-caller-key');
  });

  it('streamGenerateContent?alt=sse: CRLF frames, tokens split across chunks', async () => {
    fake.setBehavior({ chunkSize: 3 });
    const stream = await client().models.generateContentStream({
      model: 'gemini-2.0-flash',
      contents: PROMPT,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.text ?? '';
    assert.equal(text, PROMPT);
    assertUpstreamClean();
    assert.equal(fake.lastRequest()?.query['alt'], 'sse');
  });
});

describe('groq SDK through the network proxy', () => {
  const client = () =>
    new Groq({
      apiKey: 'gsk-caller',
      baseURL: `${base}/groq`,
      defaultHeaders: serviceHeaders(),
      maxRetries: 0,
    });

  it('plain and streamed', async () => {
    const plain = await client().chat.completions.create({
      model: 'llama-3.1-8b-instant',
      messages: [{ role: 'user', content: PROMPT }],
    });
    assert.equal(plain.choices[0]?.message.content, PROMPT);
    assertUpstreamClean();
    fake.setBehavior({ chunkSize: 5 });
    const stream = await client().chat.completions.create({
      model: 'llama-3.1-8b-instant',
      stream: true,
      messages: [{ role: 'user', content: PROMPT }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    assert.equal(text, PROMPT);
  });
});

describe('mistral SDK through the network proxy', () => {
  const client = () => new Mistral({ apiKey: 'mistral-caller', serverURL: `${base}/mistral` });
  const options = () => ({
    fetchOptions: { headers: { ...serviceHeaders(), authorization: 'Bearer mistral-caller' } },
  });

  it('plain and streamed', async () => {
    const plain = await client().chat.complete(
      { model: 'mistral-small-latest', messages: [{ role: 'user', content: PROMPT }] },
      options(),
    );
    assert.equal(plain.choices?.[0]?.message?.content, PROMPT);
    assertUpstreamClean();
    fake.setBehavior({ chunkSize: 4 });
    const stream = await client().chat.stream(
      { model: 'mistral-small-latest', messages: [{ role: 'user', content: PROMPT }] },
      options(),
    );
    let text = '';
    for await (const event of stream) {
      const c = event.data.choices[0]?.delta?.content;
      if (typeof c === 'string') text += c;
    }
    assert.equal(text, PROMPT);
  });
});

describe('cohere SDK (v2) through the network proxy', () => {
  const client = () => new CohereClientV2({ token: 'co-caller', environment: `${base}/cohere` });
  const options = () => ({ headers: serviceHeaders(), maxRetries: 0 });

  it('plain and streamed (content-delta, message-end)', async () => {
    const plain = await client().chat(
      { model: 'command-r-plus', messages: [{ role: 'user', content: PROMPT }] },
      options(),
    );
    const part = plain.message?.content?.[0];
    assert.equal(part && 'text' in part ? part.text : '', PROMPT);
    assertUpstreamClean();
    fake.setBehavior({ chunkSize: 3 });
    const stream = await client().chatStream(
      { model: 'command-r-plus', messages: [{ role: 'user', content: PROMPT }] },
      options(),
    );
    let text = '';
    for await (const event of stream) {
      if (event.type === 'content-delta') text += event.delta?.message?.content?.text ?? '';
    }
    assert.equal(text, PROMPT);
  });

  it('grounding documents (strings and data objects) are tokenized', async () => {
    await client().chat(
      {
        model: 'command-r-plus',
        messages: [{ role: 'user', content: PROMPT }],
        documents: [
          `Policy owner: ${EMAIL}`,
          { id: 'doc-2', data: { title: 'Contacts', snippet: `Call ${PHONE} or write to ${EMAIL}.` } },
        ],
      },
      options(),
    );
    assertUpstreamClean();
    const sent = fake.lastRequest()?.body as {
      documents: [string, { id: string; data: { snippet: string } }];
    };
    assert.match(sent.documents[0], /TKN_EMAIL_/);
    assert.match(sent.documents[1].data.snippet, /TKN_EMAIL_/);
    assert.equal(sent.documents[1].id, 'doc-2');
  });
});

describe('a stream cut inside an event', () => {
  // The upstream writes half of an event and drops the connection: the SDK must get the in-band error
  // event as an error it parses, not the error frame glued onto the half event (a JSON parse error).
  const PLAIN = 'Nothing personal in this prompt, only some words to stream.';

  it('openai SDK: the error event reaches err.message', async () => {
    fake.setBehavior({ chunkSize: 4, cutInsideFrameAfterChunks: 2 });
    const client = new OpenAI({
      apiKey: 'sk-caller-key',
      baseURL: `${base}/openai/v1`,
      defaultHeaders: serviceHeaders(),
      maxRetries: 0,
    });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: PLAIN }],
    });
    let text = '';
    await assert.rejects(
      (async () => {
        for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      })(),
      (err: Error) => /openai stream failed/.test(err.message),
    );
    assert.equal(text, PLAIN.slice(0, 8));
  });

  it('anthropic SDK: the error event reaches err.message', async () => {
    fake.setBehavior({ chunkSize: 4, cutInsideFrameAfterChunks: 2 });
    const client = new Anthropic({
      apiKey: 'sk-ant-caller',
      baseURL: `${base}/anthropic`,
      defaultHeaders: serviceHeaders(),
      maxRetries: 0,
    });
    const stream = client.messages.stream({
      model: 'claude-3-5-haiku-latest',
      max_tokens: 64,
      messages: [{ role: 'user', content: PLAIN }],
    });
    await assert.rejects(stream.finalText(), (err: Error) => /anthropic stream failed/.test(err.message));
  });

  // Neither SDK has an error event: each parses every event against its schema (Mistral: a completion chunk
  // with an id; Cohere v2: a typed event), so the proxy ends the stream the way the provider itself reports
  // a failed generation, with finish reason ERROR (Cohere's message-end also carries the message).
  for (const rehydrated of [false, true]) {
    const content = rehydrated ? PROMPT : PLAIN;
    const how = rehydrated ? 'rehydrated' : 'relayed as it came';
    it(`mistral SDK (${how}): the stream ends with finish_reason "error", no parse error`, async () => {
      fake.setBehavior({ chunkSize: 4, cutInsideFrameAfterChunks: 2 });
      const stream = await new Mistral({ apiKey: 'm', serverURL: `${base}/mistral` }).chat.stream(
        { model: 'mistral-small-latest', messages: [{ role: 'user', content }] },
        { fetchOptions: { headers: { ...serviceHeaders(), authorization: 'Bearer m' } } },
      );
      const reasons: string[] = [];
      for await (const event of stream) {
        const reason = event.data.choices[0]?.finishReason;
        if (reason) reasons.push(reason);
      }
      assert.deepEqual(reasons, ['error']);
    });

    it(`cohere SDK v2 (${how}): the stream ends with message-end ERROR and the message`, async () => {
      fake.setBehavior({ chunkSize: 3, cutInsideFrameAfterChunks: 2 });
      const stream = await new CohereClientV2({ token: 'co', environment: `${base}/cohere` }).chatStream(
        { model: 'command-r-plus', messages: [{ role: 'user', content }] },
        { headers: serviceHeaders(), maxRetries: 0 },
      );
      const ends: Array<{ finishReason?: string; error?: string }> = [];
      for await (const event of stream) if (event.type === 'message-end') ends.push(event.delta ?? {});
      assert.equal(ends.length, 1, JSON.stringify(ends));
      assert.equal(ends[0]?.finishReason, 'ERROR');
      assert.match(ends[0]?.error ?? '', /cohere stream failed/);
    });
  }
});

describe("Parapet's own errors reach each SDK's err.message (errorFormat: native)", () => {
  // A refusal of the proxy's own (here 400: the SDK's provider key set to the Parapet key, which is never
  // sent on) in the provider's error format, the organization having chosen it: the SDK's error carries
  // Parapet's message, not a bare "invalid_request". The spec's Error body is the default.
  before(async () => {
    await setErrorFormat(env.t, mine, 'native');
  });
  after(async () => {
    await setErrorFormat(env.t, mine, 'spec');
  });
  const bad = serviceHeaders;
  const expectParapet = (err: unknown) => {
    const message = String((err as Error).message);
    assert.match(message, /Parapet: .*holds a Parapet key/, message);
    return true;
  };
  const messages = [{ role: 'user' as const, content: 'hello' }];

  it('openai, groq, anthropic, google, mistral and cohere', async () => {
    const sdk = { defaultHeaders: bad(), maxRetries: 0 };
    const calls: Array<() => Promise<unknown>> = [
      () =>
        new OpenAI({ apiKey: mine.al, baseURL: `${base}/openai/v1`, ...sdk }).chat.completions.create({
          model: 'gpt-4o-mini',
          messages,
        }),
      () =>
        new Groq({ apiKey: mine.al, baseURL: `${base}/groq`, ...sdk }).chat.completions.create({
          model: 'llama-3.1-8b-instant',
          messages,
        }),
      () =>
        new Anthropic({ apiKey: mine.al, baseURL: `${base}/anthropic`, ...sdk }).messages.create({
          model: 'claude-3-5-haiku-latest',
          max_tokens: 8,
          messages,
        }),
      () =>
        new GoogleGenAI({
          apiKey: mine.al,
          httpOptions: { baseUrl: `${base}/google`, headers: bad() },
        }).models.generateContent({ model: 'gemini-2.0-flash', contents: 'hello' }),
      () =>
        new Mistral({ apiKey: mine.al, serverURL: `${base}/mistral` }).chat.complete(
          { model: 'mistral-small-latest', messages },
          { fetchOptions: { headers: { ...bad(), authorization: `Bearer ${mine.al}` } } },
        ),
      () =>
        new CohereClientV2({ token: mine.al, environment: `${base}/cohere` }).chat(
          { model: 'command-r', messages },
          { headers: bad(), maxRetries: 0 },
        ),
    ];
    for (const call of calls) await assert.rejects(call(), expectParapet);
    assert.equal(fake.requests.length, 0);
  });
});
