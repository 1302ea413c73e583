import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { ProviderError } from '../errors.js';
import { CallSignal } from './call-signal.js';
import { postJson } from './http.js';

describe('postJson', () => {
  it('reads at most 64 KB of an error body that never ends, and lets go of the connection', async () => {
    let closed!: Promise<void>;
    const server = createServer((req, res) => {
      closed = new Promise((resolve) => res.once('close', () => resolve()));
      req.resume();
      req.on('end', () => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        const chunk = 'x'.repeat(16 * 1024);
        // Writes until the client goes away: without a limit the reader would buffer forever.
        const pump = () => {
          while (!res.destroyed && res.write(chunk)) {}
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
    try {
      const call = new CallSignal('openai', { apiKey: 'sk-test', idleTimeoutMs: 5_000 });
      const err = await postJson({ provider: 'openai', url, headers: {}, body: { model: 'm' } }, call).then(
        () => assert.fail('a 500 must throw'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof ProviderError);
      assert.equal(err.status, 500);
      assert.equal(typeof err.body, 'string');
      assert.equal((err.body as string).length, 64 * 1024);
      await closed;
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
