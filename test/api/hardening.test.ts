import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type Tenant, type TestServer, startTestServer } from '../support/harness.js';

let t: TestServer;
let tenant: Tenant;
let port = 0;

before(async () => {
  t = await startTestServer();
  tenant = await t.tenant({ plan: 'pro' });
  port = Number(new URL(t.url).port);
});
after(async () => t.close());

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  body: any;
}

/** Sends bytes as they are (what fetch would refuse to send) and reads the answer until the server closes. */
function raw(data: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => {
      socket.write(data);
      socket.end();
    });
    let out = '';
    socket.setEncoding('utf8');
    socket.on('data', (d) => {
      out += d;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', ...rest] = out.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const i = line.indexOf(':');
        headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      const text = rest.join('\r\n\r\n');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, text, body });
    });
  });
}

const header = (res: { headers: Headers | Record<string, string> }, name: string): string | null =>
  res.headers instanceof Headers ? res.headers.get(name) : (res.headers[name] ?? null);

/** The spec's error body with one of our codes, a request id, the rate-limit headers, nothing echoed. */
function assertOurError(
  res: { status: number; body: any; text: string; headers: Headers | Record<string, string> },
  status: number,
  code: string,
  notEchoed: string[] = [],
) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body?.error, code, res.text);
  assert.equal(res.body.statusCode, status);
  assert.equal(typeof res.body.message, 'string');
  assert.match(res.body.requestId, /^req_/);
  assert.equal(header(res, 'x-request-id'), res.body.requestId);
  assert.doesNotMatch(res.text, /FST_/);
  for (const s of notEchoed) assert.equal(res.text.includes(s), false, `echoed ${s}`);
  for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    assert.match(header(res, h) ?? '', /^\d+$/, `${h} on ${status}`);
  }
}

describe('X-RateLimit-* on every response, counted', () => {
  it('a key-kind 403 carries the headers of the organization and counts', async () => {
    const chat = () =>
      t.request('POST', '/api/v1/gateway/chat', { key: tenant.al, body: { message: 'hello' } });
    const first = await chat();
    assertOurError(first, 403, 'forbidden');
    assert.equal(first.headers.get('x-ratelimit-limit'), '60', 'the Pro plan per-minute limit');
    const second = await chat();
    assert.equal(
      Number(second.headers.get('x-ratelimit-remaining')),
      Number(first.headers.get('x-ratelimit-remaining')) - 1,
    );
  });

  it('/api/health and unknown routes carry the headers of the client address and count', async () => {
    const a = await t.request('GET', '/api/health');
    assert.equal(a.status, 200);
    const b = await t.request('GET', '/api/health');
    assert.equal(
      Number(b.headers.get('x-ratelimit-remaining')),
      Number(a.headers.get('x-ratelimit-remaining')) - 1,
    );
    const missing = await t.request('GET', '/api/no-such-route/<script>');
    assertOurError(missing, 404, 'not_found', ['<script>', 'no-such-route']);
    assert.equal(
      Number(missing.headers.get('x-ratelimit-remaining')),
      Number(b.headers.get('x-ratelimit-remaining')) - 1,
    );
  });

  it('refuses public and unknown routes with 429 past the per-address limit', async () => {
    const small = await startTestServer({ env: { PARAPET_ANONYMOUS_PER_MINUTE: '3' } });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 5; i++) codes.push((await small.request('GET', '/api/health')).status);
      assert.deepEqual(codes, [200, 200, 200, 429, 429]);
      const res = await small.request('GET', '/api/unknown');
      assertOurError(res, 429, 'rate_limit_exceeded');
      assert.ok(res.body.retryAfter >= 1);
    } finally {
      await small.close();
    }
  });
});

describe('framework and parser errors: our codes, our body, a request id, nothing echoed', () => {
  it('414 for an over-long path segment and for an over-long request target', async () => {
    const segment = 'x'.repeat(300);
    assertOurError(await t.request('GET', `/api/webhooks/${segment}`), 414, 'uri_too_long', [segment]);
    const query = 'q'.repeat(9000);
    assertOurError(await t.request('GET', `/api/health?${query}`), 414, 'uri_too_long', [query]);
  });

  it('431 for headers larger than the parser accepts', async () => {
    const big = 'h'.repeat(20_000);
    const res = await raw(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`);
    assertOurError(res, 431, 'headers_too_large', [big.slice(0, 100)]);
  });

  it('400 for a bad %-escape in the path', async () => {
    const res = await raw('GET /api/webhooks/%ff%fe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assertOurError(res, 400, 'invalid_request', ['%ff%fe']);
    const top = await raw('GET /api/%ff%fe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assertOurError(top, 400, 'invalid_request', ['%ff%fe']);
  });

  it('400 for a body shorter than its Content-Length, and for a request that is not HTTP', async () => {
    const short = await raw(
      `POST /api/v1/dlp/analyze HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tenant.al}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"text":"secret-text"}',
    );
    assertOurError(short, 400, 'invalid_request', ['secret-text']);
    const garbage = await raw('GARBAGE <script>\r\n\r\n');
    assertOurError(garbage, 400, 'invalid_request', ['<script>']);
  });

  it('400 for a key repeated in a JSON body (a WAF may read the first)', async () => {
    const res = await t.request('POST', '/api/v1/dlp/analyze', {
      key: tenant.al,
      rawBody: '{"text":"harmless","text":"Anna Meier, CH93 0076 2011 6238 5295 7"}',
      headers: { 'content-type': 'application/json' },
    });
    assertOurError(res, 400, 'invalid_request', ['Anna Meier']);
    assert.match(res.body.message, /repeats the key 'text'/);
  });
});
