// The same contract for every HTTP adapter, run against the fake provider server speaking each wire format.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type FakeProviderServer, startFakeProviderServer } from '../../../test/fakes/provider-server.js';
import {
  type CallContext,
  type ChatChunk,
  type ChatRequest,
  collectStream,
  createProviders,
  type ProviderAdapter,
  ProviderError,
  type ProviderId,
  type Providers,
} from './index.js';

const MODELS: Record<Exclude<ProviderId, 'parapet'>, string> = {
  openai: 'gpt-4o-mini',
  azure: 'gpt-4o-mini',
  anthropic: 'claude-haiku-4-5',
  google: 'gemini-2.5-flash',
  mistral: 'mistral-small-latest',
  cohere: 'command-r-08-2024',
  openrouter: 'openai/gpt-4o-mini',
  together: 'meta-llama/Llama-3.3-70B-Instruct-Turbo',
  fireworks: 'accounts/fireworks/models/llama-v3p3-70b-instruct',
  groq: 'llama-3.3-70b-versatile',
};

const WEATHER_TOOL = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {});

/** Where each wire format put the system prompt we sent. */
function systemSent(id: ProviderId, body: unknown): string | undefined {
  const b = obj(body);
  if (id === 'anthropic') return b['system'] as string | undefined;
  if (id === 'google') return obj((obj(b['systemInstruction'])['parts'] as unknown[])?.[0])['text'] as string;
  const messages = (b['messages'] as Obj[]) ?? [];
  return messages.find((m) => m['role'] === 'system')?.['content'] as string | undefined;
}

async function drain(stream: AsyncIterable<ChatChunk>): Promise<ChatChunk[]> {
  const out: ChatChunk[] = [];
  for await (const c of stream) out.push(c);
  return out;
}

async function rejectsWith(promise: Promise<unknown>, check: (e: ProviderError) => void): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof ProviderError, `expected ProviderError, got ${String(err)}`);
    check(err);
    return true;
  });
}

