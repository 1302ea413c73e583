import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type Tenant, type TestServer } from '../support/harness.js';
import { rawPost } from './gateway-support.js';

// An upstream that, unlike the shared fake, honours backpressure, so the test can see how far the gateway
// pulled it while the client reads nothing.
const FRAME_TEXT = 'x'.repeat(16_000);
const FRAMES = 4_000; // 64 MB in all
let flood: Server;
let written = 0;
let finished = false;
let closedEarly = false;

function frame(i: number): string {
  const chunk = {
    id: 'chatcmpl-flood',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'gpt-4o-mini',
    choices: [
      {
        index: 0,
        delta: i === 0 ? { role: 'assistant', content: FRAME_TEXT } : { content: FRAME_TEXT },
        finish_reason: null,
      },
    ],
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

let t: TestServer;
let org: Tenant;

before(async () => {
  flood = createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      written = 0;
      finished = false;
      closedEarly = false;
      res.on('close', () => {
        if (!finished) closedEarly = true;
      });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 0; i < FRAMES; i++) {
        if (res.destroyed) return;
        const text = frame(i);
        written += text.length;
        if (!res.write(text)) {
          await new Promise<void>((resolve) => {
            res.once('drain', resolve);
            res.once('close', resolve);
          });
        }
      }
      res.end('data: [DONE]\n\n');
      finished = true;
    });
  });
  await new Promise<void>((r) => flood.listen(0, '127.0.0.1', r));
  const port = (flood.address() as AddressInfo).port;
  t = await startTestServer({ env: { PARAPET_PROVIDER_OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` } });
  org = await t.tenant({ name: 'Slow reader' });
  await t.ctx.gateway.keys.put(org.org, 'openai', { apiKey: 'sk-flood-0123456789' }, null);
});
after(async () => {
  await t.close();
  flood.closeAllConnections();
  await new Promise((r) => flood.close(r));
});

async function waitUntil(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
}

describe('slow readers', () => {
  for (const [name, path, headers, body] of [
    [
      'protected chat',
      '/api/v1/gateway/chat',
      () => ({ authorization: `Bearer ${org.sw}` }),
      { message: 'flood me', stream: true, routing: { preferredModel: 'openai/gpt-4o-mini' } },
    ],
    [
      'provider proxy',
      '/api/v1/proxy/openai/v1/chat/completions',
      () => ({
        authorization: 'Bearer sk-caller',
        'x-service-key': org.al,
        'x-service-organization': org.org.id,
      }),
      { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'flood me' }] },
    ],
  ] as const) {
    it(`${name}: the upstream is held back while the client reads nothing, and cancelled when it leaves`, async () => {
      const res = await rawPost(`${t.url}${path}`, headers(), body, { readBytes: 1, after: 'pause' });
      assert.equal(res.status, 200);
      await new Promise((r) => setTimeout(r, 600));
      const total = FRAMES * frame(1).length;
      assert.equal(finished, false, 'upstream did not run to the end');
      assert.ok(written < total / 4, `pulled ${written} of ${total} bytes`);
      res.stop();
      await waitUntil(() => closedEarly, 3000);
      assert.equal(closedEarly, true, 'upstream cancelled after the client left');
    });
  }
});
