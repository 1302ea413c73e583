// What the protected chat stores of an answer that did not end normally: the client went away, the upstream
// failed or dropped the connection mid-answer, or the answer hit its length limit. The stored turn is built
// from the upstream's own text (tokens), never from the rehydrated text the client read, and an answer cut
// in the middle of a value the model wrote in clear keeps no part of that value (docs/gateway.md).
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { FakeBehavior, FakeProviderServer } from '../fakes/provider-server.js';
import type { Tenant, TestServer } from '../support/harness.js';
import { sseEvents, startGatewayServer } from './gateway-support.js';

let t: TestServer;
let fake: FakeProviderServer;

before(async () => {
  ({ t, fake } = await startGatewayServer());
});
after(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => fake.reset());

const EMAIL = 'anna.keller@example.com';
// The fake echoes the user's message as the upstream got it: the e-mail as its token. "Please write to "
// is 16 characters and a token 18 (TKN_EMAIL_ and 8), so 4-character chunks complete it with the 9th.
const MESSAGE = `Please write to ${EMAIL} about the invoice and the reminder we sent in March.`;
const AFTER_TOKEN = 10;
// Values the model writes in clear (it knew them; no token stood for them yet). With 4-character chunks,
// 15 chunks end inside the IBAN: "… pay to IBAN DE89 3704 0044".
const IBAN = 'DE89 3704 0044 0532 0130 00';
const MODEL_EMAIL = 'bob.smith@corp.example';
const ANSWER = `Contact ${MODEL_EMAIL} or pay to IBAN ${IBAN} today.`;
const INSIDE_IBAN = 15;
const CUT_ANSWER = ANSWER.slice(0, INSIDE_IBAN * 4);
const SHOWN_PART = 'DE89 3704 0044';
assert.ok(CUT_ANSWER.endsWith(` ${SHOWN_PART}`));
const preferred = { routing: { preferredModel: 'openai/gpt-4o-mini' } };

/** The parts of `value` (6 characters or more) that appear in `text`. */
function partsIn(text: string, value: string): string[] {
  const found: string[] = [];
  for (let i = 0; i + 6 <= value.length; i++) {
    const part = value.slice(i, i + 6);
    if (text.includes(part)) found.push(part);
  }
  return found;
}

async function keyedTenant(): Promise<Tenant> {
  const org = await t.tenant();
  await t.ctx.gateway.keys.put(org.org, 'openai', { apiKey: 'sk-stored-0123456789' }, null);
  return org;
}

/** The organization's only conversation, once its turn is stored (an aborted stream stores after the close). */
async function storedConversation(org: Tenant): Promise<{ id: string; messages: string }> {
  for (let i = 0; i < 400; i++) {
    const row = await t.ctx.storage.db
      .selectFrom('gateway_conversations')
      .select(['id', 'messages'])
      .where('org_id', '=', org.org.id)
      .executeTakeFirst();
    if (row) return row;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('no conversation was stored');
}

/** The stored turn, in the database and through the API: no part of `values`, and the tokens asked for. */
async function assertStored(
  org: Tenant,
  values: string[],
  tokens: string[],
  id?: string,
): Promise<{ answer: string }> {
  const row = id
    ? await t.ctx.storage.db
        .selectFrom('gateway_conversations')
        .select(['id', 'messages'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    : await storedConversation(org);
  const read = await t.request('GET', `/api/v1/gateway/conversations/${row.id}`, { key: org.sw });
  assert.equal(read.status, 200, read.text);
  for (const value of values) {
    assert.deepEqual(partsIn(row.messages, value), [], `part of ${value} stored: ${row.messages}`);
    assert.deepEqual(partsIn(read.text, value), [], `part of ${value} in the read-out: ${read.text}`);
  }
  const answer = read.body.messages.at(-1) as { role: string; content: string };
  assert.equal(answer.role, 'assistant');
  for (const type of tokens)
    assert.match(answer.content, new RegExp(`TKN_${type}_[0-9a-z]{8}`), answer.content);
  return { answer: answer.content };
}

/** Text of the token events of an SSE body. */
const shown = (text: string) =>
  sseEvents(text)
    .filter((e) => e.json?.type === 'token')
    .map((e) => e.json.content as string)
    .join('');

/**
 * A streamed chat whose client reads until it was shown `until` in clear, then goes away (the upstream
 * stalls after a few chunks, so where the answer stops is known).
 */
function streamAndLeave(org: Tenant, message: string, until: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${t.url}/api/v1/gateway/chat`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${org.sw}` },
      },
      (res) => {
        let received = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          received += d;
          if (shown(received).includes(until)) {
            res.destroy();
            req.destroy();
            resolve(shown(received));
          }
        });
        res.on('end', () => reject(new Error(`the stream ended before ${until} was shown: ${received}`)));
        res.on('error', () => undefined);
      },
    );
    req.on('error', (err) => {
      if (!(err as NodeJS.ErrnoException).code?.startsWith('ECONNRESET')) reject(err);
    });
    req.end(JSON.stringify({ message, stream: true, ...preferred }));
  });
}

