import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newDevice } from '../support/endpoint-cases.js';
import { type Tenant, type TestServer, startTestServer } from '../support/harness.js';

let t: TestServer;
let tenant: Tenant;
let cookie: string;

before(async () => {
  t = await startTestServer({ env: { PARAPET_BODY_LIMIT: String(64 * 1024) } });
  tenant = await t.tenant();
  cookie = await tenant.session('owner');
});
after(async () => t.close());

function assertError(res: { status: number; body: any }, status: number, code: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.error, code);
  assert.equal(res.body.statusCode, status);
  assert.equal(typeof res.body.message, 'string');
  assert.match(res.body.requestId, /^req_/);
}

describe('the error body everywhere', () => {
  it('unknown route: 404 not_found', async () => {
    assertError(await t.request('GET', '/api/nothing-here'), 404, 'not_found');
    assertError(await t.request('POST', '/nope', { body: {} }), 404, 'not_found');
  });

  it('wrong method: 405 with an Allow header', async () => {
    const res = await t.request('PUT', '/api/dashboard/keys', { cookie });
    assertError(res, 405, 'method_not_allowed');
    assert.match(res.headers.get('allow') ?? '', /GET/);
  });

  it('malformed JSON: 400', async () => {
    const res = await t.request('POST', '/api/dashboard/keys', {
      cookie,
      rawBody: '{"name": "x",',
      headers: { 'content-type': 'application/json' },
    });
    assertError(res, 400, 'invalid_request');
    assert.match(res.body.message, /JSON/);
  });

  it('schema violation names the field', async () => {
    const res = await t.request('POST', '/api/dashboard/keys', { cookie, body: { name: 'x' } });
    assertError(res, 400, 'invalid_request');
    assert.match(res.body.message, /kind/);
  });

  it('a value outside a union of literals lists the allowed values', async () => {
    const res = await t.request('POST', '/api/dashboard/keys', { cookie, body: { name: 'x', kind: 'xx' } });
    assertError(res, 400, 'invalid_request');
    assert.equal(res.body.message, "The body field 'kind' must be one of: al, sw.");
  });

  it('a malformed date names the format in words', async () => {
    const res = await t.request('POST', '/api/dashboard/keys', {
      cookie,
      body: { name: 'x', kind: 'al', expiresAt: 'tomorrow' },
    });
    assertError(res, 400, 'invalid_request');
    assert.equal(
      res.body.message,
      "The body field 'expiresAt' must be an ISO 8601 date and time such as 2026-01-31T12:00:00Z.",
    );
  });

  it('an empty array that needs an item: one plain sentence', async () => {
    const key = await t.ctx.keys.create({ orgId: tenant.org.id, kind: 'al', name: 'hallucination' });
    const res = await t.request('POST', '/api/v1/hallucination', {
      headers: { authorization: `Bearer ${key.secret}` },
      body: { claim: 'x', sources: [] },
    });
    assertError(res, 400, 'invalid_request');
    assert.equal(res.body.message, "The body field 'sources' must not be empty.");
  });

  it('a body that is not an object: one plain sentence', async () => {
    const res = await t.request('POST', '/api/dashboard/keys', { cookie, body: [] });
    assertError(res, 400, 'invalid_request');
    assert.equal(res.body.message, 'The request body must be of type object.');
  });

  it('one wording for every part of a request, naming the field, never the validator’s own text', async () => {
    // Trial finding 10: "The querystring field 'perPage'" beside "The query field 'cursor'", Ajv's
    // "must NOT have fewer than 1 properties", and a path id that quoted its regular expression.
    const hook = await t.request('POST', '/api/webhooks', {
      cookie,
      body: { url: 'https://hooks.example.com/in', events: ['*'] },
    });
    assert.equal(hook.status, 201, hook.text);
    const deliveries = `/api/webhooks/${hook.body.id}/deliveries`;
    const cases: Array<[string, Promise<{ status: number; body: any }>, string]> = [
      [
        'a query parameter out of range',
        t.request('GET', `${deliveries}?perPage=0`, { cookie }),
        "The query parameter 'perPage' must be at least 1.",
      ],
      [
        'a query parameter the service refuses',
        t.request('GET', `${deliveries}?cursor=nope`, { cookie }),
        "The query parameter 'cursor' is not a nextCursor this service returned.",
      ],
      [
        'a period of the usage read-out',
        t.request('GET', '/api/v1/gateway/usage?from=last-week', { key: tenant.sw }),
        "The query parameter 'from' must be an ISO 8601 date (2026-11-01) or a date-time with a time zone (2026-11-01T00:00:00Z).",
      ],
      [
        'a change that changes nothing',
        t.request('PATCH', `/api/webhooks/${hook.body.id}`, { cookie, body: {} }),
        'The request body must have at least one field.',
      ],
      [
        'a malformed conversation id in the path',
        t.request('GET', '/api/v1/gateway/conversations/conv_nope', { key: tenant.sw }),
        "The path parameter 'id' must be conv_ followed by 22 letters or digits.",
      ],
      [
        'the same id in the chat body',
        t.request('POST', '/api/v1/gateway/chat', {
          key: tenant.sw,
          body: { message: 'hello', conversationId: 'conv_nope' },
        }),
        "The body field 'conversationId' must be conv_ followed by 22 letters or digits.",
      ],
      [
        'a malformed vault session id',
        t.request('POST', '/api/v1/dlp/rehydrate', {
          key: tenant.al,
          body: { text: 'x', sessionId: 'sess_nope' },
        }),
        "The body field 'sessionId' must be sess_ followed by 22 letters or digits.",
      ],
      [
        'a model the catalog does not know',
        t.request('POST', '/api/v1/gateway/chat', {
          key: tenant.sw,
          body: { message: 'hello', routing: { preferredModel: 'nope/model' } },
        }),
        "The body field 'routing.preferredModel' cannot be used: model nope/model is not in the catalog.",
      ],
    ];
    for (const [what, pending, message] of cases) {
      const res = await pending;
      assertError(res, 400, 'invalid_request');
      assert.equal(res.body.message, message, what);
    }
    assertError(
      await t.request('POST', '/api/v1/dlp/rehydrate', {
        key: tenant.al,
        body: { text: 'x', sessionId: 'sess_0000000000000000000000' },
      }),
      404,
      'not_found',
    );
    // A well-formed id that names nothing is unknown: 404, in the path and in the chat alike.
    const unknown = 'conv_0000000000000000000000';
    assertError(
      await t.request('GET', `/api/v1/gateway/conversations/${unknown}`, { key: tenant.sw }),
      404,
      'not_found',
    );
    assertError(
      await t.request('POST', '/api/v1/gateway/chat', {
        key: tenant.sw,
        body: { message: 'hi', conversationId: unknown },
      }),
      404,
      'not_found',
    );
  });

  it('a webhook secret sent to PATCH says where a secret is changed', async () => {
    const hook = await t.request('POST', '/api/webhooks', {
      cookie,
      body: { url: 'https://hooks.example.com/in', events: ['*'] },
    });
    const res = await t.request('PATCH', `/api/webhooks/${hook.body.id}`, {
      cookie,
      body: { secret: 'a-new-secret-0123456789' },
    });
    assertError(res, 400, 'invalid_request');
    assert.match(
      res.body.message,
      /^The body field 'secret' cannot be changed here: rotate it with POST \/api\/webhooks\/\{id\}\/rotate-secret/,
    );
    // Authentication and role still come first.
    const member = await t.request('PATCH', `/api/webhooks/${hook.body.id}`, {
      cookie: await tenant.session('member'),
      body: { secret: 'a-new-secret-0123456789' },
    });
    assertError(member, 403, 'forbidden');
  });

  it('a DELETE with Content-Type: application/json and no body is a DELETE, not malformed JSON', async () => {
    const key = await t.ctx.keys.create({ orgId: tenant.org.id, kind: 'al', name: 'to revoke' });
    const res = await t.request('DELETE', `/api/dashboard/keys/${key.key.id}`, {
      cookie,
      rawBody: '',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.key.status, 'revoked');
    // A POST with the same empty body still needs its JSON object.
    const post = await t.request('POST', '/api/dashboard/keys', {
      cookie,
      rawBody: '',
      headers: { 'content-type': 'application/json' },
    });
    assertError(post, 400, 'invalid_request');
  });

  it('a POST action that takes no body, sent with Content-Type: application/json and no body, is that action', async () => {
    const business = await t.tenant({ plan: 'business' });
    const device = await newDevice(t, business);
    const res = await t.request('POST', '/api/v1/endpoint/token/rotate', {
      key: device.deviceToken,
      rawBody: '',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 200, res.text);
    assert.match(res.body.deviceToken, /^dt_live_/);
    // A body sent to such a route is still read, and refused when it is not JSON.
    const bad = await t.request('POST', '/api/v1/endpoint/token/rotate', {
      key: res.body.deviceToken,
      rawBody: '{',
      headers: { 'content-type': 'application/json' },
    });
    assertError(bad, 400, 'invalid_request');
  });

  it('body over the limit: 413', async () => {
    const res = await t.request('POST', '/api/dashboard/keys', {
      cookie,
      body: { name: 'x'.repeat(70 * 1024), kind: 'al' },
    });
    assertError(res, 413, 'payload_too_large');
  });

  it('a compressed JSON body: 415 that says so, never read as plain text', async () => {
    const { gzipSync } = await import('node:zlib');
    const res = await t.request('POST', '/api/dashboard/keys', {
      cookie,
      rawBody: gzipSync(JSON.stringify({ name: 'x', kind: 'al' })),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    assertError(res, 415, 'unsupported_media_type');
    assert.match(res.body.message, /Content-Encoding/);
    // The header with an uncompressed body is refused the same way: the body is not what it claims to be.
    const plain = await t.request('POST', '/api/dashboard/keys', {
      cookie,
      rawBody: JSON.stringify({ name: 'x', kind: 'al' }),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    assertError(plain, 415, 'unsupported_media_type');
  });

  it('unsupported content type: 415', async () => {
    const res = await t.request('POST', '/api/dashboard/keys', {
      cookie,
      rawBody: 'name=x&kind=al',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assertError(res, 415, 'unsupported_media_type');
  });

  it('the request id is echoed in a header and accepted from the caller when well-formed', async () => {
    const res = await t.request('GET', '/api/nothing', { headers: { 'x-request-id': 'trace-12345678' } });
    assert.equal(res.headers.get('x-request-id'), 'trace-12345678');
    assert.equal(res.body.requestId, 'trace-12345678');
    const bad = await t.request('GET', '/api/nothing', { headers: { 'x-request-id': 'a b' } });
    assert.match(bad.body.requestId, /^req_/);
  });
});

describe('fuzzing-style table of bad bodies: always a 4xx error body, never a 500', () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  const bodies: Array<[string, string | Buffer]> = [
    ['number instead of object', '42'],
    ['string', '"hello"'],
    ['null', 'null'],
    ['array', '[1,2,3]'],
    ['wrong field types', '{"name": 12, "kind": ["al"]}'],
    ['boolean name', '{"name": true, "kind": "al"}'],
    ['nested object name', '{"name": {"a": 1}, "kind": "al"}'],
    ['huge string within the limit', JSON.stringify({ name: 'x'.repeat(60_000), kind: 'al' })],
    ['deep nesting', `{"name": ${deep(5000)}, "kind": "al"}`],
    [
      'invalid UTF-8',
      Buffer.concat([
        Buffer.from('{"name": "'),
        Buffer.from([0xc3, 0x28, 0xff]),
        Buffer.from('", "kind": "al"}'),
      ]),
    ],
    ['__proto__ key', '{"name": "x", "kind": "al", "__proto__": {"admin": true}}'],
    ['constructor.prototype', '{"name": "x", "kind": "al", "constructor": {"prototype": {"admin": true}}}'],
    ['trailing garbage', '{"name": "x", "kind": "al"} trailing'],
    ['empty body', ''],
    ['lone surrogate escape', '{"name": "\\ud800", "kind": "zz"}'],
    ['unknown extra field', '{"name": "x", "kind": "al", "extra": 1}'],
  ];
  const routes = [
    { method: 'POST', path: '/api/dashboard/keys', auth: () => ({ cookie }) },
    { method: 'POST', path: '/api/dashboard/users', auth: () => ({ cookie }) },
    { method: 'POST', path: '/api/dashboard/auth/login', auth: () => ({}) },
  ];
  for (const route of routes) {
    for (const [label, raw] of bodies) {
      it(`${route.method} ${route.path}: ${label}`, async () => {
        const res = await t.request(route.method, route.path, {
          ...route.auth(),
          rawBody: raw,
          headers: { 'content-type': 'application/json' },
        });
        assert.ok(res.status >= 400 && res.status < 500, `status ${res.status}: ${res.text.slice(0, 200)}`);
        assert.equal(typeof res.body.error, 'string');
        assert.equal(res.body.statusCode, res.status);
        assert.equal(({} as Record<string, unknown>)['admin'], undefined, 'no prototype pollution');
      });
    }
  }
});
