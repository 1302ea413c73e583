import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { NAME_PATTERN } from '../../src/platform/http/index.js';
import { validPolicy } from '../support/endpoint-cases.js';
import { startTestServer, type Tenant, type TestServer } from '../support/harness.js';

// One name rule for every user-visible name (src/platform/http/schemas.ts, docs/conventions.md): no C0/C1
// control characters, no bidirectional overrides or isolates, refused with a 400 naming the field.
let t: TestServer;
let tenant: Tenant;
let cookie: string;
before(async () => {
  t = await startTestServer();
  tenant = await t.tenant({ name: 'Names' });
  cookie = await tenant.session('owner');
});
after(async () => {
  await t.close();
});

const HOSTILE = [
  '\u202Eevil\u0000ctl',
  'tab\tname',
  'new\nline',
  'c1\u0085',
  'iso\u2066late\u2069',
  'emb\u202Aed',
];

const routes: Array<{
  what: string;
  method: string;
  path: string;
  body: (name: string) => Record<string, unknown>;
}> = [
  { what: 'API key', method: 'POST', path: '/api/dashboard/keys', body: (name) => ({ name, kind: 'al' }) },
  {
    what: 'user',
    method: 'POST',
    path: '/api/dashboard/users',
    body: (name) => ({
      email: `u${Math.random().toString(36).slice(2, 10)}@names.example`,
      name,
      role: 'viewer',
    }),
  },
  { what: 'organization', method: 'PATCH', path: '/api/dashboard/organization', body: (name) => ({ name }) },
  {
    what: 'device group',
    method: 'POST',
    path: '/api/dashboard/endpoint/groups',
    body: (name) => ({ name }),
  },
  {
    what: 'enrollment link',
    method: 'POST',
    path: '/api/dashboard/endpoint/enrollment',
    body: (name) => ({ name }),
  },
  {
    what: 'policy',
    method: 'POST',
    path: '/api/dashboard/endpoint/policies',
    body: (name) => validPolicy(name),
  },
];

describe('the shared name rule', () => {
  it('refuses control and bidi characters in every name with a 400 naming the field, and stores nothing', async () => {
    for (const r of routes) {
      for (const name of HOSTILE) {
        const res = await t.request(r.method, r.path, { cookie, body: r.body(name) });
        assert.equal(res.status, 400, `${r.what} ${JSON.stringify(name)}: ${res.text}`);
        assert.equal(res.body.error, 'invalid_request');
        assert.match(res.body.message, /'name'/, r.what);
        assert.match(res.body.message, /control characters/, r.what);
      }
    }
    const keys = await t.request('GET', '/api/dashboard/keys', { cookie });
    assert.ok(!keys.text.includes('evil'), 'no such key listed');
  });

  it('accepts names in any script, with accents, emoji and inner spaces', async () => {
    for (const r of routes) {
      for (const name of ['Équipe Zürich', 'Отдел продаж', '営業チーム 🚀', "O'Brien & Co."]) {
        const res = await t.request(r.method, r.path, { cookie, body: r.body(`${name} ${r.what}`) });
        assert.ok(res.status === 200 || res.status === 201, `${r.what} ${name}: ${res.status} ${res.text}`);
      }
    }
  });

  it('is on every name a request body takes (OpenAPI), bar names of their own stricter shape', async () => {
    const doc = (await t.request('GET', '/api/openapi.json')).body as Record<string, any>;
    const missing: string[] = [];
    const visit = (schema: any, where: string) => {
      if (!schema || typeof schema !== 'object') return;
      for (const [k, v] of Object.entries<any>(schema.properties ?? {})) {
        if (
          k === 'name' &&
          v?.type === 'string' &&
          v.pattern !== NAME_PATTERN &&
          !/^\^\[A-Za-z\]/.test(v.pattern ?? '')
        )
          missing.push(`${where}.${k}`);
        visit(v, `${where}.${k}`);
      }
      for (const key of ['items', 'additionalProperties']) visit(schema[key], where);
      for (const key of ['anyOf', 'oneOf', 'allOf']) for (const s of schema[key] ?? []) visit(s, where);
    };
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        visit(op.requestBody?.content?.['application/json']?.schema, `${method.toUpperCase()} ${path}`);
      }
    }
    assert.deepEqual(missing, []);
  });
});

describe('device group names', () => {
  it('are unique in an organization whatever their case (409), on create and on rename', async () => {
    const create = (name: string) =>
      t.request('POST', '/api/dashboard/endpoint/groups', { cookie, body: { name } });
    const ops = await create('Ops');
    assert.equal(ops.status, 201, ops.text);
    for (const clash of ['ops', 'OPS', ' Ops ']) {
      const res = await create(clash);
      assert.equal(res.status, 409, `${clash}: ${res.text}`);
      assert.equal(res.body.error, 'conflict');
    }
    const other = await create('Finance');
    assert.equal(other.status, 201, other.text);
    const rename = await t.request('PATCH', `/api/dashboard/endpoint/groups/${other.body.group.id}`, {
      cookie,
      body: { name: 'oPs' },
    });
    assert.equal(rename.status, 409, rename.text);
    const elsewhere = await t.tenant({ name: 'Other names' });
    const same = await t.request('POST', '/api/dashboard/endpoint/groups', {
      cookie: await elsewhere.session('owner'),
      body: { name: 'ops' },
    });
    assert.equal(same.status, 201, 'another organization may have its own "ops"');
  });

  it('are compared by the full case fold, beyond ASCII, the same on SQLite and PostgreSQL', async () => {
    const create = (name: string) =>
      t.request('POST', '/api/dashboard/endpoint/groups', { cookie, body: { name } });
    // SQLite's lower() folds ASCII only, and lower case alone keeps "ß" apart from "ss".
    for (const [first, clashes] of [
      ['Équipe', ['équipe', 'ÉQUIPE']],
      ['Straße', ['STRASSE', 'strasse']],
      ['ΟΔΟΣ', ['οδος', 'οδοσ']],
      ['Ｆｉｎ', ['fin', 'FIN']],
    ] as const) {
      const made = await create(first);
      assert.equal(made.status, 201, `${first}: ${made.text}`);
      for (const clash of clashes) {
        const res = await create(clash);
        assert.equal(res.status, 409, `${first} / ${clash}: ${res.text}`);
      }
    }
    const other = await create('Zürich');
    assert.equal(other.status, 201, other.text);
    const rename = await t.request('PATCH', `/api/dashboard/endpoint/groups/${other.body.group.id}`, {
      cookie,
      body: { name: 'équipe' },
    });
    assert.equal(rename.status, 409, rename.text);
    const own = await t.request('PATCH', `/api/dashboard/endpoint/groups/${other.body.group.id}`, {
      cookie,
      body: { name: 'ZÜRICH' },
    });
    assert.equal(own.status, 200, `a group may change the case of its own name: ${own.text}`);
  });
});