async function streamed(org: Tenant, message: string, behavior: FakeBehavior) {
  fake.queue(behavior);
  const res = await t.request('POST', '/api/v1/gateway/chat', {
    key: org.sw,
    body: { message, stream: true, ...preferred },
  });
  assert.equal(res.status, 200, res.text);
  assert.equal(fake.requests.length, 1, 'one upstream call: no fallback once the answer began');
  const events = sseEvents(res.text);
  return { events, shown: shown(res.text), meta: events.find((e) => e.json?.type === 'meta')?.json };
}

describe('a streamed answer holding the user’s value as a token: stored with the token, on every ending', () => {
  const behaviors: Array<[string, FakeBehavior]> = [
    ['it ends normally', { chunkSize: 4 }],
    ['the upstream sends an error event after the token', { chunkSize: 4, errorAfterChunks: AFTER_TOKEN }],
    [
      'the upstream drops the connection after the token',
      { chunkSize: 4, dropAfterChunks: AFTER_TOKEN, chunkDelayMs: 3 },
    ],
    [
      'the upstream connection is cut inside a frame after the token',
      { chunkSize: 4, cutInsideFrameAfterChunks: AFTER_TOKEN, chunkDelayMs: 3 },
    ],
    ['the answer hits its length limit', { chunkSize: 4, finishReason: 'length' }],
  ];
  for (const [name, behavior] of behaviors) {
    it(`when ${name}`, async () => {
      const org = await keyedTenant();
      const res = await streamed(org, MESSAGE, behavior);
      assert.ok(res.shown.includes(EMAIL), `the client was shown the value: ${res.shown}`);
      await assertStored(org, [EMAIL], ['EMAIL'], res.meta?.conversationId);
    });
  }

  it('when the client goes away after it was shown the value', async () => {
    const org = await keyedTenant();
    fake.queue({ chunkSize: 4, stallInsideFrameAfterChunks: AFTER_TOKEN });
    const seen = await streamAndLeave(org, MESSAGE, EMAIL);
    assert.ok(seen.includes(EMAIL));
    await fake.waitFor(() => fake.lastRequest()?.closedEarly === true, 5000);
    await assertStored(org, [EMAIL], ['EMAIL']);
  });
});

describe('a streamed answer cut inside a value the model wrote in clear: no part of it is stored', () => {
  const behaviors: Array<[string, FakeBehavior]> = [
    ['the upstream sends an error event', { reply: ANSWER, chunkSize: 4, errorAfterChunks: INSIDE_IBAN }],
    [
      'the upstream drops the connection',
      { reply: ANSWER, chunkSize: 4, dropAfterChunks: INSIDE_IBAN, chunkDelayMs: 3 },
    ],
    [
      'the upstream connection is cut inside a frame',
      { reply: ANSWER, chunkSize: 4, cutInsideFrameAfterChunks: INSIDE_IBAN, chunkDelayMs: 3 },
    ],
    ['the answer hits its length limit', { reply: CUT_ANSWER, chunkSize: 4, finishReason: 'length' }],
    // Not a reason that means "finished" (Mistral's words pass through): fail closed, a cut answer.
    [
      'the answer ends with a reason that does not mean finished',
      { reply: CUT_ANSWER, chunkSize: 4, finishReason: 'model_length' },
    ],
  ];
  for (const [name, behavior] of behaviors) {
    it(`when ${name}`, async () => {
      const org = await keyedTenant();
      const res = await streamed(org, 'Whom do I pay?', behavior);
      assert.ok(res.shown.endsWith(SHOWN_PART), res.shown);
      await assertStored(org, [IBAN, MODEL_EMAIL], ['EMAIL'], res.meta?.conversationId);
    });
  }

  it('when the client goes away', async () => {
    const org = await keyedTenant();
    fake.queue({ reply: ANSWER, chunkSize: 4, stallInsideFrameAfterChunks: INSIDE_IBAN });
    const seen = await streamAndLeave(org, 'Whom do I pay?', SHOWN_PART);
    assert.ok(seen.endsWith(SHOWN_PART), seen);
    await fake.waitFor(() => fake.lastRequest()?.closedEarly === true, 5000);
    await assertStored(org, [IBAN, MODEL_EMAIL], ['EMAIL']);
  });

  it('also when the vault holds the value from an earlier answer of the conversation', async () => {
    const org = await keyedTenant();
    fake.queue({ reply: ANSWER });
    const first = await t.request('POST', '/api/v1/gateway/chat', {
      key: org.sw,
      body: { message: 'Whom do I pay?', ...preferred },
    });
    assert.equal(first.status, 200, first.text);
    const id = first.body.conversationId as string;
    fake.queue({ reply: ANSWER, chunkSize: 4, errorAfterChunks: INSIDE_IBAN });
    const res = await t.request('POST', '/api/v1/gateway/chat', {
      key: org.sw,
      body: { message: 'Again, please?', conversationId: id, stream: true },
    });
    assert.ok(shown(res.text).endsWith(SHOWN_PART), res.text);
    await assertStored(org, [IBAN, MODEL_EMAIL], ['EMAIL'], id);
  });
});

