import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { buildProxy } from '../../src/main/proxy.js';
import { sentTokenized, startEcho } from '../fakes/echo-upstream.js';
import { parapetError } from './netproxy-support.js';
import type { App } from '../../src/platform/http/index.js';
import { startTestServer, type Tenant, type TestServer } from '../support/harness.js';

// Every string of an inspected request is tokenized unless its format lists it as structural or opaque
// (docs/netproxy.md, "What is inspected"). Here: fields the proxy has no reader of its own for (user,
// metadata, labels, a file's name, a provider's extras, part kinds it does not know) never reach the
// provider, and the model, ids, tool names, signatures and media bytes reach it byte for byte. The upstream
// is a real HTTP server that answers in each format with the body it received as the model's text (as a
// model asked to repeat its input would): the client reads it back with every token restored.
const EMAIL = 'marta.lindqvist@example.com';
const PHONE = '+44 20 7946 0958';
const NAME = 'Marta Lindqvist';
const ORIGINALS = [EMAIL, PHONE, NAME];
// Structural values that DLP would change if they were read as text: a digit run between `-`, `/` or `+`
// passes as a card number. Random ids and base64 do contain such runs.
const CARD = '4111111111111111';
const MODEL = `ft:gpt-4o-mini:acme:${CARD}`;
const CALL_ID = `call-${CARD}`;
const TOOL = `notify-${CARD}`;
const IMAGE_B64 = `iVBORw0KGgo/${CARD}+AAAA`;
const IMAGE_URL = `data:image/png;base64,${IMAGE_B64}`;
const SIGNATURE = `EqQBCkYIARgCIkD/${CARD}+sig`;

let echo: Awaited<ReturnType<typeof startEcho>>;
let t: TestServer;
let proxy: App;
let base: string;
let mine: Tenant;

