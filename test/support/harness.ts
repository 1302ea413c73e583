import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApi } from '../../src/main/api.js';
import { type Context, createContext } from '../../src/main/context.js';
import type { App } from '../../src/platform/http/index.js';
import type { Clock } from '../../src/platform/clock/index.js';
import type { Logger } from '../../src/platform/log/index.js';
import { loadConfig } from '../../src/platform/config/index.js';
import type { Organization } from '../../src/modules/orgs/index.js';
import type { Plan, Product, Role } from '../../src/modules/plans/index.js';

/**
 * A real server on a random loopback port over a fresh database: SQLite in a temp folder, or a schema of
 * its own on TEST_DATABASE_URL; a Redis key prefix of its own on TEST_REDIS_URL.
 */
export interface TestServer {
  url: string;
  app: App;
  ctx: Context;
  tenant(input?: { plan?: Plan; products?: Product[]; name?: string }): Promise<Tenant>;
  request(method: string, path: string, init?: RequestInit2): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface Tenant {
  org: Organization;
  al: string;
  sw: string;
  /** A sw key of the admin scope (docs/auth.md): the administration API by script. */
  admin: string;
  /** Cookie header of a logged-in user with the given role (one per role, reused). */
  session(role?: Role): Promise<string>;
  /** A new user and session each call, for tests that end the session. */
  newSession(role?: Role): Promise<string>;
}

export interface RequestInit2 {
  body?: unknown;
  rawBody?: string | Buffer;
  /** A multipart body (fetch sets its content type). */
  form?: FormData;
  key?: string;
  cookie?: string;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface TestServerOptions {
  clock?: Clock;
  logger?: Logger;
  env?: Record<string, string>;
  /** Share the database and Redis prefix of another server (for multi-instance tests). */
  shareWith?: TestServer;
}

/** JSON requests to a test server, parsed back (text kept when the answer is not JSON). */
export function requester(
  url: string,
): (method: string, path: string, init?: RequestInit2) => Promise<TestResponse> {
  return async (method, path, init = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    if (init.key) headers['authorization'] = `Bearer ${init.key}`;
    if (init.cookie && !headers['cookie']) headers['cookie'] = init.cookie;
    let body: string | Buffer | FormData | undefined;
    if (init.form !== undefined) body = init.form;
    else if (init.rawBody !== undefined) body = init.rawBody;
    else if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers['content-type'] ??= 'application/json';
    }
    // RequestInit['body'] names the same type under Node's lib and the DOM lib the extension's tests add.
    const res = await fetch(url + path, {
      method,
      headers,
      ...(body !== undefined ? { body: body as RequestInit['body'] } : {}),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
}

const shared = new WeakMap<TestServer, { env: Record<string, string> }>();

/** Drops a test run's PostgreSQL schema with everything in it. */
export async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'parapet-test-'));
  const id = randomBytes(6).toString('hex');
  const base: Record<string, string> = options.shareWith
    ? { ...shared.get(options.shareWith)!.env }
    : {
        PARAPET_MASTER_KEY: randomBytes(32).toString('hex'),
        ...(process.env.TEST_DATABASE_URL
          ? { DATABASE_URL: process.env.TEST_DATABASE_URL, DATABASE_SCHEMA: `t_${id}` }
          : {}),
        ...(process.env.TEST_REDIS_URL
          ? { REDIS_URL: process.env.TEST_REDIS_URL, REDIS_PREFIX: `test:${id}:` }
          : {}),
      };
  const env: Record<string, string> = {
    LOG_LEVEL: 'silent',
    PARAPET_ALLOW_PRIVATE_TARGETS: 'true',
    PARAPET_RUN_WORKERS: 'true',
    ...base,
    // an SQLite file is per process; a server that shares reuses the same folder
    PARAPET_DATA_DIR: options.shareWith ? shared.get(options.shareWith)!.env['PARAPET_DATA_DIR']! : dataDir,
    ...options.env,
  };
  const config = loadConfig(env);
  const ctx = await createContext(config, {
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const app = await buildApi(ctx);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;

  const request = requester(url);

  let counter = 0;
  const server: TestServer = {
    url,
    app,
    ctx,
    request,
    async tenant(input = {}) {
      const org = await ctx.orgs.createOrg({
        name: input.name ?? `Tenant ${++counter}`,
        plan: input.plan ?? 'enterprise',
        ...(input.products ? { products: input.products } : {}),
      });
      const al = (await ctx.keys.create({ orgId: org.id, kind: 'al', name: 'test al' })).secret;
      const sw = (await ctx.keys.create({ orgId: org.id, kind: 'sw', name: 'test sw' })).secret;
      const admin = (await ctx.keys.create({ orgId: org.id, kind: 'sw', name: 'test admin', scope: 'admin' }))
        .secret;
      const sessions = new Map<Role, string>();
      const newSession = async (role: Role = 'owner') => {
        const email = `${role}.${org.id.slice(4, 14).toLowerCase()}.${++counter}@example.test`;
        const password = `pw-${randomBytes(12).toString('hex')}`;
        await ctx.orgs.createUser({ org, email, role, password });
        const res = await request('POST', '/api/dashboard/auth/login', { body: { email, password } });
        if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
        return (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      };
      return {
        org,
        al,
        sw,
        admin,
        newSession,
        async session(role: Role = 'owner') {
          const have = sessions.get(role);
          if (have) return have;
          const cookie = await newSession(role);
          sessions.set(role, cookie);
          return cookie;
        },
      };
    },
    async close() {
      await app.close();
      await ctx.close();
      if (!options.shareWith) {
        if (env['DATABASE_SCHEMA'] && env['DATABASE_URL']) {
          await dropSchema(env['DATABASE_URL'], env['DATABASE_SCHEMA']);
        }
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
  shared.set(server, { env });
  return server;
}

/** A loopback port nothing listens on (bound, read, released): for a dependency that refuses connections. */
export async function closedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