describe('a cut answer of which nothing is finished', () => {
  it("keeps the user's message with a note in the answer's place, and no part of the value", async () => {
    const org = await keyedTenant();
    // "Pay to DE89 3704 " and the upstream fails: no token, line break or sentence end to keep up to.
    const res = await streamed(org, 'Whom do I pay?', {
      reply: `Pay to ${IBAN}.`,
      chunkSize: 4,
      errorAfterChunks: 4,
    });
    assert.ok(res.shown.includes('DE89 3704'), res.shown);
    const rows = await t.ctx.storage.db
      .selectFrom('gateway_conversations')
      .select(['id', 'messages'])
      .where('org_id', '=', org.org.id)
      .execute();
    assert.equal(rows.length, 1, 'the conversation is stored');
    assert.equal(res.meta?.conversationId ?? rows[0]!.id, rows[0]!.id, JSON.stringify(res.meta));
    const messages = JSON.parse(String(rows[0]!.messages)) as Array<{ role: string; content: string }>;
    assert.deepEqual(
      messages.filter((m) => m.role !== 'system'),
      [
        { role: 'user', content: 'Whom do I pay?' },
        { role: 'assistant', content: '[The answer was cut off before any of it finished.]' },
      ],
    );
    assert.ok(!rows[0]!.messages.includes('3704'), rows[0]!.messages);
  });
});

describe('a whole (not streamed) answer', () => {
  it('stores the token of the user’s value and no part of it', async () => {
    const org = await keyedTenant();
    fake.queue({});
    const res = await t.request('POST', '/api/v1/gateway/chat', {
      key: org.sw,
      body: { message: MESSAGE, ...preferred },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.response, MESSAGE);
    await assertStored(org, [EMAIL], ['EMAIL'], res.body.conversationId);
  });

  it("that ended with a provider's own word for a natural end (Together's eos) is stored whole", async () => {
    const org = await keyedTenant();
    const reply = 'The capital of France is Paris';
    fake.queue({ reply, finishReason: 'eos' });
    const res = await t.request('POST', '/api/v1/gateway/chat', {
      key: org.sw,
      body: { message: 'Capital of France?', ...preferred },
    });
    assert.equal(res.status, 200, res.text);
    const { answer } = await assertStored(org, [], [], res.body.conversationId);
    assert.equal(answer, reply);
  });

  // `error` is not a reason the chat knows to mean finished (Mistral's words pass through): fail closed.
  for (const [name, finishReason] of [
    ['hit its length limit', 'length'],
    ['ended with a reason not known to mean finished', 'error'],
  ]) {
    it(`that ${name} inside a value the model wrote stores no part of it`, async () => {
      const org = await keyedTenant();
      fake.queue({ reply: CUT_ANSWER, finishReason });
      const res = await t.request('POST', '/api/v1/gateway/chat', {
        key: org.sw,
        body: { message: 'Whom do I pay?', ...preferred },
      });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.response, CUT_ANSWER, 'the caller reads what the model wrote');
      await assertStored(org, [IBAN, MODEL_EMAIL], ['EMAIL'], res.body.conversationId);
    });
  }
});