before(async () => {
  echo = await startEcho();
  const env: Record<string, string> = {};
  for (const [id, path] of Object.entries({
    openai: '/openai/v1',
    anthropic: '/anthropic',
    google: '/google',
    mistral: '/mistral/v1',
    groq: '/groq/openai/v1',
    cohere: '/cohere',
  }))
    env[`PARAPET_PROVIDER_${id.toUpperCase()}_BASE_URL`] = echo.url + path;
  t = await startTestServer({ env });
  proxy = (await buildProxy(t.ctx)).app;
  await proxy.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(proxy.server.address() as AddressInfo).port}/proxy`;
  mine = await t.tenant({ name: 'Fields' });
});
after(async () => {
  await proxy.close();
  await t.close();
  echo.server.closeAllConnections();
  await new Promise((resolve) => echo.server.close(resolve));
});
beforeEach(() => {
  echo.seen.length = 0;
});

const serviceHeaders = () => ({ 'x-service-key': mine.al });

const upstream = () => sentTokenized(echo.seen, ORIGINALS);

const openai = () =>
  new OpenAI({
    apiKey: 'sk-caller',
    baseURL: `${base}/openai/v1`,
    defaultHeaders: serviceHeaders(),
    maxRetries: 0,
  });

const anthropic = () =>
  new Anthropic({
    apiKey: 'sk-ant-caller',
    baseURL: `${base}/anthropic`,
    defaultHeaders: serviceHeaders(),
    maxRetries: 0,
  });

/** Raw HTTP, for fields and part kinds no SDK types. */
async function post(path: string, body: string | object, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { ...serviceHeaders(), 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return JSON.parse(text);
}

describe('network proxy: fields it has no reader of its own for', () => {
  it('openai SDK, chat: user, metadata, prediction, a file name and an unknown field are tokenized; model, ids, tool names and image bytes go up as they came', async () => {
    const client = openai();
    const params = {
      model: MODEL,
      user: EMAIL,
      store: true,
      metadata: { customer: PHONE },
      prediction: { type: 'content' as const, content: `Dear ${NAME},` },
      // A field of a later API version than this SDK's types.
      x_briefing: { note: `call ${PHONE}` },
      tools: [
        {
          type: 'function' as const,
          function: {
            name: TOOL,
            description: 'Notify someone',
            parameters: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
          },
        },
      ],
      messages: [
        {
          role: 'user' as const,
          content: [
            { type: 'text' as const, text: 'Send the payslip.' },
            { type: 'image_url' as const, image_url: { url: IMAGE_URL } },
            { type: 'file' as const, file: { filename: `payslip of ${NAME}.pdf`, file_data: IMAGE_URL } },
          ],
        },
        {
          role: 'assistant' as const,
          content: null,
          tool_calls: [
            {
              id: CALL_ID,
              type: 'function' as const,
              function: { name: TOOL, arguments: JSON.stringify({ to: EMAIL }) },
            },
          ],
        },
        { role: 'tool' as const, tool_call_id: CALL_ID, content: 'sent' },
        { role: 'user' as const, content: 'Thanks.' },
      ],
    };
    const answer = await client.chat.completions.create(params);
    const { body } = upstream();
    assert.equal(body.model, MODEL);
    assert.equal(body.tools[0].function.name, TOOL);
    assert.deepEqual(body.tools[0].function.parameters.required, ['to']);
    assert.equal(body.messages[0].content[1].image_url.url, IMAGE_URL);
    assert.equal(body.messages[0].content[2].file.file_data, IMAGE_URL);
    assert.equal(body.messages[1].tool_calls[0].id, CALL_ID);
    assert.equal(body.messages[1].tool_calls[0].function.name, TOOL);
    assert.match(JSON.parse(body.messages[1].tool_calls[0].function.arguments).to, /^TKN_EMAIL_/);
    assert.equal(body.messages[2].tool_call_id, CALL_ID);
    // The model repeated what it saw: the client reads it with every token restored.
    const seen = JSON.parse(answer.choices[0]?.message.content ?? '');
    assert.equal(seen.user, EMAIL);
    assert.equal(seen.metadata.customer, PHONE);
    assert.equal(seen.prediction.content, `Dear ${NAME},`);
    assert.equal(seen.x_briefing.note, `call ${PHONE}`);
    assert.equal(seen.messages[0].content[2].file.filename, `payslip of ${NAME}.pdf`);
  });

  it('openai SDK, Responses: metadata, user, safety_identifier and reasoning summaries are tokenized and restored where the API echoes them; encrypted reasoning, call ids and file bytes go up as they came', async () => {
    const client = openai();
    const encrypted = `gAAAAB/${CARD}+enc`;
    const res = await client.responses.create({
      model: 'gpt-4.1-mini',
      metadata: { customer: EMAIL },
      user: PHONE,
      safety_identifier: EMAIL,
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Summarise the attachments.' },
            { type: 'input_image', image_url: IMAGE_URL, detail: 'auto' },
            { type: 'input_file', filename: `payslip of ${NAME}.pdf`, file_data: IMAGE_URL },
          ],
        },
        {
          type: 'reasoning',
          id: 'rs_1',
          summary: [{ type: 'summary_text', text: `Looking up ${EMAIL}` }],
          encrypted_content: encrypted,
        },
        { type: 'function_call', call_id: CALL_ID, name: TOOL, arguments: JSON.stringify({ to: EMAIL }) },
        { type: 'function_call_output', call_id: CALL_ID, output: 'sent' },
      ],
    });
    const { body } = upstream();
    assert.equal(body.input[0].content[1].image_url, IMAGE_URL);
    assert.equal(body.input[0].content[2].file_data, IMAGE_URL);
    assert.equal(body.input[1].id, 'rs_1');
    assert.equal(body.input[1].encrypted_content, encrypted);
    assert.equal(body.input[2].call_id, CALL_ID);
    assert.equal(body.input[2].name, TOOL);
    assert.equal(body.input[3].call_id, CALL_ID);
    // Echoed by the API itself, restored for the client.
    assert.equal(res.metadata?.['customer'], EMAIL);
    assert.equal(res.user, PHONE);
    assert.equal(res.safety_identifier, EMAIL);
    const seen = JSON.parse(res.output_text);
    assert.equal(seen.input[1].summary[0].text, `Looking up ${EMAIL}`);
    assert.equal(seen.input[0].content[2].filename, `payslip of ${NAME}.pdf`);
  });

  it('openai SDK, embeddings: the user field is tokenized', async () => {
    const client = openai();
    await client.embeddings.create({
      model: 'text-embedding-3-small',
      input: 'A plain sentence.',
      user: EMAIL,
    });
    assert.match(upstream().body.user, /^TKN_EMAIL_/);
  });

  it('anthropic SDK: metadata.user_id and stop sequences are tokenized; thinking blocks, signatures, tool ids and names and image bytes go up as they came', async () => {
    const client = anthropic();
    // Signed by the provider: it refuses a turn whose thinking changed, whatever it holds.
    const thinking = {
      type: 'thinking' as const,
      thinking: 'The office is at +41 44 668 18 00.',
      signature: SIGNATURE,
    };
    const toolId = `toolu-${CARD}`;
    const msg = await client.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 64,
      metadata: { user_id: EMAIL },
      stop_sequences: [`${NAME}:`],
      tools: [
        { name: TOOL, description: 'Notify someone', input_schema: { type: 'object', properties: {} } },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Who is on the badge?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: IMAGE_B64 } },
          ],
        },
        {
          role: 'assistant',
          content: [thinking, { type: 'tool_use', id: toolId, name: TOOL, input: { to: EMAIL } }],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: toolId, content: 'sent' },
            { type: 'text', text: 'Thanks.' },
          ],
        },
      ],
    });
    const { body } = upstream();
    assert.equal(body.messages[0].content[1].source.data, IMAGE_B64);
    assert.deepEqual(body.messages[1].content[0], thinking);
    assert.equal(body.messages[1].content[1].id, toolId);
    assert.equal(body.messages[1].content[1].name, TOOL);
    assert.equal(body.messages[2].content[0].tool_use_id, toolId);
    assert.equal(body.tools[0].name, TOOL);
    const first = msg.content[0];
    const seen = JSON.parse(first?.type === 'text' ? first.text : '');
    assert.equal(seen.metadata.user_id, EMAIL);
    assert.deepEqual(seen.stop_sequences, [`${NAME}:`]);
  });

  it('google SDK: thought text, code and code results are tokenized; the thought signature, inline bytes and function names go up as they came', async () => {
    const client = new GoogleGenAI({
      apiKey: 'g-caller',
      httpOptions: { baseUrl: `${base}/google`, headers: serviceHeaders() },
    });
    const res = await client.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'What does the badge say?' },
            { inlineData: { mimeType: 'image/png', data: IMAGE_B64 } },
          ],
        },
        {
          role: 'model',
          parts: [
            { text: `The badge names ${NAME}.`, thought: true, thoughtSignature: SIGNATURE },
            { executableCode: { language: 'PYTHON' as never, code: `lookup("${EMAIL}")` } },
            { codeExecutionResult: { outcome: 'OUTCOME_OK' as never, output: PHONE } },
            { functionCall: { id: CALL_ID, name: TOOL, args: { to: EMAIL } } },
          ],
        },
        { role: 'user', parts: [{ functionResponse: { id: CALL_ID, name: TOOL, response: { ok: true } } }] },
      ],
    });
    const { body } = upstream();
    assert.equal(body.contents[0].parts[1].inlineData.data, IMAGE_B64);
    assert.equal(body.contents[1].parts[0].thoughtSignature, SIGNATURE);
    assert.equal(body.contents[1].parts[3].functionCall.name, TOOL);
    assert.equal(body.contents[1].parts[3].functionCall.id, CALL_ID);
    assert.equal(body.contents[2].parts[0].functionResponse.name, TOOL);
    const seen = JSON.parse(res.text ?? '');
    assert.equal(seen.contents[1].parts[0].text, `The badge names ${NAME}.`);
    assert.equal(seen.contents[1].parts[1].executableCode.code, `lookup("${EMAIL}")`);
    assert.equal(seen.contents[1].parts[2].codeExecutionResult.output, PHONE);
  });

  it('google SDK, multi-speaker speech: speaker labels and voice names go up as they came (matched against the prompt and a fixed list)', async () => {
    const client = new GoogleGenAI({
      apiKey: 'g-caller',
      httpOptions: { baseUrl: `${base}/google`, headers: serviceHeaders() },
    });
    // DLP reads "Joe" and "Jane" alone as people's names, but not as the prompt's line labels: a token in
    // `speaker` no longer matches any line, and the provider cannot tell who says what.
    await client.models.generateContent({
      model: 'gemini-2.5-flash-preview-tts',
      contents: `TTS this conversation for ${EMAIL}:\nJoe: How's it going today Jane?\nJane: Not too bad.`,
      config: {
        responseModalities: ['AUDIO' as never],
        speechConfig: {
          multiSpeakerVoiceConfig: {
            speakerVoiceConfigs: [
              { speaker: 'Joe', voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Kore' } } },
              { speaker: 'Jane', voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Leda' } } },
            ],
          },
        },
      },
    });
    const configs = upstream().body.generationConfig.speechConfig.multiSpeakerVoiceConfig.speakerVoiceConfigs;
    assert.deepEqual(
      configs.map((c: any) => [c.speaker, c.voiceConfig.prebuiltVoiceConfig.voiceName]),
      [
        ['Joe', 'Kore'],
        ['Jane', 'Leda'],
      ],
    );
  });

  it('remote MCP servers: their URLs, names and the credentials the organization gives the provider for them go up as they came', async () => {
    // Values DLP would change if they were read as text (a digit run between `/` and `+` or after `-` reads
    // as a card number): a tokenized credential or address makes every call to the MCP server fail.
    const url = `https://mcp.example.com/${CARD}/sse`;
    const secret = `Bearer mcp/${CARD}+key`;
    const label = `crm-${CARD}`;
    const mcpTool = {
      type: 'mcp',
      server_label: label,
      server_url: url,
      headers: { Authorization: secret, 'X-Tenant': `t/${CARD}+1` },
      allowed_tools: [TOOL],
      require_approval: { never: { tool_names: [TOOL] } },
    };
    const mcpServer = {
      type: 'url',
      url,
      name: label,
      authorization_token: secret,
      tool_configuration: { enabled: true, allowed_tools: [TOOL] },
    };
    await post('/openai/v1/responses', {
      model: MODEL,
      input: [
        { role: 'user', content: `List the tickets of ${EMAIL}.` },
        { type: 'mcp_call', id: 'mcp_1', server_label: label, name: TOOL, arguments: '{}', output: 'none' },
      ],
      tools: [
        mcpTool,
        { type: 'mcp', server_label: 'stripe', connector_id: 'connector_stripe', authorization: secret },
      ],
    });
    const responses = upstream().body;
    assert.deepEqual(responses.tools[0], mcpTool);
    assert.equal(responses.tools[1].authorization, secret);
    assert.equal(responses.input[1].server_label, label);

    echo.seen.length = 0;
    await post('/anthropic/v1/messages', {
      model: MODEL,
      max_tokens: 100,
      messages: [
        { role: 'user', content: `List the tickets of ${EMAIL}.` },
        {
          role: 'assistant',
          content: [{ type: 'mcp_tool_use', id: 'mcptoolu_1', name: TOOL, server_name: label, input: {} }],
        },
      ],
      mcp_servers: [mcpServer],
    });
    const anthropic = upstream().body;
    assert.deepEqual(anthropic.mcp_servers[0], mcpServer);
    assert.equal(anthropic.messages[1].content[0].server_name, label);
  });

  it('raw HTTP: provider extras and part kinds the proxy does not know, for every provider; the client reads them back restored', async () => {
    const cases: Array<{ path: string; body: any; text(answer: any): string }> = [
      {
        path: '/anthropic/v1/messages',
        body: {
          model: 'claude-sonnet-4-5',
          max_tokens: 16,
          x_trace: { owner: EMAIL },
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'Hi.' },
                { type: 'memo_block', note: `call ${PHONE}` },
              ],
            },
          ],
        },
        text: (a) => a.content[0].text,
      },
      {
        path: '/google/v1beta/models/gemini-2.5-flash:generateContent',
        body: {
          labels: { owner: EMAIL },
          generationConfig: {
            stopSequences: [`${NAME}:`],
            // A voice from the provider's list: DLP reads "Leda" as a person's name.
            speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Leda' } } },
          },
          contents: [{ role: 'user', parts: [{ text: 'Hi.' }, { memoPart: { note: `call ${PHONE}` } }] }],
        },
        text: (a) => a.candidates[0].content.parts[0].text,
      },
      {
        path: '/mistral/v1/chat/completions',
        body: {
          model: 'mistral-small-latest',
          prediction: { type: 'content', content: `Dear ${NAME},` },
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'Read this.' },
                {
                  type: 'document_url',
                  document_url: 'https://files.example.org/c.pdf',
                  document_name: `${NAME} contract`,
                },
              ],
            },
          ],
        },
        text: (a) => a.choices[0].message.content,
      },
      {
        path: '/groq/openai/v1/chat/completions',
        body: {
          model: 'llama-3.3-70b-versatile',
          user: EMAIL,
          messages: [{ role: 'user', name: NAME, content: 'Hi.' }],
        },
        text: (a) => a.choices[0].message.content,
      },
      {
        path: '/cohere/v2/chat',
        body: {
          model: 'command-r-plus',
          x_trace: { owner: EMAIL },
          messages: [
            { role: 'user', content: 'Find the customer.' },
            {
              role: 'assistant',
              tool_plan: 'Look the customer up.',
              tool_calls: [{ id: CALL_ID, type: 'function', function: { name: TOOL, arguments: '{}' } }],
            },
            {
              role: 'tool',
              tool_call_id: CALL_ID,
              content: [{ type: 'document', document: { id: 'crm-1', data: { phone: PHONE, name: NAME } } }],
            },
          ],
        },
        text: (a) => a.message.content[0].text,
      },
    ];
    for (const c of cases) {
      echo.seen.length = 0;
      const answer = await post(c.path, c.body);
      upstream();
      // Every token the upstream saw comes back restored: the client reads its own request again.
      assert.deepEqual(JSON.parse(c.text(answer)), c.body, c.path);
    }
    const [anthropic, google, , , cohere] = cases.map((c) => c.body);
    assert.ok(anthropic && google && cohere);
    echo.seen.length = 0;
    await post('/google/v1beta/models/gemini-2.5-flash:generateContent', google);
    assert.equal(
      upstream().body.generationConfig.speechConfig.voiceConfig.prebuiltVoiceConfig.voiceName,
      'Leda',
    );
    echo.seen.length = 0;
    await post('/cohere/v2/chat', cohere);
    const up = upstream().body;
    assert.equal(up.messages[1].tool_calls[0].id, CALL_ID);
    assert.equal(up.messages[2].tool_call_id, CALL_ID);
    // Fields it does not know that hold no personal data: the body still goes up as its original bytes.
    echo.seen.length = 0;
    const raw =
      '{"model":"gpt-4o-mini",  "user":"u-1042","metadata":{"plan":"gold"},"messages":[{"role":"user","content":"Hi."}]}';
    const res = await fetch(`${base}/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { ...serviceHeaders(), 'content-type': 'application/json' },
      body: raw,
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-svc-tokenized-count'), '0');
    assert.equal(echo.seen[0]?.raw, raw);
  });
});

describe('network proxy: end-user identifiers and dlp.blockTypes', () => {
  let blocking: Tenant;
  before(async () => {
    blocking = await t.tenant({ plan: 'pro', name: 'Blocks e-mail' });
    const put = await t.request('PUT', '/api/dashboard/dlp/settings', {
      cookie: await blocking.session('admin'),
      body: { blockTypes: ['EMAIL'] },
    });
    assert.equal(put.status, 200, put.text);
  });
  const as = () => ({ 'x-service-key': blocking.al });

  it('user, safety_identifier, metadata and Anthropic metadata.user_id holding a blocked type are tokenized, never refused', async () => {
    await post(
      '/openai/v1/chat/completions',
      {
        model: 'gpt-4o-mini',
        user: EMAIL,
        safety_identifier: EMAIL,
        metadata: { employee: EMAIL },
        messages: [{ role: 'user', content: 'What is 2+2?' }],
      },
      as(),
    );
    const chat = upstream().body;
    assert.match(chat.user, /^TKN_EMAIL_/);
    assert.equal(chat.safety_identifier, chat.user);
    assert.equal(chat.metadata.employee, chat.user);

    echo.seen.length = 0;
    await post(
      '/anthropic/v1/messages',
      {
        model: 'claude-sonnet-4-5',
        max_tokens: 64,
        metadata: { user_id: EMAIL },
        messages: [{ role: 'user', content: 'What is 2+2?' }],
      },
      as(),
    );
    assert.match(upstream().body.metadata.user_id, /^TKN_EMAIL_/);
  });

  it('the same type in a message is still refused (403), nothing sent', async () => {
    const res = await fetch(`${base}/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { ...as(), 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'gpt-4o-mini',
        user: EMAIL,
        messages: [{ role: 'user', content: `Mail ${EMAIL}.` }],
      }),
    });
    const body = await parapetError(res);
    assert.equal(res.status, 403, JSON.stringify(body));
    assert.equal(body.code, 'forbidden');
    assert.match(body.message, /EMAIL/);
    assert.equal(echo.seen.length, 0);
  });
});

