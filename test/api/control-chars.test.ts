import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { listRoutes } from '../../src/platform/http/index.js';
import { type Tenant, type TestServer, startTestServer } from '../support/harness.js';
import { newDevice } from '../support/endpoint-cases.js';

/**
 * PostgreSQL text cannot hold U+0000: a NUL that reached a query failed it with a 500. The HTTP layer
 * refuses control characters in path parameters and query strings, and NUL in JSON bodies, on every route.
 */
let t: TestServer;
let mine: Tenant;
let callers: Array<{ key?: string; cookie?: string }>;

before(async () => {
  t = await startTestServer({ env: { PARAPET_AUTH_FAILURES_PER_MINUTE: '100000' } });
  mine = await t.tenant({ name: 'Mine' });
  const device = await newDevice(t, mine);
  // Anonymous, and each kind of credential, so that a route's own lookups run too.
  callers = [
    {},
    { cookie: await mine.session('owner') },
    { key: mine.sw },
    { key: mine.al },
    { key: mine.admin },
    { key: device.deviceToken },
  ];
});
after(async () => t.close());

const bodyFor = (method: string) => (['POST', 'PUT', 'PATCH'].includes(method) ? {} : undefined);

describe('control characters in the request target', () => {
  it('every path parameter of every route answers %00 with a 4xx, never a 500', async () => {
    const routes = listRoutes(t.app).filter((r) => /[:*]/.test(r.url));
    assert.ok(routes.length > 40, `routes with a path parameter: ${routes.length}`);
    const failures: string[] = [];
    for (const r of routes) {
      const names = [...r.url.matchAll(/:([A-Za-z]+)|\*/g)].map((m) => m[0]);
      for (const target of names) {
        // The parameter under test gets the NUL; the others a plausible value.
        const path = r.url
          .replace(/:([A-Za-z]+)|\*/g, (m) => (m === target ? 'garbage%00' : 'x'))
          .replace(/garbage%00/, (m) => (target === '*' ? `a/${m}` : m));
        for (const caller of callers) {
          const res = await t.request(r.method, path, { ...caller, body: bodyFor(r.method) });
          if (res.status >= 500) failures.push(`${r.method} ${path}: ${res.status} ${res.body?.error}`);
        }
      }
    }
    assert.deepEqual(failures, []);
  });

  it('every documented query parameter answers %00 with a 4xx, never a 500', async () => {
    const doc = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
    const failures: string[] = [];
    let count = 0;
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        for (const p of op.parameters ?? []) {
          if (p.in !== 'query') continue;
          count++;
          const url = `${path.replace(/\{[^}]+\}/g, 'x')}?${encodeURIComponent(p.name)}=x%00`;
          for (const caller of callers) {
            const res = await t.request(method.toUpperCase(), url, {
              ...caller,
              body: bodyFor(method.toUpperCase()),
            });
            if (res.status >= 500) failures.push(`${method} ${url}: ${res.status} ${res.body?.error}`);
          }
        }
      }
    }
    assert.ok(count > 20, `documented query parameters: ${count}`);
    assert.deepEqual(failures, []);
  });

  it('names the parameter that carries a control character, with 400 invalid_request', async () => {
    const cookie = await mine.session('owner');
    const del = await t.request('DELETE', '/api/dashboard/keys/garbage%00', { cookie });
    assert.equal(del.status, 400, del.text);
    assert.equal(del.body.error, 'invalid_request');
    assert.match(del.body.message, /path parameter 'id'/);
    const anon = await t.request('GET', '/api/v1/endpoint/block-page?org=x%00');
    assert.equal(anon.status, 400, anon.text);
    assert.match(anon.body.message, /query parameter 'org'/);
    const search = await t.request('GET', '/api/dashboard/shadow-ai/services?search=a%0Ab', { cookie });
    assert.equal(search.status, 400, search.text);
    assert.match(search.body.message, /query parameter 'search'/);
    const del7f = await t.request('DELETE', '/api/dashboard/keys/a%7Fb', { cookie });
    assert.equal(del7f.status, 400, del7f.text);
  });

  it('a NUL in any string of a JSON body is refused with 400 naming its place', async () => {
    const cookie = await mine.session('owner');
    const res = await t.request('POST', '/api/dashboard/keys', {
      cookie,
      rawBody: '{"name":"a\\u0000b"}',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error, 'invalid_request');
    assert.match(res.body.message, /NUL/);
    assert.match(res.body.message, /'name'/);
    // An escaped backslash before "u0000" is a backslash and text, not a NUL.
    const literal = await t.request('POST', '/api/v1/dlp/analyze', {
      key: mine.al,
      rawBody: '{"text":"path C:\\\\u0000 here"}',
      headers: { 'content-type': 'application/json' },
    });
    assert.notEqual(literal.status, 400, literal.text);
  });
});
