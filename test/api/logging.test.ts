import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '../../src/platform/log/index.js';
import { type Tenant, type TestServer, startTestServer } from '../support/harness.js';
import { startGatewayServer } from './gateway-support.js';

const lines: string[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    lines.push(chunk.toString());
    done();
  },
});
let t: TestServer;
let tenant: Tenant;

before(async () => {
  t = await startTestServer({ logger: createLogger('trace', sink) });
  tenant = await t.tenant({ plan: 'pro' });
});
after(async () => t.close());

describe('logs', () => {
  it('carry request ids but never keys, cookies, bodies, query strings or personal data', async () => {
    const secretText = 'Jane Roe, IBAN CH93 0076 2011 6238 5295 7, jane.roe@example.com';
    await t.request('POST', '/api/v1/dlp/analyze?token=query-secret', {
      key: tenant.al,
      body: { text: secretText },
    });
    await t.request('GET', '/api/v1/stats', { headers: { 'x-api-key': tenant.sw } });
    // Values written into a path, on a route (a conversation id) and on none (audit finding F3).
    await t.request('GET', '/api/v1/gateway/conversations/path.marker@example.com', { key: tenant.sw });
    await t.request('GET', '/api/v1/DE89370400440532013000/path-marker', { key: tenant.sw });
    await t.request('GET', '/path-top.marker@example.com', {});
    const cookie = await tenant.session('owner');
    await t.request('GET', '/api/dashboard/keys', { cookie });
    await t.request('POST', '/api/dashboard/auth/login', {
      body: { email: 'x@example.test', password: 'hunter2-password' },
    });
    await new Promise((r) => setTimeout(r, 50));
    const all = lines.join('');
    assert.ok(all.includes('req_'), 'request ids are logged');
    assert.ok(all.includes('"url":"/api/v1/gateway/conversations/:id"'), 'a route is logged as its pattern');
    assert.ok(all.includes('"url":"(no route)"'), 'a path no route matched is not logged');
    for (const secret of [
      tenant.al,
      tenant.sw,
      cookie.split('=')[1]!,
      'CH93',
      'jane.roe@example.com',
      'Jane Roe',
      'hunter2-password',
      'query-secret',
      'path.marker@example.com',
      'DE89370400440532013000',
      'path-marker',
      'path-top.marker',
    ]) {
      assert.equal(all.includes(secret), false, `logs must not contain ${secret.slice(0, 12)}…`);
    }
  });
});

describe('logs of a failing login', () => {
  it('record an unexpected failure of the login as an error with its request id, without the e-mail or password', async () => {
    const orgs = t.ctx.orgs as { login: (...args: unknown[]) => Promise<unknown> };
    const real = orgs.login;
    // What a database that fails the query looks like to the route: an ordinary Error, not an AppError.
    orgs.login = async () => {
      throw new Error('simulated database failure');
    };
    const from = lines.length;
    try {
      const res = await t.request('POST', '/api/dashboard/auth/login', {
        body: { email: 'failing.login@example.com', password: 'login-password-1234' },
      });
      assert.equal(res.status, 500, res.text);
      await new Promise((r) => setTimeout(r, 50));
      const entries = lines
        .slice(from)
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, any>);
      const failed = entries.find((e) => e.msg === 'request failed');
      assert.ok(failed, `an error line: ${JSON.stringify(entries.map((e) => e.msg))}`);
      assert.equal(failed.level, 50);
      assert.equal(failed.reqId, res.body.requestId);
      assert.match(JSON.stringify(failed.err), /simulated database failure/);
      const all = lines.slice(from).join('');
      assert.equal(all.includes('failing.login@example.com'), false, 'no e-mail in the logs');
      assert.equal(all.includes('login-password-1234'), false, 'no password in the logs');
    } finally {
      orgs.login = real;
    }
  });

  it('answers a NUL in the e-mail with 400 before the login runs', async () => {
    const res = await t.request('POST', '/api/dashboard/auth/login', {
      rawBody: '{"email":"a\\u0000@example.com","password":"whatever-password"}',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error, 'invalid_request');
    assert.match(res.body.message, /'email'/);
  });
});

describe('logs of a failing provider', () => {
  it('record a provider that refuses (chat) or fails (proxy) as one warning, without a stack or the provider body', async () => {
    const captured: string[] = [];
    const { t: gw, fake } = await startGatewayServer({
      logger: createLogger(
        'trace',
        new Writable({
          write(chunk, _enc, done) {
            captured.push(chunk.toString());
            done();
          },
        }),
      ),
    });
    try {
      const org = await gw.tenant({ plan: 'pro' });
      await gw.ctx.gateway.keys.put(org.org, 'openai', { apiKey: 'sk-test-0123456789' }, null);
      fake.setBehavior({ status: 429, errorMessage: 'slow down, echo: jane.roe@example.com' });
      const res = await gw.request('POST', '/api/v1/gateway/chat', {
        key: org.sw,
        body: { message: 'hello', routing: { preferredModel: 'openai/gpt-4o-mini' } },
      });
      assert.equal(res.status, 502, res.text);
      const entries = captured
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      const failed = entries.filter((e) => e.msg === 'upstream failed');
      assert.equal(failed.length, 1, JSON.stringify(entries.filter((e) => e.level >= 40)));
      assert.equal(failed[0].level, 40);
      assert.equal(failed[0].code, 'upstream_error');
      assert.equal(entries.filter((e) => e.level >= 50).length, 0, 'not logged as an error');
      // The proxy relays the provider's own 5xx to the caller, and logs it the same way.
      fake.setBehavior({ status: 503, errorMessage: 'overloaded, echo: jane.roe@example.com' });
      const relayed = await gw.request('POST', '/api/v1/proxy/openai/v1/chat/completions', {
        headers: { authorization: 'Bearer caller-provider-key', 'x-service-key': org.al },
        body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] },
      });
      assert.equal(relayed.status, 503, relayed.text);
      const proxied = captured
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .filter((e) => e.msg === 'upstream failed' && e.code === 'upstream_status');
      assert.equal(proxied.length, 1);
      assert.equal(proxied[0].level, 40);
      assert.equal(proxied[0].detail, 'openai responded 503');
      const all = captured.join('');
      assert.equal(all.includes('"stack"'), false);
      assert.equal(all.includes('jane.roe@example.com'), false);
      assert.equal(all.includes('caller-provider-key'), false);
    } finally {
      await gw.close();
      await fake.close();
    }
  });
});
