import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildVerifierApp,
  createVerifierContext,
  openVerifierStorage,
  type VerifierContext,
  verifierDb,
} from '../../src/main/verifier.js';
import { createVerifierRepo, type LlmModel, type VerifierRepo } from '../../src/modules/verifier/index.js';
import { createSealer, type Sealer } from '../../src/platform/crypto/index.js';
import type { Clock } from '../../src/platform/clock/index.js';
import { loadConfig } from '../../src/platform/config/index.js';
import type { App } from '../../src/platform/http/index.js';
import { dropSchema, type RequestInit2, requester, type TestResponse } from './harness.js';

/**
 * A real verification server on a random loopback port over its own fresh store: a SQLite file in a temp
 * folder, or a schema of its own on TEST_DATABASE_URL. It comes with an administrator and a user key.
 */
export interface TestVerifier {
  url: string;
  app: App;
  ctx: VerifierContext;
  dataDir: string;
  /**
   * A folder for the documents a test connects as file sources: never the data folder, which the verifier
   * refuses as a source (its master key, store and uploads live there).
   */
  docsDir: string;
  admin: string;
  user: string;
  request(method: string, path: string, init?: RequestInit2): Promise<TestResponse>;
  /** Polls the source until indexing ended (ready or failed) and returns it. */
  settled(id: string): Promise<any>;
  close(): Promise<void>;
}

export async function startTestVerifier(
  options: {
    clock?: Clock;
    models?: LlmModel[];
    env?: Record<string, string>;
    /** Runs on the fresh store before the server starts (e.g. `register` with the cloud). */
    prepare?: (repo: VerifierRepo, sealer: Sealer) => Promise<void>;
    /** Open the SSH tunnel as `parapet verifier` does. */
    connectCloud?: boolean;
  } = {},
): Promise<TestVerifier> {
  const dataDir = mkdtempSync(join(tmpdir(), 'parapet-verifier-test-'));
  const docsDir = mkdtempSync(join(tmpdir(), 'parapet-verifier-docs-'));
  const id = randomBytes(6).toString('hex');
  const env: Record<string, string> = {
    LOG_LEVEL: 'silent',
    PARAPET_ALLOW_PRIVATE_TARGETS: 'true',
    PARAPET_VERIFIER_DATA_DIR: dataDir,
    PARAPET_VERIFIER_MASTER_KEY: randomBytes(32).toString('hex'),
    PARAPET_VERIFIER_LLM_TIMEOUT_MS: '2000',
    // The evaluation and the benchmarks verify hundreds of answers a minute with one key; the per-key limit
    // has its own test (src/modules/verifier/rate-limits.test.ts), which sets it low.
    PARAPET_VERIFIER_RATE_PER_MINUTE: '1000000',
    ...(process.env.TEST_DATABASE_URL
      ? { PARAPET_VERIFIER_DATABASE_URL: process.env.TEST_DATABASE_URL, DATABASE_SCHEMA: `tv_${id}` }
      : {}),
    ...options.env,
  };
  const config = loadConfig(env);
  if (options.prepare) {
    const storage = await openVerifierStorage(config);
    try {
      const sealer = createSealer(Buffer.from(env['PARAPET_VERIFIER_MASTER_KEY']!, 'hex'));
      await options.prepare(createVerifierRepo(verifierDb(storage)), sealer);
    } finally {
      await storage.close();
    }
  }
  const ctx = await createVerifierContext(config, {
    ...(options.connectCloud ? { connectCloud: true } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.models ? { models: options.models } : {}),
  });
  const app = await buildVerifierApp(ctx);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  const admin = (await ctx.service.createKey('test admin', 'admin')).secret;
  const user = (await ctx.service.createKey('test user', 'user')).secret;

  const request = requester(url);

  return {
    url,
    app,
    ctx,
    dataDir,
    docsDir,
    admin,
    user,
    request,
    async settled(sourceId: string) {
      await ctx.service.idle();
      const res = await request('GET', `/api/sources/${sourceId}`, { key: admin });
      return res.body;
    },
    async close() {
      await app.close();
      await ctx.close();
      if (env['PARAPET_VERIFIER_DATABASE_URL'] && env['DATABASE_SCHEMA'])
        await dropSchema(env['PARAPET_VERIFIER_DATABASE_URL'], env['DATABASE_SCHEMA']);
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(docsDir, { recursive: true, force: true });
    },
  };
}
