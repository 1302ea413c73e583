import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import OpenAI from 'openai';
import { sentTokenized, startEcho } from '../fakes/echo-upstream.js';
import { startTestServer, type Tenant, type TestServer } from '../support/harness.js';

// The provider proxy tokenizes every string of a chat-completions request but its structural and opaque
// values, with the same walk and rule as the network proxy (docs/gateway.md, "What is inspected"): fields
// it has no reader of its own for (user, metadata, a file's name, a field of a later API version) never
// reach the provider in clear, and the model, ids, tool names and file bytes reach it byte for byte. The
// upstream is a real HTTP server that answers with the body it received as the model's text: the client
// (the official openai SDK) reads it back with every token restored.
const EMAIL = 'ines.haraldsen@example.net';
const PHONE = '+44 20 7946 0321';
const ORIGINALS = [EMAIL, PHONE];
// Structural values DLP would change if they were read as text: a digit run between `-`, `/` or `:`
// passes as a card number.
const CARD = '4111111111111111';
const MODEL = `ft:gpt-4o-mini:acme:${CARD}`;
const CALL_ID = `call-${CARD}`;
const TOOL = `notify-${CARD}`;
const FILE_DATA = `data:application/pdf;base64,JVBERi0x/${CARD}+AAAA`;

let echo: Awaited<ReturnType<typeof startEcho>>;
let t: TestServer;
let mine: Tenant;

before(async () => {
  echo = await startEcho();
  t = await startTestServer({ env: { PARAPET_PROVIDER_OPENAI_BASE_URL: `${echo.url}/openai/v1` } });
  mine = await t.tenant({ name: 'Provider proxy fields' });
});
after(async () => {
  await t.close();
  echo.server.closeAllConnections();
  await new Promise((resolve) => echo.server.close(resolve));
});
beforeEach(() => {
  echo.seen.length = 0;
});

const client = () =>
  new OpenAI({
    apiKey: 'sk-caller',
    baseURL: `${t.url}/api/v1/proxy/openai/v1`,
    defaultHeaders: { 'x-service-key': mine.al, 'x-service-organization': mine.org.id },
    maxRetries: 0,
  });

const upstream = () => sentTokenized(echo.seen, ORIGINALS);

const toolCall = (args: string) => ({
  role: 'assistant' as const,
  content: null,
  tool_calls: [{ id: CALL_ID, type: 'function' as const, function: { name: TOOL, arguments: args } }],
});

describe('provider proxy: fields it has no reader of its own for', () => {
  it('user, metadata, a file part name and an unknown field go up tokenized and come back restored; model, ids, tool names and file bytes byte-identical', async () => {
    const completion = await client().chat.completions.create({
      model: MODEL,
      user: EMAIL,
      store: true,
      // A key of metadata is data too (a free-form map): tokenized like a value.
      metadata: { customer: PHONE, [EMAIL]: 'vip' },
      // A field of a later API version than this SDK's types.
      x_briefing: { note: `call ${PHONE}` },
      tools: [{ type: 'function', function: { name: TOOL, parameters: { type: 'object', properties: {} } } }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Summarize the attached statement.' },
            { type: 'file', file: { filename: `${EMAIL} statement.pdf`, file_data: FILE_DATA } },
          ],
        },
        toolCall('{"to":"ok"}'),
        { role: 'tool', tool_call_id: CALL_ID, content: 'sent' },
      ],
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    const { body } = upstream();
    assert.match(body.user, /^TKN_EMAIL_/);
    assert.match(body.metadata.customer, /^TKN_PHONE/);
    const metaKeys = Object.keys(body.metadata);
    assert.equal(metaKeys.length, 2);
    assert.match(metaKeys[1] ?? '', /^TKN_EMAIL_[0-9a-z]+$/);
    assert.equal(body.metadata[metaKeys[1] ?? ''], 'vip');
    assert.match(body.x_briefing.note, /^call TKN_PHONE/);
    assert.match(body.messages[0].content[1].file.filename, /^TKN_EMAIL_[0-9a-z]+ statement\.pdf$/);
    assert.equal(body.model, MODEL);
    assert.equal(body.messages[0].content[1].file.file_data, FILE_DATA);
    assert.equal(body.messages[1].tool_calls[0].id, CALL_ID);
    assert.equal(body.messages[1].tool_calls[0].function.name, TOOL);
    assert.equal(body.messages[2].tool_call_id, CALL_ID);
    assert.equal(body.tools[0].function.name, TOOL);
    // The echo's text is the body the upstream saw: restored for the client.
    assert.equal(completion.model, MODEL);
    const seen = JSON.parse(completion.choices[0]?.message.content ?? '');
    assert.equal(seen.user, EMAIL);
    assert.deepEqual(seen.metadata, { customer: PHONE, [EMAIL]: 'vip' });
    assert.equal(seen.x_briefing.note, `call ${PHONE}`);
    assert.equal(seen.messages[0].content[1].file.filename, `${EMAIL} statement.pdf`);
  });

  it('tool-call arguments with personal data: only that string literal changes, every other byte as written (a 20-digit integer keeps its digits)', async () => {
    const args = `{ "order" :12345678901234567890,\n  "to":"${EMAIL}" , "note":"a\\"b", "rate": 1.50e+3 }`;
    const completion = await client().chat.completions.create({
      model: MODEL,
      messages: [
        { role: 'user', content: 'Send it.' },
        toolCall(args),
        { role: 'tool', tool_call_id: CALL_ID, content: 'sent' },
      ],
    });
    const sent = upstream().body.messages[1].tool_calls[0].function.arguments as string;
    const token = /"(TKN_EMAIL_[0-9a-z]+)"/.exec(sent)?.[1];
    assert.ok(token, sent);
    assert.equal(sent, args.replace(EMAIL, token));
    const seen = JSON.parse(completion.choices[0]?.message.content ?? '');
    assert.equal(seen.messages[1].tool_calls[0].function.arguments, args);
  });

  it('tool-call arguments nested deeper than 64 levels (20,000 brackets around 2,000 e-mails): a prompt 400 in the spec body, nothing sent', async () => {
    const list = Array.from({ length: 2000 }, (_, i) => `"u${i}@example.net"`).join(',');
    const args = `${'['.repeat(20_000)}${list}${']'.repeat(20_000)}`;
    // Raw HTTP: the SDK keeps only the body's `error` field, and the message is what says why.
    const res = await fetch(`${t.url}/api/v1/proxy/openai/v1/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer sk-caller',
        'content-type': 'application/json',
        'x-service-key': mine.al,
        'x-service-organization': mine.org.id,
      },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Go.' }, toolCall(args)] }),
    });
    const body = (await res.json()) as { error: string; message: string };
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(body.error, 'invalid_request');
    assert.match(body.message, /nests deeper than 64/);
    assert.equal(echo.seen.length, 0);
  });
});