describe('provider adapters against the fake provider server', () => {
  let fake: FakeProviderServer;
  let providers: Providers;

  before(async () => {
    fake = await startFakeProviderServer();
    providers = createProviders({ baseUrls: fake.baseUrls });
  });
  after(() => fake.close());
  beforeEach(() => fake.reset());

  for (const id of Object.keys(MODELS) as Array<keyof typeof MODELS>) {
    describe(id, () => {
      const adapter = (): ProviderAdapter => {
        const a = providers.get(id);
        assert.ok(a);
        return a;
      };
      const ctx = (extra: Partial<CallContext> = {}): CallContext => ({ apiKey: `key-${id}`, ...extra });
      const request = (extra: Partial<ChatRequest> = {}): ChatRequest => ({
        model: MODELS[id],
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'user', content: 'Hello TKN_NAME_ab12 from Zürich 👋' },
        ],
        ...extra,
      });

      it('chat echoes the last user message, sends the system prompt and reports usage', async () => {
        const res = await adapter().chat(request(), ctx());
        assert.equal(res.object, 'chat.completion');
        assert.equal(res.choices[0]?.message.content, 'Hello TKN_NAME_ab12 from Zürich 👋');
        assert.equal(res.choices[0]?.finish_reason, 'stop');
        assert.deepEqual(res.usage, {
          ...res.usage,
          prompt_tokens: 11,
          completion_tokens: 7,
          total_tokens: 18,
        });
        const sent = fake.lastRequest();
        assert.equal(sent?.provider, id);
        assert.equal(sent?.stream, false);
        assert.equal(systemSent(id, sent?.body), 'You are terse.');
        const headers = JSON.stringify(sent?.headers);
        assert.ok(headers.includes(`key-${id}`), 'the API key is sent in the provider’s auth header');
      });

      it('stream yields the same text in several chunks, then finish and usage', async () => {
        fake.setBehavior({ chunkSize: 5 });
        const chunks = await drain(adapter().stream(request(), ctx()));
        const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
        assert.equal(text, 'Hello TKN_NAME_ab12 from Zürich 👋');
        assert.ok(chunks.filter((c) => c.choices[0]?.delta.content).length >= 5);
        assert.ok(chunks.every((c) => c.object === 'chat.completion.chunk'));
        const finish = chunks.find((c) => c.choices[0]?.finish_reason);
        assert.equal(finish?.choices[0]?.finish_reason, 'stop');
        const last = chunks[chunks.length - 1];
        assert.deepEqual(last?.choices, []);
        assert.equal(last?.usage?.total_tokens, 18);
        assert.equal(fake.lastRequest()?.stream, true);
        assert.equal(fake.lastRequest()?.headers['accept'], 'text/event-stream');
      });

      it('returns tool calls, plain and streamed, with JSON arguments', async () => {
        fake.setBehavior({ reply: '', toolCalls: [{ name: 'get_weather', arguments: { city: 'Genève' } }] });
        const req = request({ tools: [WEATHER_TOOL], tool_choice: 'auto' });
        const plain = await adapter().chat(req, ctx());
        const call = plain.choices[0]?.message.tool_calls?.[0];
        assert.equal(call?.function.name, 'get_weather');
        assert.deepEqual(JSON.parse(call?.function.arguments ?? ''), { city: 'Genève' });
        assert.ok(call?.id, 'every tool call has an id');
        assert.equal(plain.choices[0]?.finish_reason, 'tool_calls');

        const streamed = await collectStream(adapter().stream(req, ctx()));
        const sCall = streamed.choices[0]?.message.tool_calls?.[0];
        assert.equal(sCall?.function.name, 'get_weather');
        assert.deepEqual(JSON.parse(sCall?.function.arguments ?? ''), { city: 'Genève' });
        assert.equal(streamed.choices[0]?.finish_reason, 'tool_calls');
        const sentTools = JSON.stringify(obj(fake.lastRequest()?.body)['tools']);
        assert.ok(
          sentTools.includes('get_weather') && sentTools.includes('city'),
          'tool declarations are sent',
        );
      });

      it('maps a 429 to a retryable ProviderError carrying status, Retry-After and the upstream body', async () => {
        fake.setBehavior({ status: 429, retryAfter: 7, errorMessage: 'slow down' });
        await rejectsWith(adapter().chat(request(), ctx()), (e) => {
          assert.equal(e.status, 429);
          assert.equal(e.provider, id);
          assert.equal(e.retryable, true);
          assert.equal(e.code, 'rate_limited');
          assert.equal(e.retryAfter, 7);
          assert.ok(JSON.stringify(e.body).includes('slow down'));
          assert.ok(!e.message.includes(`key-${id}`), 'the key never appears in messages');
        });
        await rejectsWith(drain(adapter().stream(request(), ctx())), (e) => assert.equal(e.status, 429));
      });

      it('maps a 400 to a non-retryable ProviderError', async () => {
        fake.setBehavior({ status: 400, errorMessage: 'bad field' });
        await rejectsWith(adapter().chat(request(), ctx()), (e) => {
          assert.equal(e.status, 400);
          assert.equal(e.retryable, false);
          assert.match(e.message, /bad field/);
        });
      });

      it('raises an error reported mid-stream after the chunks already delivered', async () => {
        fake.setBehavior({ chunkSize: 4, errorAfterChunks: 2 });
        const seen: string[] = [];
        await rejectsWith(
          (async () => {
            for await (const c of adapter().stream(request(), ctx()))
              seen.push(c.choices[0]?.delta.content ?? '');
          })(),
          (e) => {
            assert.equal(e.code, 'stream_error');
            assert.ok(e.status >= 500, `status ${e.status}`);
          },
        );
        assert.equal(seen.join(''), 'Hello TK');
      });

      it('raises a retryable stream_error when the connection drops mid-stream', async () => {
        fake.setBehavior({ chunkSize: 4, dropAfterChunks: 1 });
        await rejectsWith(drain(adapter().stream(request(), ctx())), (e) => {
          assert.equal(e.code, 'stream_error');
          assert.equal(e.status, 502);
          assert.equal(e.retryable, true);
        });
      });

      it('raises a network_error when the connection drops before any response', async () => {
        fake.setBehavior({ dropConnection: true });
        await rejectsWith(adapter().chat(request(), ctx()), (e) => {
          assert.equal(e.code, 'network_error');
          assert.equal(e.retryable, true);
        });
      });

      it('stops the upstream request when the consumer stops reading early', async () => {
        fake.setBehavior({ chunkSize: 2, chunkDelayMs: 20 });
        let count = 0;
        for await (const c of adapter().stream(request(), ctx())) {
          if (c.choices[0]?.delta.content) count++;
          if (count === 2) break;
        }
        await fake.waitFor(() => fake.lastRequest()?.closedEarly === true);
        assert.equal(fake.lastRequest()?.completed, false);
      });

      it('stops the upstream request when the caller aborts (stream and chat)', async () => {
        fake.setBehavior({ chunkSize: 2, chunkDelayMs: 20 });
        const controller = new AbortController();
        const consumed = (async () => {
          for await (const c of adapter().stream(request(), ctx({ signal: controller.signal }))) {
            if (c.choices[0]?.delta.content) controller.abort();
          }
        })();
        await rejectsWith(consumed, (e) => {
          assert.equal(e.code, 'aborted');
          assert.equal(e.status, 499);
        });
        await fake.waitFor(() => fake.lastRequest()?.closedEarly === true);

        fake.setBehavior({ firstChunkDelayMs: 5_000 });
        const second = new AbortController();
        const pending = adapter().chat(request(), ctx({ signal: second.signal }));
        await fake.waitFor(() => fake.requests.length === 2);
        second.abort();
        await rejectsWith(pending, (e) => assert.equal(e.code, 'aborted'));
        await fake.waitFor(() => fake.lastRequest()?.closedEarly === true);
      });

      it('gives up with a timeout error when the first token is too slow', async () => {
        fake.setBehavior({ firstChunkDelayMs: 5_000 });
        await rejectsWith(drain(adapter().stream(request(), ctx({ timeoutMs: 50 }))), (e) => {
          assert.equal(e.code, 'timeout');
          assert.equal(e.status, 504);
        });
        await fake.waitFor(() => fake.lastRequest()?.closedEarly === true);
      });
    });
  }
});
