import { request as httpRequest } from 'node:http';
import type { Logger } from '../../src/platform/log/index.js';
import { type FakeProviderServer, startFakeProviderServer } from '../fakes/provider-server.js';
import { startTestServer, type TestServer } from '../support/harness.js';

/** A test server whose provider base URLs all point at one fake provider server. */
export async function startGatewayServer(
  options: { logger?: Logger } = {},
): Promise<{ t: TestServer; fake: FakeProviderServer }> {
  const fake = await startFakeProviderServer();
  const env: Record<string, string> = {};
  for (const [id, url] of Object.entries(fake.baseUrls))
    env[`PARAPET_PROVIDER_${id.toUpperCase()}_BASE_URL`] = url;
  const t = await startTestServer({ env, ...options });
  return { t, fake };
}

export interface SseEvent {
  data: string;
  json?: any;
}

/** Splits an SSE body into its data events (comments dropped). */
export function sseEvents(text: string): SseEvent[] {
  const out: SseEvent[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const lines = block.split(/\r?\n/).filter((l) => l.startsWith('data:'));
    if (lines.length === 0) continue;
    const data = lines.map((l) => l.slice(5).replace(/^ /, '')).join('\n');
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      json = undefined;
    }
    out.push({ data, json });
  }
  return out;
}

/**
 * A raw HTTP POST whose response body the test controls: reads `readBytes` and then either destroys the
 * socket (a client that goes away) or stops reading (a slow reader).
 */
export function rawPost(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  opts: { readBytes: number; after: 'destroy' | 'pause' },
): Promise<{ status: number; headers: Record<string, unknown>; received: string; stop(): void }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        let received = '';
        let done = false;
        res.setEncoding('utf8');
        const finish = () => {
          if (done) return;
          done = true;
          if (opts.after === 'destroy') {
            res.destroy();
            req.destroy();
          } else res.pause();
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            received,
            stop: () => {
              res.destroy();
              req.destroy();
            },
          });
        };
        res.on('data', (d: string) => {
          if (done) return;
          received += d;
          if (received.length >= opts.readBytes) finish();
        });
        res.on('end', finish);
        res.on('error', () => undefined);
      },
    );
    req.on('error', (err) => {
      if (!(err as NodeJS.ErrnoException).code?.startsWith('ECONNRESET')) reject(err);
    });
    req.end(JSON.stringify(body));
  });
}
