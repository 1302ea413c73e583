import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { listRoutes, openApiPath } from '../../src/platform/http/index.js';
import { type TestServer, startTestServer } from '../support/harness.js';

type Json = Record<string, any>;
let t: TestServer;
let doc: Json;

before(async () => {
  t = await startTestServer();
  const res = await t.request('GET', '/api/openapi.json');
  assert.equal(res.status, 200);
  doc = res.body;
});
after(async () => t.close());

const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ path, method, op })),
  );

const authOf = (path: string, method: string) =>
  listRoutes(t.app).find((r) => r.method === method.toUpperCase() && openApiPath(r.url) === path)?.auth as
    | { mode: string }
    | undefined;

describe('the OpenAPI document', () => {
  it('is the committed docs/openapi.json (regenerate with npm run openapi:write)', () => {
    const committed = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
    const drift: string[] = [];
    const servedPaths = new Set(Object.keys(doc.paths));
    const committedPaths = new Set(Object.keys(committed.paths));
    for (const p of servedPaths) if (!committedPaths.has(p)) drift.push(`served only: ${p}`);
    for (const p of committedPaths) if (!servedPaths.has(p)) drift.push(`committed only: ${p}`);
    for (const p of servedPaths) {
      if (committedPaths.has(p) && JSON.stringify(doc.paths[p]) !== JSON.stringify(committed.paths[p])) {
        drift.push(`differs: ${p}`);
      }
    }
    if (JSON.stringify(doc.components) !== JSON.stringify(committed.components)) drift.push('components differ');
    assert.deepEqual(drift, [], 'docs/openapi.json is out of date: run npm run openapi:write');
    assert.deepEqual(doc, committed);
  });

  it('declares security on every operation, from the route authentication, with schemes that exist', () => {
    const schemes = Object.keys(doc.components.securitySchemes);
    const problems: string[] = [];
    for (const { path, method, op } of operations()) {
      const name = `${method.toUpperCase()} ${path}`;
      if (!Array.isArray(op.security)) {
        problems.push(`${name}: no security`);
        continue;
      }
      const mode = authOf(path, method)?.mode;
      if (mode === 'public' && op.security.length !== 0) problems.push(`${name}: public but secured`);
      if (mode !== 'public' && op.security.length === 0) problems.push(`${name}: ${mode} but no security`);
      for (const req of op.security as Array<Record<string, string[]>>) {
        for (const s of Object.keys(req)) if (!schemes.includes(s)) problems.push(`${name}: unknown ${s}`);
      }
      if (!/Authentication: /.test(op.description ?? '')) problems.push(`${name}: no Authentication sentence`);
    }
    assert.deepEqual(problems, []);
  });

  it('names the right credentials for each kind of route', () => {
    const sec = (path: string, method: string) =>
      (doc.paths[path][method].security as Array<Record<string, string[]>>).map((r) =>
        Object.keys(r).sort().join('+'),
      );
    assert.deepEqual(sec('/api/v1/gateway/chat', 'post'), ['swKey', 'apiKeyHeader', 'session']);
    assert.deepEqual(sec('/api/v1/analyze', 'post'), ['alKey', 'swKey', 'apiKeyHeader']);
    assert.deepEqual(sec('/api/v1/proxy/{provider}/v1/chat/completions', 'post'), ['providerKey+serviceKey']);
    assert.deepEqual(sec('/api/v1/endpoint/heartbeat', 'post'), ['deviceToken', 'apiKeyHeader']);
    assert.deepEqual(sec('/api/webhooks', 'post'), ['session', 'adminKey', 'apiKeyHeader']);
    assert.deepEqual(sec('/api/saas/siem/integrations', 'post'), ['session', 'adminKey', 'apiKeyHeader']);
    assert.deepEqual(sec('/api/saas/endpoint/stats', 'get'), ['session', 'adminKey', 'apiKeyHeader']);
    assert.deepEqual(sec('/api/dashboard/keys', 'post'), ['session']);
    assert.deepEqual(sec('/api/health', 'get'), []);
    const proxy = doc.paths['/api/v1/proxy/{provider}/v1/chat/completions'].post;
    const org = proxy.parameters.find((p: Json) => p.in === 'header' && p.name === 'X-Service-Organization');
    assert.ok(org, 'X-Service-Organization is a documented header');
    assert.equal(doc.components.securitySchemes.serviceKey.name, 'X-Service-Key');
    assert.equal(doc.components.securitySchemes.session.in, 'cookie');
  });

  it('documents the error body and the rate-limit headers on every response status', () => {
    const problems: string[] = [];
    for (const { path, method, op } of operations()) {
      const name = `${method.toUpperCase()} ${path}`;
      const must = ['400', '429', '500', ...(op.security.length ? ['401', '403'] : [])];
      if (op.requestBody) must.push('413', '415');
      for (const s of must) if (!op.responses[s]) problems.push(`${name}: no ${s}`);
      for (const [status, r] of Object.entries(op.responses as Record<string, Json>)) {
        if (!r.headers?.['X-Request-Id']) problems.push(`${name} ${status}: no X-Request-Id`);
        if (!r.headers?.['X-RateLimit-Remaining']) problems.push(`${name} ${status}: no X-RateLimit-*`);
        // The health check's 503 is its own report of what is down, not an error body.
        const ownBody = path === '/api/health' && status === '503';
        if (/^[45]/.test(status) && r.content?.['application/json'] && !ownBody) {
          if (r.content['application/json'].schema?.$ref !== '#/components/schemas/ErrorBody') {
            problems.push(`${name} ${status}: not the error body`);
          }
        }
      }
      if (!op.responses['429'].headers['Retry-After']) problems.push(`${name}: 429 without Retry-After`);
    }
    assert.deepEqual(problems, []);
    assert.ok(doc.components.headers['X-RateLimit-Reset']);
  });

  it('describes streamed answers and the x-svc-* headers', () => {
    const chat = doc.paths['/api/v1/gateway/chat'].post.responses['200'];
    assert.ok(chat.content['application/json']);
    assert.match(chat.content['text/event-stream'].schema.description, /\[DONE\]/);
    const proxy = doc.paths['/api/v1/proxy/{provider}/v1/chat/completions'].post.responses['200'];
    assert.ok(proxy.content['text/event-stream']);
    for (const h of ['x-svc-vault-session', 'x-svc-tokenized-count', 'x-svc-rehydrated-count']) {
      assert.ok(proxy.headers[h], h);
    }
    const block = doc.paths['/api/v1/endpoint/block-page'].get.responses['403'];
    assert.ok(block.content['text/html'], 'an HTML answer is not described as JSON');
  });
});
