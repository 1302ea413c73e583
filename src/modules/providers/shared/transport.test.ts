import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  type ChatRequest,
  collectStream,
  createProviders,
  type ProviderAdapter,
  ProviderError,
} from '../index.js';
import { AbortEmitter, onAbort } from './abort.js';

type Ending = 'at-once' | 'late' | 'never' | 'slow';

/**
 * An OpenAI-shaped upstream that counts its connections, the ones closed, and the responses cut before
 * their end. `ending` says how a stream ends: with its last event, a little after [DONE] (the end of the
 * chunked body in a later packet), never after [DONE], or not at all (frames until the client leaves).
 */
function startUpstream(ending: { value: Ending }) {
  const seen = { connections: 0, closed: 0, cut: 0 };
  const frame = (delta: unknown, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (b: Buffer) => (body += b.toString()));
    req.on('end', () => {
      res.on('close', () => {
        if (!res.writableFinished) seen.cut++;
      });
      if (!(JSON.parse(body) as { stream?: boolean }).stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'c',
            object: 'chat.completion',
            created: 1,
            model: 'm',
            choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(frame({ role: 'assistant', content: 'hel' }));
      if (ending.value === 'slow') {
        const timer = setInterval(() => res.write(frame({ content: '.' })), 10);
        res.on('close', () => clearInterval(timer));
        return;
      }
      const last = `${frame({ content: 'lo' })}${frame({}, 'stop')}data: [DONE]\n\n`;
      if (ending.value === 'at-once') res.end(last);
      else res.write(last);
      if (ending.value === 'late') setTimeout(() => res.end(), 30);
    });
  });
  server.on('connection', (socket) => {
    seen.connections++;
    socket.on('close', () => seen.closed++);
  });
  return { server, seen };
}

describe('upstream transport', () => {
  const ending: { value: Ending } = { value: 'at-once' };
  const { server, seen } = startUpstream(ending);
  let adapter: ProviderAdapter;
  const request: ChatRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };

  before(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const found = createProviders({ baseUrls: { openai: `http://127.0.0.1:${port}/v1` } }).get('openai');
    assert.ok(found);
    adapter = found;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('keeps its pooled connections when streams end on their last event, even before the body ends', async () => {
    for (const end of ['at-once', 'late'] as const) {
      ending.value = end;
      for (let i = 0; i < 3; i++) {
        const answer = await adapter.chat(request, { apiKey: 'k' });
        assert.equal(answer.choices[0]?.message.content, 'hello');
        const streamed = await collectStream(adapter.stream(request, { apiKey: 'k' }));
        assert.equal(streamed.choices[0]?.message.content, 'hello');
      }
    }
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(seen.closed, 0);
    assert.equal(seen.cut, 0);
  });

  it('cuts a body that does not end after its last event', async () => {
    ending.value = 'never';
    const cutBefore = seen.cut;
    const streamed = await collectStream(adapter.stream(request, { apiKey: 'k' }));
    assert.equal(streamed.choices[0]?.message.content, 'hello');
    await waitFor(() => seen.cut === cutBefore + 1, 3_000);
  });

  it('cancels the upstream request when the caller aborts through an AbortEmitter', async () => {
    ending.value = 'slow';
    const cutBefore = seen.cut;
    const gone = new AbortEmitter();
    const consumed = (async () => {
      for await (const c of adapter.stream(request, { apiKey: 'k', signal: gone })) {
        if (c.choices[0]?.delta.content) gone.abort();
      }
    })();
    await assert.rejects(consumed, (e: unknown) => e instanceof ProviderError && e.code === 'aborted');
    await waitFor(() => seen.cut === cutBefore + 1);
  });

  it('cancels the upstream request when the consumer stops reading early', async () => {
    ending.value = 'slow';
    const cutBefore = seen.cut;
    for await (const c of adapter.stream(request, { apiKey: 'k' })) {
      if (c.choices[0]?.delta.content) break;
    }
    await waitFor(() => seen.cut === cutBefore + 1);
  });

  it('refuses at once when the AbortEmitter has already fired', async () => {
    const gone = new AbortEmitter();
    gone.abort();
    await assert.rejects(
      adapter.chat(request, { apiKey: 'k', signal: gone }),
      (e: unknown) => e instanceof ProviderError && e.code === 'aborted',
    );
  });
});

describe('onAbort', () => {
  for (const [kind, make] of [
    ['AbortEmitter', () => new AbortEmitter()],
    ['AbortController', () => new AbortController()],
  ] as const) {
    it(`calls the listener once for an ${kind}, and not after it stopped listening`, () => {
      const first = make();
      let calls = 0;
      onAbort(first instanceof AbortController ? first.signal : first, () => calls++);
      first.abort();
      first.abort();
      assert.equal(calls, 1);

      const second = make();
      const stop = onAbort(second instanceof AbortController ? second.signal : second, () => calls++);
      stop();
      second.abort();
      assert.equal(calls, 1);
    });
  }
});

async function waitFor(predicate: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
