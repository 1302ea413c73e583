import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ensureWebBuilt } from '../../scripts/build-web.js';
import { CONTENT_SECURITY_POLICY } from '../../src/modules/web/index.js';
import { type Tenant, type TestServer, startTestServer } from '../support/harness.js';

let t: TestServer;
let mine: Tenant;

before(async () => {
  ensureWebBuilt();
  t = await startTestServer();
  mine = await t.tenant({ name: 'Web' });
});
after(async () => t.close());

describe('serving the dashboard', () => {
  it('serves the API reference on the same origin unframed and unsniffed', async () => {
    for (const path of ['/api/docs', '/api/docs/static/index.html']) {
      const res = await t.request('GET', path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get('x-frame-options'), 'DENY', path);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', path);
    }
  });

  it('serves the API reference under a Content-Security-Policy of its own: this origin only, nothing inline but the logo', async () => {
    for (const path of ['/api/docs', '/api/docs/', '/api/docs/static/oauth2-redirect.html']) {
      const res = await t.request('GET', path);
      assert.equal(res.status, 200, path);
      const csp = res.headers.get('content-security-policy') ?? '';
      const directives = new Map(
        csp.split(';').map((d) => {
          const [name = '', ...values] = d.trim().split(/\s+/);
          return [name, values] as const;
        }),
      );
      assert.deepEqual(directives.get('default-src'), ["'none'"], path);
      assert.deepEqual(directives.get('script-src'), ["'self'"], path);
      // the one inline style: the Swagger logo's <style>, by its hash
      assert.equal(directives.get('style-src')?.[0], "'self'", path);
      assert.match(directives.get('style-src')?.slice(1).join(' ') ?? '', /^'sha256-[\w+/]+=*'$/, path);
      assert.deepEqual(directives.get('connect-src'), ["'self'"], path);
      assert.deepEqual(directives.get('frame-ancestors'), ["'none'"], path);
      assert.deepEqual(directives.get('object-src'), ["'none'"], path);
      // no other host (the product runs offline), no inline script, no eval
      assert.doesNotMatch(csp, /https?:|\*|unsafe-inline|unsafe-eval|validator\.swagger\.io/, path);
    }
    // The page's own files are still served (and their policy is the page's).
    for (const file of ['swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'swagger-ui.css']) {
      assert.equal((await t.request('GET', `/api/docs/static/${file}`)).status, 200, file);
    }
  });

  it('answers / and every client route with index.html under a strict CSP, never cached', async () => {
    for (const path of ['/', '/keys', '/webhooks?id=wh_x', '/login']) {
      const res = await t.request('GET', path);
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(res.headers.get('content-security-policy'), CONTENT_SECURITY_POLICY);
      assert.equal(res.headers.get('cache-control'), 'no-cache');
      assert.equal(res.headers.get('x-frame-options'), 'DENY');
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.match(res.text, /<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js"><\/script>/);
      // no inline script or style in the page
      assert.doesNotMatch(res.text, /<script(?![^>]*\bsrc=)[^>]*>/);
      assert.doesNotMatch(res.text, /<style|style=/);
    }
  });

  it('serves hashed assets as immutable for a year', async () => {
    const page = await t.request('GET', '/');
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(page.text)?.[1];
    assert.ok(script);
    const res = await fetch(t.url + script);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /javascript/);
    assert.match(res.headers.get('cache-control') ?? '', /max-age=31536000.*immutable/);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  });

  it('keeps the JSON 404 of the API for unknown paths', async () => {
    for (const path of ['/nope', '/api/nope', '/assets/missing.js']) {
      const res = await t.request('GET', path);
      assert.equal(res.status, 404, path);
      assert.equal(res.body.error, 'not_found');
    }
  });

  it("answers a browser's navigation to an unknown page with the app (its Not found page), status 404; API paths stay JSON", async () => {
    const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    const index = await t.request('GET', '/');
    for (const path of ['/nope', '/keys/extra', '/assets/missing.js?x=1']) {
      const res = await t.request('GET', path, { headers: browser });
      assert.equal(res.status, 404, path);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/, path);
      assert.equal(res.headers.get('content-security-policy'), CONTENT_SECURITY_POLICY, path);
      assert.equal(res.text, index.text, path);
    }
    // an API path, signed in or not, never becomes a page: a reload of /api/dashboard/keys stays JSON
    const cookie = await mine.session('owner');
    for (const path of ['/api/nope', '/api/dashboard/nope']) {
      const res = await t.request('GET', path, { headers: browser, cookie });
      assert.equal(res.status, 404, path);
      assert.equal(res.body.error, 'not_found', path);
    }
    // a change to an unknown path is no navigation
    const post = await t.request('POST', '/nope', { headers: browser, body: {} });
    assert.equal(post.body.error, 'not_found');
  });
});

