import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { Mistral } from '@mistralai/mistralai';
import { CohereClient, CohereClientV2 } from 'cohere-ai';
import OpenAI from 'openai';
import { netProxySuite, parapetError } from './netproxy-support.js';

// The prompt-carrying operations beside chat (legacy completions, moderation, token counts, batches,
// embeddings, rerank, FIM, agents, conversations, Cohere v1), each called with its provider's official SDK:
// the upstream sees tokens only, and where the answer carries the text back the client gets it restored.
// Then the organization's `uninspected` setting: what the proxy does not read is forwarded by default, refused on request.
const EMAIL = 'ingrid.solberg@example.com';
const PROMPT = `Write to ${EMAIL} about the renewal.`;

const suite = netProxySuite('Operations');
const serviceHeaders = () => suite.serviceHeaders();

/** The last upstream request went to `path` with the address tokenized, never in clear. */
function assertSentClean(path: RegExp) {
  const up = suite.fake.lastRequest();
  assert.ok(up, 'the upstream was called');
  assert.match(up.path, path);
  assert.ok(!up.raw.includes(EMAIL), `upstream saw ${EMAIL}: ${up.raw}`);
  assert.match(up.raw, /TKN_EMAIL_/);
}

/** The SDK's own call; an answer the fake cannot shape for its schema may fail after the request left. */
async function settle(p: Promise<unknown>): Promise<void> {
  await p.catch(() => undefined);
}

