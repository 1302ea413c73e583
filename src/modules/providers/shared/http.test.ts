import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { ProviderError } from '../errors.js';
import { CallSignal } from './call-signal.js';
import { postJson, readJson } from './http.js';

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

  it('decodes a gzip, br or deflate answer the provider compressed', async () => {
    const answer = { id: 'x', choices: [{ message: { role: 'assistant', content: 'hello' } }] };
    for (const [coding, encode] of [
      ['gzip', gzipSync],
      ['br', brotliCompressSync],
      ['deflate', deflateSync],
    ] as const) {
      const server = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
          res.end(encode(Buffer.from(JSON.stringify(answer))));
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
      try {
        const call = new CallSignal('openai', { apiKey: 'sk-test', idleTimeoutMs: 5_000 });
        const response = await postJson({ provider: 'openai', url, headers: {}, body: { model: 'm' } }, call);
        const got = await readJson('openai', response, call);
        assert.deepEqual(got, answer, coding);
      } finally {
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
      }
    }
  });

  /** A server answering every request with `body` under `coding`; its URL, and its close. */
  async function compressedServer(coding: string, body: Buffer) {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
        res.end(body);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`,
      async close() {
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
      },
    };
  }

  it("decodes in zlib's thread pool, never with the synchronous calls that hold the event loop", async () => {
    // Every synchronous decoder is replaced by one that records its use (syncBuiltinESMExports carries the
    // replacement to modules that imported the name).
    const z = createRequire(import.meta.url)('node:zlib') as Record<string, (...a: unknown[]) => unknown>;
    const names = ['gunzipSync', 'inflateSync', 'brotliDecompressSync', 'unzipSync'];
    const originals = names.map((n) => z[n]);
    const used: string[] = [];
    for (const [i, n] of names.entries())
      z[n] = (...a: unknown[]) => {
        used.push(n);
        return (originals[i] as (...a: unknown[]) => unknown)(...a);
      };
    syncBuiltinESMExports();
    const answer = { id: 'x', choices: [{ message: { role: 'assistant', content: 'hello' } }] };
    try {
      // A fresh instance of the module, loaded after the replacement: it sees only the recording decoders.
      const fresh = (await import(`./http.js?${'no-sync-zlib'}`)) as typeof import('./http.js');
      for (const [coding, encode] of [
        ['gzip', gzipSync],
        ['br', brotliCompressSync],
        ['deflate', deflateSync],
      ] as const) {
        const server = await compressedServer(coding, encode(Buffer.from(JSON.stringify(answer))));
        try {
          const call = new CallSignal('openai', { apiKey: 'sk-test', idleTimeoutMs: 5_000 });
          const response = await fresh.postJson(
            { provider: 'openai', url: server.url, headers: {}, body: {} },
            call,
          );
          assert.deepEqual(await fresh.readJson('openai', response, call), answer, coding);
        } finally {
          await server.close();
        }
      }
    } finally {
      for (const [i, n] of names.entries()) z[n] = originals[i] as (...a: unknown[]) => unknown;
      syncBuiltinESMExports();
    }
    assert.deepEqual(used, []);
  });

  it('a compressed answer that inflates past 64 MB is refused as before (not JSON, 502), not inflated whole', async () => {
    const bomb = brotliCompressSync(Buffer.alloc(64 * 1024 * 1024 + 1, 0x20), {
      params: { [constants.BROTLI_PARAM_QUALITY]: 5 },
    });
    const server = await compressedServer('br', bomb);
    try {
      const call = new CallSignal('openai', { apiKey: 'sk-test', idleTimeoutMs: 5_000 });
      const response = await postJson({ provider: 'openai', url: server.url, headers: {}, body: {} }, call);
      const err = await readJson('openai', response, call).then(
        () => assert.fail('over the limit must throw'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof ProviderError);
      assert.equal(err.status, 502);
      assert.equal(err.code, 'invalid_response');
      assert.match(err.message, /not JSON/);
      assert.equal((err.cause as { code?: string }).code, 'ERR_BUFFER_TOO_LARGE');
    } finally {
      await server.close();
    }
  });
});
