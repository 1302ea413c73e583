import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { acceptsAdminKey } from '../../src/modules/auth/index.js';
import { listRoutes } from '../../src/platform/http/index.js';
import { type Tenant, type TestServer, startTestServer } from '../support/harness.js';
import { ROUTE_CASES } from '../support/route-cases.js';
import '../support/all-cases.js';
import { newDevice } from '../support/endpoint-cases.js';

/** The shared suite: every authenticated route, checked for the same promises. */
let t: TestServer;
let mine: Tenant;
let other: Tenant;

before(async () => {
  // Every route's unknown- and revoked-key cases are failed authentications from one address: several
  // hundred a minute, which the brute-force limit (tested in test/api/limits) would answer with 429.
  t = await startTestServer({ env: { PARAPET_AUTH_FAILURES_PER_MINUTE: '100000' } });
  mine = await t.tenant({ name: 'Mine' });
  other = await t.tenant({ name: 'Other' });
});
after(async () => t.close());

const caseKey = (method: string, route: string) => `${method} ${route}`;

describe('route coverage', () => {
  it('every authenticated route has a case in the shared suite', () => {
    const covered = new Set(ROUTE_CASES.map((c) => caseKey(c.method, c.route)));
    const missing = listRoutes(t.app)
      .filter(
        (r) =>
          (r.auth as { mode?: string } | undefined)?.mode && (r.auth as { mode: string }).mode !== 'public',
      )
      .map((r) => caseKey(r.method, r.url))
      .filter((k) => !covered.has(k));
    assert.deepEqual(missing, []);
  });

  it('serves every /api/v1 route under /v1 too, with the same answer (SPEC: the base address serves /v1/*)', async () => {
    const v1 = listRoutes(t.app).filter(
      (r) => r.url.startsWith('/api/v1/') && !r.url.startsWith('/api/v1/proxy/'),
    );
    assert.ok(v1.length > 30, `routes under /api/v1: ${v1.length}`);
    const differ: string[] = [];
    for (const r of v1) {
      const path = r.url.replace(/:[A-Za-z]+/g, 'x').replace(/\*/g, 'x');
      const body = ['POST', 'PUT', 'PATCH'].includes(r.method) ? {} : undefined;
      const api = await t.request(r.method, path, { body });
      const alias = await t.request(r.method, path.slice('/api'.length), { body });
      if (alias.status === 404 && api.status !== 404) differ.push(`${r.method} ${r.url}: /v1 answers 404`);
      else if (alias.status !== api.status || alias.body?.error !== api.body?.error) {
        differ.push(
          `${r.method} ${r.url}: ${api.status} ${api.body?.error} vs /v1 ${alias.status} ${alias.body?.error}`,
        );
      }
    }
    assert.deepEqual(differ, []);
  });

  it('every /api route declares an authentication mode', () => {
    const undeclared = listRoutes(t.app)
      .filter(
        (r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs') && r.url !== '/api/openapi.json',
      )
      .filter((r) => !(r.auth as { mode?: string } | undefined)?.mode)
      .map((r) => caseKey(r.method, r.url));
    assert.deepEqual(undeclared, []);
  });
});

function assertErrorBody(
  res: { status: number; body: any; headers: Headers },
  status: number,
  code?: string,
) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(typeof res.body, 'object');
  assert.equal(res.body.statusCode, status);
  assert.equal(typeof res.body.message, 'string');
  assert.ok(res.body.message.length > 0);
  assert.equal(typeof res.body.requestId, 'string');
  if (code) assert.equal(res.body.error, code);
}

