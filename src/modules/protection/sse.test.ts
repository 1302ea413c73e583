import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { describe, it } from 'node:test';
import { openSse } from './sse.js';

describe('openSse', () => {
  it('sends headers at once, keep-alive comments while idle, and aborts its signal when the client leaves', async () => {
    let aborted: Promise<void> | undefined;
    const server = createServer((_req, res) => {
      const sink = openSse(res, { 'x-ratelimit-limit': '60' }, { keepAliveMs: 20 });
      aborted = new Promise((resolve) => sink.signal.once('abort', () => resolve()));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const controller = new AbortController();
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
      signal: controller.signal,
    });
    assert.equal(res.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    assert.equal(res.headers.get('x-ratelimit-limit'), '60');
    assert.equal(res.headers.get('cache-control'), 'no-cache, no-transform');
    const reader = res.body!.getReader();
    const first = await reader.read();
    assert.match(new TextDecoder().decode(first.value), /^: keep-alive\n\n/);
    controller.abort();
    await aborted;
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('with flushHeaders false, sends the headers in the same write as the first event', async () => {
    const server = createServer((_req, res) => {
      const sink = openSse(res, {}, { flushHeaders: false });
      // Long enough that headers flushed at once would reach the client in a segment of their own.
      setTimeout(() => {
        void sink.data({ n: 1 }).then(() => sink.end());
      }, 50);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    try {
      const first = await new Promise<string>((resolve, reject) => {
        socket.once('data', (b: Buffer) => resolve(b.toString('utf8')));
        socket.once('error', reject);
        socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      });
      assert.match(first, /^HTTP\/1\.1 200 OK\r\n/);
      assert.match(first, /content-type: text\/event-stream; charset=utf-8/i);
      assert.match(first, /data: \{"n":1\}\n\n/);
    } finally {
      socket.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