describe('network proxy: JSON text inside a request (tool-call arguments)', () => {
  const call = (args: string) => ({
    model: 'gpt-4o-mini',
    messages: [
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: CALL_ID, type: 'function', function: { name: TOOL, arguments: args } }],
      },
      { role: 'tool', tool_call_id: CALL_ID, content: 'sent' },
    ],
  });

  it('arguments without personal data stay as written (number digits, spacing) while the rest is tokenized', async () => {
    const args = '{"order": 12345678901234567890, "note": "ok"}';
    const body = call(args);
    body.messages.push({ role: 'user', content: `Write to ${EMAIL}.` } as never);
    await post('/openai/v1/chat/completions', body);
    assert.equal(upstream().body.messages[0].tool_calls[0].function.arguments, args);
  });

  it('arguments in which DLP found something: only that string literal changes, every other byte as written', async () => {
    const args = `{ "order" :12345678901234567890,\n  "to":"${EMAIL}" , "note":"a\\"b", "rate": 1.50e+3 }`;
    await post('/openai/v1/chat/completions', call(args));
    const sent = upstream().body.messages[0].tool_calls[0].function.arguments as string;
    const token = /"(TKN_EMAIL_[0-9a-z]+)"/.exec(sent)?.[1];
    assert.ok(token, sent);
    assert.equal(sent, args.replace(EMAIL, token));
  });

  it('arguments nested deeper than a body may be are refused promptly with the spec body (400), nothing sent', async () => {
    // 71 KB: 20,000 brackets around 2,000 e-mail addresses. Each string's path was as deep as its nesting,
    // and naming them held the event loop for 15–25 s and 2.2 GB of memory.
    const depth = 20_000;
    const list = Array.from({ length: 2000 }, (_, i) => `"u${i}@example.com"`).join(',');
    const res = await fetch(`${base}/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { ...serviceHeaders(), 'content-type': 'application/json' },
      body: JSON.stringify(call(`${'['.repeat(depth)}${list}${']'.repeat(depth)}`)),
    });
    const body = await parapetError(res);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(body.code, 'invalid_request');
    assert.match(body.message, /nests deeper than 64/);
    assert.equal(echo.seen.length, 0);
  });

  it('arguments holding 2,000 e-mail addresses in a flat list: every one tokenized, the list as written', async () => {
    const emails = Array.from({ length: 2000 }, (_, i) => `u${i}@example.com`);
    const args = JSON.stringify({ to: emails });
    await post('/openai/v1/chat/completions', call(args));
    const sent = upstream().body.messages[0].tool_calls[0].function.arguments as string;
    assert.ok(!sent.includes('@example.com'), sent.slice(0, 200));
    const to = JSON.parse(sent).to as string[];
    assert.equal(to.length, 2000);
    for (const v of to) assert.match(v, /^TKN_EMAIL_[0-9a-z]+$/);
  });
});

describe('network proxy: the body goes up as sent, only changed strings rewritten; data in map keys', () => {
  /** The one request the upstream got, its tokens put back: what the caller sent, if nothing else changed. */
  const restoredRaw = (raw: string, tokens: Map<string, string>) =>
    raw.replace(/TKN_[A-Z]+_[0-9a-z]+/g, (t) => tokens.get(t) ?? t);

  it('raw HTTP: numbers beyond 2^53, number spelling, spacing, escapes and key order reach the provider as sent; the message is tokenized', async () => {
    const source = [
      '{ "model" : "gpt-4o-mini", "seed": 12345678901234567890, "temperature":1.0, "top_p" :1e0,',
      `  "metadata": {"order": "1", "count": "2"}, "logit_bias": {"50256": -100, "1": 1.50e+1},`,
      `  "messages": [ {"role":"user","content":"Write to ${EMAIL} \\u00e0 \\/ once"} ] }`,
    ].join('\n');
    const answer = await post('/openai/v1/chat/completions', source);
    const { raw } = upstream();
    const token = /TKN_EMAIL_[0-9a-z]+/.exec(raw)?.[0];
    assert.ok(token, raw);
    // The changed literal is re-encoded from its new value (à and / unescaped); every other byte as sent.
    assert.equal(raw, source.replace(`"Write to ${EMAIL} \\u00e0 \\/ once"`, `"Write to ${token} à / once"`));
    assert.match(raw, /"seed": 12345678901234567890,/);
    // The model repeated what it saw: the client reads the original back.
    assert.equal(
      answer.choices[0].message.content,
      source.replace(`"Write to ${EMAIL} \\u00e0 \\/ once"`, `"Write to ${EMAIL} à / once"`),
    );
    assert.equal(restoredRaw(raw, new Map([[token, EMAIL]])), answer.choices[0].message.content);
  });

  it('raw HTTP: a body declared in another charset goes up declared as the UTF-8 JSON it was inspected as', async () => {
    // Read as UTF-7, `+AEA-` is "@": a provider honouring the declared charset would read an address the
    // proxy, which reads every body as UTF-8, never saw. Shift_JIS would read "Â4" as two other characters.
    const raw = '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Mail marta+AEA-example.com"}]}';
    for (const type of [
      'application/json; charset=utf-7',
      'application/json;charset="Shift_JIS"',
      'text/plain',
    ]) {
      echo.seen.length = 0;
      await post('/openai/v1/chat/completions', raw, { 'content-type': type });
      assert.equal(echo.seen[0]?.raw, raw);
      assert.equal(echo.seen[0]?.contentType, 'application/json', type);
    }
  });

  it('raw HTTP: a key repeated in one object is refused (400) before anything is sent, in every inspected format', async () => {
    for (const [path, text] of [
      [
        '/openai/v1/chat/completions',
        `{"model":"m","messages":[{"role":"user","content":"hi","content":"${EMAIL}"}]}`,
      ],
      [
        '/anthropic/v1/messages',
        `{"model":"m","max_tokens":1,"system":"${EMAIL}","system":"x","messages":[]}`,
      ],
      [
        '/google/v1beta/models/gemini-2.5-flash:generateContent',
        `{"contents":[{"parts":[{"text":"a","text":"${EMAIL}"}]}]}`,
      ],
    ] as const) {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { ...serviceHeaders(), 'content-type': 'application/json' },
        body: text,
      });
      const body = await parapetError(res);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(body.code, 'invalid_request');
      assert.match(body.message, /repeats the key/);
    }
    assert.equal(echo.seen.length, 0);
  });

  it('openai SDK, chat: a metadata key holding personal data is tokenized; the other keys and their order stay', async () => {
    const metadata = { plan: 'gold', [EMAIL]: 'vip', zone: 'eu' };
    const answer = await openai().chat.completions.create({
      model: 'gpt-4o-mini',
      store: true,
      metadata,
      messages: [{ role: 'user', content: 'What is 2+2?' }],
    });
    const { body } = upstream();
    const keysSent = Object.keys(body.metadata);
    assert.equal(keysSent.length, 3);
    assert.equal(keysSent[0], 'plan');
    assert.match(keysSent[1] ?? '', /^TKN_EMAIL_[0-9a-z]+$/);
    assert.equal(keysSent[2], 'zone');
    assert.equal(body.metadata[keysSent[1] ?? ''], 'vip');
    assert.deepEqual(JSON.parse(answer.choices[0]?.message.content ?? '').metadata, metadata);
  });

  it('openai SDK, Responses: a metadata key holding personal data is tokenized, and restored (in order) where the API echoes metadata', async () => {
    const metadata = { plan: 'gold', [EMAIL]: `call ${PHONE}`, zone: 'eu' };
    const res = await openai().responses.create({ model: 'gpt-4.1-mini', metadata, input: 'What is 2+2?' });
    const { body } = upstream();
    assert.match(Object.keys(body.metadata)[1] ?? '', /^TKN_EMAIL_/);
    assert.deepEqual(res.metadata, metadata);
    assert.deepEqual(Object.keys(res.metadata ?? {}), Object.keys(metadata));
  });

  it('anthropic SDK: a metadata key other than user_id holding personal data does not reach the provider in clear', async () => {
    const client = anthropic();
    await client.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 16,
      metadata: { user_id: 'u-1', [EMAIL]: 'x' } as never,
      messages: [{ role: 'user', content: 'Hi.' }],
    });
    const { body } = upstream();
    assert.equal(body.metadata.user_id, 'u-1');
    assert.match(Object.keys(body.metadata)[1] ?? '', /^TKN_EMAIL_/);
  });

  it('raw HTTP: Gemini labels take lower-case tokens (the label charset) in keys and values; Cohere document data keys are tokenized', async () => {
    const gemini = {
      labels: { team: EMAIL, [EMAIL]: 'owner' },
      contents: [{ role: 'user', parts: [{ text: 'Hi.' }] }],
    };
    const answer = await post('/google/v1beta/models/gemini-2.5-flash:generateContent', gemini);
    // Only lower-case tokens in this body: the upstream's bytes are checked here rather than by upstream().
    assert.equal(echo.seen.length, 1);
    assert.ok(!echo.seen[0]?.raw.includes(EMAIL), echo.seen[0]?.raw);
    const labels = echo.seen[0]?.body.labels as Record<string, string>;
    assert.match(labels['team'] ?? '', /^tkn_email_[0-9a-z]+$/);
    const key = Object.keys(labels)[1] ?? '';
    assert.match(key, /^tkn_email_[0-9a-z]+$/);
    assert.equal(labels[key], 'owner');
    // Restored whatever the case of the token.
    assert.deepEqual(JSON.parse(answer.candidates[0].content.parts[0].text), gemini);

    echo.seen.length = 0;
    const cohere = {
      model: 'command-r-plus',
      // A nested object's keys are data too: Cohere renders them for the model.
      documents: [
        {
          id: 'doc-1',
          data: { [EMAIL]: 'account owner', text: 'Balance 30.', calls: [{ [PHONE]: 'twice' }] },
        },
      ],
      messages: [{ role: 'user', content: 'Who owns the account?' }],
    };
    const reply = await post('/cohere/v2/chat', cohere);
    const data = upstream().body.documents[0].data as Record<string, string>;
    assert.match(Object.keys(data)[0] ?? '', /^TKN_EMAIL_/);
    assert.equal(data['text'], 'Balance 30.');
    assert.match(Object.keys((data['calls'] as unknown as object[])[0] ?? {})[0] ?? '', /^TKN_PHONE_/);
    assert.deepEqual(JSON.parse(reply.message.content[0].text), cohere);
  });

  it('raw HTTP: two metadata keys that are one datum written differently are refused (400), nothing sent', async () => {
    const res = await fetch(`${base}/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { ...serviceHeaders(), 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'gpt-4o-mini',
        metadata: { [EMAIL]: '1', [EMAIL.toUpperCase()]: '2' },
        messages: [{ role: 'user', content: 'Hi.' }],
      }),
    });
    const body = await parapetError(res);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(body.code, 'invalid_request');
    assert.match(body.message, /would be one key once tokenized/);
    assert.equal(echo.seen.length, 0);
  });
});
