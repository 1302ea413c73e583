import assert from 'node:assert/strict';
import { Agent, request as httpRequest } from 'node:http';
import { after, before, describe, it, mock } from 'node:test';
import type { Tenant } from '../support/harness.js';
import { startNetProxy } from './netproxy-support.js';

// A stop of the network proxy (app.close, what SIGTERM runs) while streams are in flight: each stream ends
// whole, and the stop ends as soon as the last one has, because it waits on the requests in flight rather
// than looking for idle connections on a timer. The clients keep their connections alive (as SDKs do), so
// only the server closing them lets the stop end before the 72 s keep-alive timeout.

const EMAIL = 'lena.fischer@example.com';

let env: Awaited<ReturnType<typeof startNetProxy>>;
let mine: Tenant;
let agent: Agent;

before(async () => {
  env = await startNetProxy();
  mine = await env.t.tenant({ name: 'Stop' });
  agent = new Agent({ keepAlive: true });
});
after(async () => {
  mock.timers.reset();
  agent.destroy();
  await env.close().catch(() => undefined);
});

/** A streamed chat through the proxy on a keep-alive connection; resolves once the first bytes are in. */
function openStream(content: string): Promise<{ rest: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${env.proxyUrl}/proxy/openai/v1/chat/completions`,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'x-service-key': mine.al,
          authorization: 'Bearer sk-caller',
        },
      },
      (res) => {
        assert.equal(res.statusCode, 200);
        res.setEncoding('utf8');
        let text = '';
        const rest = new Promise<string>((done, cut) => {
          res.on('end', () => done(text));
          res.on('error', cut);
          res.on('aborted', () => cut(new Error(`stream cut after: ${text}`)));
        });
        res.once('data', () => resolve({ rest }));
        res.on('data', (d: string) => (text += d));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content }] }));
  });
}

const streamedText = (sse: string) =>
  sse
    .split('\n')
    .filter((l) => l.startsWith('data: {'))
    .map((l) => JSON.parse(l.slice(6)).choices?.[0]?.delta?.content ?? '')
    .join('');

describe('stopping the network proxy with streams in flight', () => {
  it('lets every stream end whole, then ends without a timer to notice it', { timeout: 30_000 }, async () => {
    env.fake.setBehavior({ chunkSize: 4, chunkDelayMs: 20 });
    const short = await openStream(`Mail ${EMAIL}.`);
    const long = await openStream(`Write to ${EMAIL} about the quarterly plan and the budget.`);
    // From here no setInterval callback runs: a stop that polls for idle connections would wait for the
    // keep-alive timeout (72 s) and this test would time out; one that waits on its requests ends.
    mock.timers.enable({ apis: ['setInterval'] });
    const stopping = env.proxy.close();
    const [shortSse, longSse] = await Promise.all([short.rest, long.rest]);
    assert.match(shortSse, /data: \[DONE\]/, 'the short stream ended whole');
    assert.match(longSse, /data: \[DONE\]/, 'the long stream ended whole');
    assert.equal(streamedText(shortSse), `Mail ${EMAIL}.`, 'rehydrated for the client, nothing cut');
    assert.equal(streamedText(longSse), `Write to ${EMAIL} about the quarterly plan and the budget.`);
    await stopping;
  });
});