describe('CSRF defence of cookie-authenticated changes', () => {
  const create = (headers: Record<string, string>, cookie: string) =>
    t.request('POST', '/api/dashboard/keys', { cookie, headers, body: { name: 'csrf', kind: 'al' } });

  it('refuses a change whose Origin is another site, or that the browser marks cross-site', async () => {
    const cookie = await mine.session('owner');
    const foreign = await create({ origin: 'https://evil.example' }, cookie);
    assert.equal(foreign.status, 403);
    assert.equal(foreign.body.error, 'forbidden');
    assert.match(foreign.body.message, /Cross-site/);
    assert.equal((await create({ origin: 'null' }, cookie)).status, 403);
    assert.equal((await create({ 'sec-fetch-site': 'cross-site' }, cookie)).status, 403);
    assert.equal((await create({ 'sec-fetch-site': 'same-site' }, cookie)).status, 403);
  });

  it('accepts the same origin, and clients that send no Origin (no ambient browser cookie)', async () => {
    const cookie = await mine.session('owner');
    const host = new URL(t.url).host;
    assert.equal(
      (await create({ origin: `http://${host}`, 'sec-fetch-site': 'same-origin' }, cookie)).status,
      201,
    );
    assert.equal((await create({}, cookie)).status, 201);
  });

  it('reads stay allowed from anywhere (they change nothing; CORS keeps their answers from other sites)', async () => {
    const res = await t.request('GET', '/api/dashboard/keys', {
      cookie: await mine.session('owner'),
      headers: { origin: 'https://evil.example' },
    });
    assert.equal(res.status, 200);
  });

  it('refuses a cross-site login (login CSRF)', async () => {
    const res = await t.request('POST', '/api/dashboard/auth/login', {
      headers: { origin: 'https://evil.example' },
      body: { email: 'a@b.example', password: 'x' },
    });
    assert.equal(res.status, 403);
  });

  it('guards the product routes the dashboard reaches with its cookie (protected chat)', async () => {
    const res = await t.request('POST', '/api/v1/gateway/chat', {
      cookie: await mine.session('member'),
      headers: { origin: 'https://evil.example' },
      body: { message: 'hello' },
    });
    assert.equal(res.status, 403);
    assert.match(res.body.message, /Cross-site/);
  });
});

describe('the protected chat with a dashboard session', () => {
  it('answers a member with the session cookie and lists the conversation it stored', async () => {
    const cookie = await mine.session('member');
    const res = await t.request('POST', '/api/v1/gateway/chat', { cookie, body: { message: 'hello there' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(typeof res.body.response, 'string');
    const list = await t.request('GET', '/api/v1/gateway/conversations', { cookie });
    assert.equal(list.status, 200);
    assert.ok(list.body.conversations.some((c: { id: string }) => c.id === res.body.conversationId));
  });

  it('still refuses a request with neither key nor session', async () => {
    const res = await t.request('GET', '/api/v1/gateway/conversations');
    assert.equal(res.status, 401);
  });

  it('refuses a forged session cookie on a product route', async () => {
    const res = await t.request('GET', '/api/v1/gateway/conversations', { cookie: 'parapet_session=forged' });
    assert.equal(res.status, 401);
  });
});