for (const c of ROUTE_CASES) {
  describe(`${c.method} ${c.route}`, () => {
    const credentials = async (tenant: Tenant, allowedOnly = true) => {
      if (c.auth === 'endpoint') {
        const kind = allowedOnly ? c.allowed[0] : ['device', 'al', 'sw'].find((k) => !c.allowed.includes(k));
        // A fresh device per request: some cases rotate or revoke the calling device's token.
        return {
          key:
            kind === 'device'
              ? (await newDevice(t, tenant)).deviceToken
              : kind === 'al'
                ? tenant.al
                : tenant.sw,
        };
      }
      if (c.auth === 'session')
        return { cookie: await tenant.session((allowedOnly ? c.allowed[0] : 'viewer') as never) };
      const kind = allowedOnly ? c.allowed[0] : ['al', 'sw'].find((k) => !c.allowed.includes(k));
      const key = kind === 'al' ? tenant.al : tenant.sw;
      return c.auth === 'serviceKey'
        ? { headers: { 'x-service-key': key, 'x-service-organization': tenant.org.id } }
        : { key };
    };

    it('answers the happy path, with rate-limit headers', async () => {
      const req = await c.happy(t, mine);
      const res = await t.request(c.method, req.path, {
        ...(await credentials(mine)),
        body: req.body,
        ...(req.form ? { form: req.form } : {}),
        headers: { ...(req.headers ?? {}), ...((await credentials(mine)).headers ?? {}) },
      });
      assert.equal(res.status, c.happyStatus, res.text);
      assert.ok(res.headers.get('x-ratelimit-limit'), 'X-RateLimit-Limit');
      assert.ok(res.headers.get('x-ratelimit-remaining'), 'X-RateLimit-Remaining');
      assert.match(res.headers.get('x-ratelimit-reset') ?? '', /^\d{10}$/);
    });

    it('refuses a request without credentials with 401 unauthorized', async () => {
      const req = await c.happy(t, mine);
      const res = await t.request(c.method, req.path, { body: req.body });
      assertErrorBody(res, 401, 'unauthorized');
      assert.ok(res.headers.get('x-ratelimit-limit'), 'rate-limit headers on errors too');
    });

    if (c.auth === 'endpoint' && c.allowed[0] === 'device') {
      it('refuses an unknown and a revoked device token with 401 and reenroll', async () => {
        const req = await c.happy(t, mine);
        const fake = `dt_live_${'x'.repeat(43)}`;
        const unknown = await t.request(c.method, req.path, { key: fake, body: req.body });
        assertErrorBody(unknown, 401, 'unauthorized');
        assert.equal(unknown.body.reenroll, true);
        const device = await newDevice(t, mine);
        await t.ctx.endpoint.devices.revoke(mine.org, device.deviceId, {
          userId: null,
          apiKeyId: null,
          deviceId: null,
        });
        const revoked = await t.request(c.method, req.path, { key: device.deviceToken, body: req.body });
        assertErrorBody(revoked, 401, 'unauthorized');
        assert.equal(revoked.body.reenroll, true);
      });
      if (c.allowed.length < 3) {
        it('refuses an API key where only a device token is accepted with 403', async () => {
          const req = await c.happy(t, mine);
          assertErrorBody(
            await t.request(c.method, req.path, { key: mine.sw, body: req.body }),
            403,
            'forbidden',
          );
        });
      }
    } else if (c.auth !== 'session') {
      it('refuses an unknown and a revoked key with 401', async () => {
        const req = await c.happy(t, mine);
        const fake = `${c.allowed[0]}_live_${'x'.repeat(43)}`;
        const asHeaders = (k: string) =>
          c.auth === 'serviceKey'
            ? { headers: { 'x-service-key': k, 'x-service-organization': mine.org.id } }
            : { key: k };
        assertErrorBody(
          await t.request(c.method, req.path, { ...asHeaders(fake), body: req.body }),
          401,
          'unauthorized',
        );
        const created = await t.ctx.keys.create({
          orgId: mine.org.id,
          kind: c.allowed[0] as 'al',
          name: 'doomed',
        });
        await t.ctx.keys.revoke(mine.org.id, created.key.id, null);
        assertErrorBody(
          await t.request(c.method, req.path, { ...asHeaders(created.secret), body: req.body }),
          401,
          'unauthorized',
        );
      });

      if (c.allowed.length < 2) {
        it('refuses the wrong key kind with 403', async () => {
          const req = await c.happy(t, mine);
          const res = await t.request(c.method, req.path, {
            ...(await credentials(mine, false)),
            body: req.body,
          });
          assertErrorBody(res, 403, 'forbidden');
        });
      }
    } else {
      it('refuses a session cookie that is not valid', async () => {
        const req = await c.happy(t, mine);
        assertErrorBody(
          await t.request(c.method, req.path, { cookie: 'parapet_session=forged', body: req.body }),
          401,
          'unauthorized',
        );
      });
      // The administration API (/api/webhooks, /api/saas/*) also takes an API key of the admin scope.
      const takesAdminKey = () =>
        acceptsAdminKey(
          listRoutes(t.app).find((r) => r.method === c.method && r.url === c.route)?.auth as never,
          c.route,
        );
      it('takes an admin-scope API key only on the administration API, as an admin; never a products key', async () => {
        const req = await c.happy(t, mine);
        const res = await t.request(c.method, req.path, { key: mine.admin, body: req.body });
        if (!takesAdminKey()) {
          assertErrorBody(res, 401, 'unauthorized');
          return;
        }
        if (c.allowed.includes('admin')) {
          assert.equal(res.status, c.happyStatus, res.text);
          assert.ok(res.headers.get('x-ratelimit-limit'), 'X-RateLimit-Limit');
        } else assertErrorBody(res, 403, 'forbidden');
        const again = await c.happy(t, mine);
        assertErrorBody(
          await t.request(c.method, again.path, { key: mine.sw, body: again.body }),
          403,
          'forbidden',
        );
      });
      if (c.foreign && c.allowed.includes('admin')) {
        it("an admin key gets 404 for another organization's resource where it is accepted", async () => {
          const req = await c.foreign!(t, other);
          const res = await t.request(c.method, req.path, { key: mine.admin, body: req.body });
          assertErrorBody(res, takesAdminKey() ? 404 : 401);
        });
      }
      if (!c.allowed.includes('viewer')) {
        it('refuses a role without the right with 403', async () => {
          const req = await c.happy(t, mine);
          const res = await t.request(c.method, req.path, {
            cookie: await mine.session('viewer'),
            body: req.body,
          });
          assertErrorBody(res, 403, 'forbidden');
        });
      }
    }

    if (c.bad) {
      it('refuses bad input with 400 naming the problem', async () => {
        const req = await c.bad!(t, mine);
        const res = await t.request(c.method, req.path, {
          ...(await credentials(mine)),
          body: req.body,
          ...(req.form ? { form: req.form } : {}),
        });
        assertErrorBody(res, 400, 'invalid_request');
      });
    }

    if (c.foreign) {
      it("answers 404 for another organization's resource", async () => {
        const req = await c.foreign!(t, other);
        const res = await t.request(c.method, req.path, { ...(await credentials(mine)), body: req.body });
        assertErrorBody(res, 404, 'not_found');
      });
    }
  });
}