describe('network proxy: every prompt-carrying operation is inspected', () => {
  it('openai: completions (string and array prompt, whole and streamed, text restored) and moderations', async () => {
    const openai = new OpenAI({
      apiKey: 'sk-caller',
      baseURL: `${suite.base}/openai/v1`,
      defaultHeaders: serviceHeaders(),
      maxRetries: 0,
    });
    const whole = await openai.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: PROMPT });
    assert.equal(whole.choices[0]?.text, PROMPT);
    assertSentClean(/\/v1\/completions$/);
    await openai.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: [PROMPT, 'second'] });
    assertSentClean(/\/v1\/completions$/);
    suite.fake.setBehavior({ chunkSize: 3 });
    const stream = await openai.completions.create({
      model: 'gpt-3.5-turbo-instruct',
      prompt: PROMPT,
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.text ?? '';
    assert.equal(text, PROMPT);
    assertSentClean(/\/v1\/completions$/);
    suite.fake.reset();
    await openai.moderations.create({ model: 'omni-moderation-latest', input: PROMPT });
    assertSentClean(/\/v1\/moderations$/);
    await openai.moderations.create({
      model: 'omni-moderation-latest',
      input: [{ type: 'text', text: PROMPT }],
    });
    assertSentClean(/\/v1\/moderations$/);
  });

  it('groq: the Responses API', async () => {
    const res = await fetch(`${suite.base}/groq/openai/v1/responses`, {
      method: 'POST',
      headers: { ...serviceHeaders(), authorization: 'Bearer gsk', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-oss-20b', input: PROMPT }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    assertSentClean(/\/openai\/v1\/responses$/);
    assert.match(await res.text(), new RegExp(EMAIL.replace(/\./g, '\\.')));
  });

  it('google: countTokens, embedContent, batchEmbedContents and a tuned model generateContent', async () => {
    const ai = new GoogleGenAI({
      apiKey: 'g-caller',
      httpOptions: { baseUrl: `${suite.base}/google`, headers: serviceHeaders() },
    });
    await ai.models.countTokens({ model: 'gemini-2.0-flash', contents: PROMPT });
    assertSentClean(/:countTokens$/);
    await settle(ai.models.embedContent({ model: 'text-embedding-004', contents: PROMPT }));
    assertSentClean(/:(batchEmbedContents|embedContent)$/);
    const call = (path: string, body: unknown) =>
      fetch(`${suite.base}/google/v1beta/${path}`, {
        method: 'POST',
        headers: { ...serviceHeaders(), 'x-goog-api-key': 'g', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await (
      await call('models/text-embedding-004:embedContent', { content: { parts: [{ text: PROMPT }] } })
    ).text();
    assertSentClean(/:embedContent$/);
    const tuned = await call('tunedModels/my-model-1:generateContent', {
      contents: [{ role: 'user', parts: [{ text: PROMPT }] }],
    });
    assertSentClean(/tunedModels\/my-model-1:generateContent$/);
    assert.match(await tuned.text(), new RegExp(EMAIL.replace(/\./g, '\\.')));
  });

  it('openai conversations (create, update, items) and responses/input_tokens; Gemini inline batches', async () => {
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${suite.base}${path}`, {
        method: 'POST',
        headers: {
          ...serviceHeaders(),
          authorization: 'Bearer sk',
          'content-type': 'application/json',
          ...headers,
        },
        body: JSON.stringify(body),
      });
    const item = { type: 'message', role: 'user', content: [{ type: 'input_text', text: PROMPT }] };
    const cases: Array<[string, unknown, RegExp, Record<string, string>?]> = [
      ['/openai/v1/conversations', { items: [item], metadata: { topic: 'renewal' } }, /\/v1\/conversations$/],
      ['/openai/v1/conversations/conv_1', { metadata: { owner: EMAIL } }, /\/v1\/conversations\/conv_1$/],
      ['/openai/v1/conversations/conv_1/items', { items: [item] }, /\/v1\/conversations\/conv_1\/items$/],
      [
        '/openai/v1/responses/input_tokens',
        { model: 'gpt-4o', input: PROMPT, instructions: `Answer ${EMAIL}` },
        /\/v1\/responses\/input_tokens$/,
      ],
      [
        '/google/v1beta/models/gemini-2.5-flash:batchGenerateContent',
        {
          batch: {
            displayName: 'b1',
            inputConfig: {
              requests: {
                requests: [
                  {
                    request: { contents: [{ role: 'user', parts: [{ text: PROMPT }] }] },
                    metadata: { key: 'r1' },
                  },
                ],
              },
            },
          },
        },
        /:batchGenerateContent$/,
        { 'x-goog-api-key': 'g' },
      ],
      [
        '/google/v1beta/models/gemini-embedding-001:asyncBatchEmbedContent',
        {
          batch: {
            input_config: {
              requests: { requests: [{ request: { content: { parts: [{ text: PROMPT }] } } }] },
            },
          },
        },
        /:asyncBatchEmbedContent$/,
        { 'x-goog-api-key': 'g' },
      ],
    ];
    for (const [path, body, sent, headers] of cases) {
      const res = await post(path, body, headers);
      await res.text();
      assertSentClean(sent);
      assert.equal(res.headers.get('x-svc-tokenized-count') !== '0', true, path);
    }
    // Batch requests are read as generateContent bodies: a container of the wrong type is refused.
    const bad = await post(
      '/google/v1beta/models/gemini-2.5-flash:batchGenerateContent',
      { batch: { inputConfig: { requests: { requests: [{ request: { contents: PROMPT } }] } } } },
      { 'x-goog-api-key': 'g' },
    );
    assert.equal(bad.status, 400);
    assert.match(
      (await parapetError(bad)).message,
      /batch\.inputConfig\.requests\.requests\[0\]\.request\.contents/,
    );
  });

  it('mistral: FIM (prompt and suffix), agents completions, conversations', async () => {
    const mistral = new Mistral({ apiKey: 'm-caller', serverURL: `${suite.base}/mistral` });
    const options = { fetchOptions: { headers: { ...serviceHeaders(), authorization: 'Bearer m-caller' } } };
    await settle(
      mistral.fim.complete({ model: 'codestral-latest', prompt: PROMPT, suffix: `// ${EMAIL}` }, options),
    );
    assertSentClean(/\/v1\/fim\/completions$/);
    assert.ok(!String(suite.fake.lastRequest()?.raw).includes('ingrid'));
    await settle(
      mistral.agents.complete({ agentId: 'ag_1', messages: [{ role: 'user', content: PROMPT }] }, options),
    );
    assertSentClean(/\/v1\/agents\/completions$/);
    assert.equal((suite.fake.lastRequest()?.body as { agent_id: string } | undefined)?.agent_id, 'ag_1');
    await settle(
      mistral.beta.conversations.start({ model: 'mistral-medium-latest', inputs: PROMPT }, options),
    );
    assertSentClean(/\/v1\/conversations$/);
    await settle(
      mistral.beta.conversations.append(
        {
          conversationId: 'conv_1',
          conversationAppendRequest: { inputs: [{ role: 'user', content: PROMPT }] },
        },
        options,
      ),
    );
    assertSentClean(/\/v1\/conversations\/conv_1$/);
  });

  it('cohere v1: chat (message, chat_history, preamble; whole and streamed) and embed', async () => {
    const cohere = new CohereClient({ token: 'co', environment: `${suite.base}/cohere` });
    const options = { headers: serviceHeaders(), maxRetries: 0 };
    const chat = await cohere.chat(
      {
        message: PROMPT,
        preamble: `You assist ${EMAIL}.`,
        chatHistory: [{ role: 'USER', message: `I am ${EMAIL}` }],
      },
      options,
    );
    assert.equal(chat.text, PROMPT);
    assertSentClean(/\/v1\/chat$/);
    const sent = JSON.stringify(suite.fake.lastRequest()?.body);
    assert.equal(sent.match(/TKN_EMAIL_/g)?.length, 3, sent);
    suite.fake.setBehavior({ chunkSize: 3 });
    const stream = await cohere.chatStream({ message: PROMPT }, options);
    let text = '';
    for await (const e of stream) if (e.eventType === 'text-generation') text += e.text;
    assert.equal(text, PROMPT);
    assertSentClean(/\/v1\/chat$/);
    suite.fake.reset();
    const embedded = await cohere.embed(
      { texts: [PROMPT], model: 'embed-english-v3.0', inputType: 'search_document' },
      options,
    );
    assertSentClean(/\/v1\/embed$/);
    assert.deepEqual((embedded as { texts?: string[] }).texts, [PROMPT]);
  });

  it('cohere v2: embed (texts and inputs) and rerank (query and documents, returned documents restored)', async () => {
    const cohere = new CohereClientV2({ token: 'co', environment: `${suite.base}/cohere` });
    const options = { headers: serviceHeaders(), maxRetries: 0 };
    await settle(
      cohere.embed(
        { model: 'embed-v4.0', texts: [PROMPT], inputType: 'search_document', embeddingTypes: ['float'] },
        options,
      ),
    );
    assertSentClean(/\/v2\/embed$/);
    await settle(
      cohere.embed(
        {
          model: 'embed-v4.0',
          inputs: [{ content: [{ type: 'text', text: PROMPT }] }],
          inputType: 'search_document',
          embeddingTypes: ['float'],
        },
        options,
      ),
    );
    assertSentClean(/\/v2\/embed$/);
    await settle(
      cohere.rerank(
        { model: 'rerank-v3.5', query: `mail from ${EMAIL}`, documents: [PROMPT, 'unrelated'] },
        options,
      ),
    );
    const sent = suite.fake.lastRequest()?.body as { query: string; documents: string[] };
    assertSentClean(/\/v2\/rerank$/);
    assert.match(sent.query, /TKN_EMAIL_/);
    assert.match(sent.documents[0] ?? '', /TKN_EMAIL_/);
    // v1 gives the documents back when asked: restored.
    const v1 = new CohereClient({ token: 'co', environment: `${suite.base}/cohere` });
    const ranked = await v1.rerank(
      {
        model: 'rerank-v3.5',
        query: `mail from ${EMAIL}`,
        documents: [PROMPT, 'unrelated'],
        returnDocuments: true,
      },
      options,
    );
    assertSentClean(/\/v1\/rerank$/);
    assert.equal(ranked.results[0]?.document?.text, PROMPT);
  });
});

describe('network proxy: answers of the stored and counted operations', () => {
  const openai = () =>
    new OpenAI({
      apiKey: 'sk-caller',
      baseURL: `${suite.base}/openai/v1`,
      defaultHeaders: serviceHeaders(),
      maxRetries: 0,
    });
  const restored = (h: Headers) => Number(h.get('x-svc-rehydrated-count'));

  it('openai conversations: create, update and items come back restored; items read later stay tokens; input_tokens is a count', async () => {
    const created = await openai()
      .conversations.create({
        items: [{ type: 'message', role: 'user', content: PROMPT }],
        metadata: { owner: EMAIL },
      })
      .withResponse();
    assertSentClean(/\/v1\/conversations$/);
    assert.equal(created.data.metadata && (created.data.metadata as Record<string, string>)['owner'], EMAIL);
    assert.ok(restored(created.response.headers) >= 1);
    const id = created.data.id;
    const updated = await openai().conversations.update(id, { metadata: { owner: `cc ${EMAIL}` } });
    assertSentClean(new RegExp(`/v1/conversations/${id}$`));
    assert.equal((updated.metadata as Record<string, string>)['owner'], `cc ${EMAIL}`);
    const added = await openai()
      .conversations.items.create(id, {
        items: [
          { type: 'message', role: 'user', content: PROMPT },
          {
            type: 'function_call',
            call_id: 'c1',
            name: 'send_mail',
            arguments: `{"to":"${EMAIL}","n":12345678901234567890}`,
          },
          { type: 'function_call_output', call_id: 'c1', output: `sent to ${EMAIL}` },
        ],
      })
      .withResponse();
    assertSentClean(new RegExp(`/v1/conversations/${id}/items$`));
    const [message, call, output] = added.data.data as unknown as Array<Record<string, any>>;
    assert.equal(message?.['content'][0].text, PROMPT);
    // Arguments restored as JSON text: still valid, the address back, other bytes as sent.
    assert.equal(call?.['arguments'], `{"to":"${EMAIL}","n":12345678901234567890}`);
    assert.equal(output?.['output'], `sent to ${EMAIL}`);
    assert.ok(restored(added.response.headers) >= 3);
    // Read back later (a GET the proxy does not read; its request has no session): as the provider stored them.
    const listed: Array<Record<string, any>> = [];
    for await (const item of openai().conversations.items.list(id)) listed.push(item as Record<string, any>);
    assert.equal(listed.length, 4);
    assert.match(listed[0]?.['content'][0].text, /^Write to TKN_EMAIL_\w+ about the renewal\.$/);
    assert.ok(!JSON.stringify(listed).includes(EMAIL));
    const counted = await openai()
      .responses.inputTokens.count({ model: 'gpt-4o', input: PROMPT })
      .withResponse();
    assertSentClean(/\/v1\/responses\/input_tokens$/);
    assert.equal(counted.data.input_tokens, 12);
    assert.ok(Number(counted.response.headers.get('x-svc-tokenized-count')) >= 1);
    assert.equal(restored(counted.response.headers), 0);
  });

  it('google batches: the operation restored (displayName); the inlined responses fetched later stay tokens', async () => {
    const ai = new GoogleGenAI({
      apiKey: 'g-caller',
      httpOptions: { baseUrl: `${suite.base}/google`, headers: serviceHeaders() },
    });
    const job = await ai.batches.create({
      model: 'gemini-2.5-flash',
      src: [{ contents: [{ role: 'user', parts: [{ text: PROMPT }] }] }],
      config: { displayName: `Renewals for ${EMAIL}` },
    });
    assertSentClean(/:batchGenerateContent$/);
    assert.equal(job.displayName, `Renewals for ${EMAIL}`);
    assert.equal(job.state, 'JOB_STATE_PENDING');
    const done = await ai.batches.get({ name: String(job.name) });
    assert.equal(suite.fake.lastRequest()?.method, 'GET');
    const answer = done.dest?.inlinedResponses?.[0]?.response?.candidates?.[0]?.content?.parts?.[0]?.text;
    assert.match(String(answer), /^Write to TKN_EMAIL_\w+ about the renewal\.$/);
    assert.equal(done.displayName?.startsWith('Renewals for TKN_EMAIL_'), true);
  });

  it('anthropic: count_tokens is a count; a batch names its results_url on the proxy (the Parapet key no longer goes to the provider); its results come back restored', async () => {
    const anthropic = new Anthropic({
      apiKey: 'a-caller',
      baseURL: `${suite.base}/anthropic`,
      defaultHeaders: serviceHeaders(),
      maxRetries: 0,
    });
    const counted = await anthropic.messages
      .countTokens({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: PROMPT }] })
      .withResponse();
    assert.equal(counted.data.input_tokens, 12);
    assertSentClean(/\/v1\/messages\/count_tokens$/);
    assert.equal(restored(counted.response.headers), 0);
    const created = await anthropic.messages.batches
      .create({
        requests: [
          {
            custom_id: 'r1',
            params: {
              model: 'claude-sonnet-4-5',
              max_tokens: 10,
              messages: [{ role: 'user', content: PROMPT }],
            },
          },
        ],
      })
      .withResponse();
    assertSentClean(/\/v1\/messages\/batches$/);
    // Each request is a Messages body; `custom_id` is the caller's, kept.
    assert.equal(
      (suite.fake.lastRequest()?.body as { requests: [{ custom_id: string }] } | undefined)?.requests[0]
        .custom_id,
      'r1',
    );
    assert.match(created.response.headers.get('x-svc-vault-session') ?? '', /^sess_/);
    const id = created.data.id;
    // The batch objects name `results_url` on the proxy, in the base the client used (retrieve, list), so
    // the SDK's results GET passes the proxy, which keeps the Parapet key to itself. It went to the
    // provider's host directly, `X-Service-Key` included.
    const batch = await anthropic.messages.batches.retrieve(id);
    assert.equal(batch.results_url, `${suite.base}/anthropic/v1/messages/batches/${id}/results`);
    const listed = await anthropic.messages.batches.list();
    assert.equal(listed.data[0]?.results_url, batch.results_url);
    const results = [];
    for await (const line of await anthropic.messages.batches.results(id)) results.push(line);
    const fetched = suite.fake.requests.at(-1);
    assert.equal(fetched?.url, `/anthropic/v1/messages/batches/${id}/results`);
    assert.equal(fetched?.headers['x-service-key'], undefined, 'the Parapet key stays with the proxy');
    assert.equal(fetched?.headers['x-service-organization'], undefined);
    assert.equal(suite.fake.requests.at(-2)?.url, `/anthropic/v1/messages/batches/${id}`);
    assert.equal(results.length, 1);
    const first = results[0]?.result;
    assert.equal(first?.type, 'succeeded');
    const text =
      first?.type === 'succeeded' && first.message.content[0]?.type === 'text'
        ? first.message.content[0].text
        : '';
    // docs/netproxy.md, "Anthropic batch results": restored with the session of the batch's creation
    // (test/api/netproxy-batches.test.ts: other organizations, an expired session, a large file).
    assert.equal(text, PROMPT);
  });
});

describe("network proxy: the organization's 'uninspected' setting", () => {
  const post = (path: string, body: string, type: string) =>
    fetch(`${suite.base}${path}`, {
      method: 'POST',
      headers: { ...serviceHeaders(), authorization: 'Bearer sk', 'content-type': type },
      body,
    });
  const setUninspected = async (value: string | undefined) => {
    const res = await suite.env.t.request('PUT', '/api/dashboard/netproxy/settings', {
      cookie: await suite.mine.session('admin'),
      body: { clientNetworks: [], ...(value ? { uninspected: value } : {}) },
    });
    assert.equal(res.status, 200, res.text);
    return res.body as { uninspected: string };
  };

  it('forward (the default): an operation not inspected reaches the provider byte for byte', async () => {
    const shown = await suite.env.t.request('GET', '/api/dashboard/netproxy/settings', {
      cookie: await suite.mine.session('admin'),
    });
    assert.equal((shown.body as { uninspected: string }).uninspected, 'forward');
    const body = JSON.stringify({ prompt: PROMPT });
    const res = await post('/openai/v1/images/generations', body, 'application/json');
    await res.text();
    assert.equal(suite.fake.lastRequest()?.raw, body);
  });

  it('refuse: a body to an operation not inspected is 403, file uploads too, nothing sent; GET passes; a PUT without the field keeps it', async () => {
    assert.equal((await setUninspected('refuse')).uninspected, 'refuse');
    assert.equal((await setUninspected(undefined)).uninspected, 'refuse');
    const before = suite.fake.requests.length;
    const images = await post(
      '/openai/v1/images/generations',
      JSON.stringify({ prompt: PROMPT }),
      'application/json',
    );
    assert.equal(images.status, 403);
    assert.match((await parapetError(images)).message, /uninspected/);
    // JSON declared as another type is still JSON to the provider.
    const disguised = await post('/cohere/v1/generate', JSON.stringify({ prompt: PROMPT }), 'text/plain');
    assert.equal(disguised.status, 403);
    assert.equal(suite.fake.requests.length, before);
    await (
      await fetch(`${suite.base}/openai/v1/models`, {
        headers: { ...serviceHeaders(), authorization: 'Bearer sk' },
      })
    ).text();
    // A Batch input file is prompts in bulk: a multipart upload is refused like any other body, and so are
    // raw bytes (an audio file, a Gemini upload's content), whatever their type.
    const form = new FormData();
    form.append('purpose', 'batch');
    form.append(
      'file',
      new Blob([JSON.stringify({ body: { messages: [{ role: 'user', content: PROMPT }] } })]),
      'a.jsonl',
    );
    const upload = await fetch(`${suite.base}/openai/v1/files`, {
      method: 'POST',
      headers: { ...serviceHeaders(), authorization: 'Bearer sk' },
      body: form,
    });
    assert.equal(upload.status, 403);
    assert.match((await parapetError(upload)).message, /uninspected/);
    const bytes = await post('/openai/v1/audio/transcriptions', '  \x00\x01 RIFF audio', 'audio/wav');
    assert.equal(bytes.status, 403);
    await bytes.text();
    assert.deepEqual(
      suite.fake.requests.slice(before).map((r) => `${r.method} ${r.path}`),
      ['GET /openai/v1/models'],
    );
    assert.equal((await setUninspected('forward')).uninspected, 'forward');
  });
});