describe('OpenAPI', () => {
  it('documents every route with an operationId, tags, and a schema for each response status', async () => {
    const res = await t.request('GET', '/api/openapi.json');
    assert.equal(res.status, 200);
    const doc = res.body as {
      paths: Record<
        string,
        Record<string, { operationId?: string; tags?: string[]; responses?: Record<string, unknown> }>
      >;
    };
    const problems: string[] = [];
    const ids = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const name = `${method.toUpperCase()} ${path}`;
        if (!op.operationId) problems.push(`${name}: no operationId`);
        else if (ids.has(op.operationId)) problems.push(`${name}: duplicate operationId ${op.operationId}`);
        else ids.add(op.operationId);
        if (!op.tags?.length) problems.push(`${name}: no tags`);
        if (!op.responses || Object.keys(op.responses).length === 0) problems.push(`${name}: no responses`);
      }
    }
    assert.deepEqual(problems, []);
    const documented = new Set(Object.keys(doc.paths).map((p) => p.replace(/\{(\w+)\}/g, ':$1')));
    const missing = listRoutes(t.app)
      .filter(
        (r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs') && r.url !== '/api/openapi.json',
      )
      .filter((r) => !documented.has(r.url))
      .map((r) => r.url);
    assert.deepEqual([...new Set(missing)], []);
  });
});
