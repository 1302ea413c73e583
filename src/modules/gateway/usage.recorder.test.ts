import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { systemClock } from '../../platform/clock/index.js';
import {
  type Db,
  openStorage,
  SQLITE_BUSY_TIMEOUT_MS,
  type Storage,
  setSqliteLockWaitForTests,
} from '../../platform/storage/index.js';
import { createUsageRecorder, type UsageRecord } from './usage.recorder.js';

const record = (model: string): UsageRecord => ({
  orgId: 'org_usage',
  endpoint: 'proxy',
  provider: 'openai',
  model,
  promptTokens: 10,
  completionTokens: 5,
  cost: 0,
  source: 'provider',
  outcome: 'ok',
});

describe('usage recorder', () => {
  let storage: Storage;
  let dir: string;
  const count = async () =>
    Number(
      (await sql<{ n: number }>`select count(*) as n from gateway_usage`.execute(storage.db)).rows[0]?.n,
    );

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'parapet-usage-'));
    storage = await openStorage({ sqliteFile: join(dir, 'usage.db') });
    await storage.migrate();
  });
  after(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes a large backlog in several chunks, every row once', async () => {
    const usage = createUsageRecorder({ db: storage.db, clock: systemClock });
    for (let i = 0; i < 1_234; i++) usage.record(record('openai/gpt-4o-mini'));
    await usage.close();
    assert.equal(await count(), 1_234);
  });

  it("stores each row's values as recorded, without building a query through Kysely's compiler", async () => {
    await sql`delete from gateway_usage`.execute(storage.db);
    // A plugin sees every query Kysely builds and compiles (not the statements run as they are): the
    // insert runs once per proxied call, and building it cost more garbage than the rest of the recorder.
    let compiled = 0;
    const counting = storage.db.withPlugin({
      transformQuery: (args) => {
        compiled++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const usage = createUsageRecorder({ db: counting, clock: systemClock });
    for (let i = 0; i < 70; i++) {
      usage.record({
        ...record(`openai/model-${i}`),
        promptTokens: i,
        completionTokens: 2 * i,
        cost: i / 1000,
        source: i % 2 ? 'provider' : 'estimated',
        outcome: i % 3 ? 'ok' : 'aborted',
        ...(i % 5 ? {} : { conversationId: `conv_${i}` }),
      });
    }
    await usage.flush();
    assert.equal(compiled, 0);
    const rows = await storage.db.selectFrom('gateway_usage').selectAll().orderBy('prompt_tokens').execute();
    assert.equal(rows.length, 70);
    for (const [i, r] of rows.entries()) {
      assert.match(r.id, /^use_/);
      assert.deepEqual(
        [r.org_id, r.endpoint, r.provider, r.model, r.prompt_tokens, r.completion_tokens, r.cost],
        ['org_usage', 'proxy', 'openai', `openai/model-${i}`, i, 2 * i, i / 1000],
      );
      assert.deepEqual(
        [r.usage_source, r.outcome, r.conversation_id],
        [i % 2 ? 'provider' : 'estimated', i % 3 ? 'ok' : 'aborted', i % 5 ? null : `conv_${i}`],
      );
      assert.ok(!Number.isNaN(Date.parse(r.created_at)));
    }
    await usage.close();
  });

  it('after a failure part-way through a flush, writes the rest later without repeating what was written', async () => {
    await sql`delete from gateway_usage`.execute(storage.db);
    // A database that refuses one row: the chunk holding it fails, the chunk before it is already stored.
    await sql`create trigger refuse_usage before insert on gateway_usage when new.model = 'refused'
      begin select raise(abort, 'refused for the test'); end`.execute(storage.db);
    const usage = createUsageRecorder({ db: storage.db, clock: systemClock });
    for (let i = 0; i < 150; i++) usage.record(record(i === 120 ? 'refused' : 'openai/gpt-4o-mini'));
    await usage.flush();
    const afterFailure = await count();
    assert.ok(afterFailure > 0 && afterFailure < 150, `a first chunk is stored (${afterFailure} rows)`);

    await sql`drop trigger refuse_usage`.execute(storage.db);
    await usage.close();
    assert.equal(await count(), 150);
  });

  it('close() writes rows recorded while an earlier flush was still running', async () => {
    await sql`delete from gateway_usage`.execute(storage.db);
    // Each write waits a little for its connection, as it would over a network or behind another
    // process's write lock: a flush stays in flight. (Kysely's methods run on the real instance: they
    // read its private fields.)
    const slow = new Proxy(storage.db, {
      get(target, prop) {
        if (prop === 'connection')
          return () => ({
            execute: async <T>(work: (conn: Db) => Promise<T>) => {
              await new Promise((r) => setTimeout(r, 30));
              return target.connection().execute(work);
            },
          });
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as Db;
    const usage = createUsageRecorder({ db: slow, clock: systemClock });
    for (let i = 0; i < 250; i++) usage.record(record('openai/gpt-4o-mini'));
    const first = usage.flush();
    for (let i = 0; i < 40; i++) usage.record(record('openai/gpt-4o-mini'));
    // A periodic flush and the shutdown both arrive while the first one is writing.
    const periodic = usage.flush();
    for (let i = 0; i < 10; i++) usage.record(record('openai/gpt-4o-mini'));
    await usage.close();
    assert.equal(await count(), 300);
    await Promise.all([first, periodic]);
  });

  it("waits for another process's write lock with its event loop free, and keeps the rows when the wait runs out", async () => {
    await sql`delete from gateway_usage`.execute(storage.db);
    // Another process writing the same file (PARAPET_HTTP_WORKERS): a connection of its own holds the lock.
    const other = new BetterSqlite3(join(dir, 'usage.db'));
    setSqliteLockWaitForTests(40);
    const usage = createUsageRecorder({ db: storage.db, clock: systemClock });
    try {
      other.prepare('begin immediate').run();
      for (let i = 0; i < 10; i++) usage.record(record('openai/gpt-4o-mini'));
      // SQLite's busy handler would sleep this thread inside the write: the flush would then resolve without
      // the event loop having turned once, and the continuation below (a microtask) would run before any
      // immediate. Waiting with the loop free lets the immediate run first. No clock is read: under a loaded
      // machine a count of timer ticks or a duration failed the suite although the loop was free.
      let loopTurned = false;
      setImmediate(() => {
        loopTurned = true;
      });
      await usage.flush();
      assert.ok(loopTurned, 'the event loop turned while the flush waited for the lock');
      other.prepare('commit').run();
      assert.equal(await count(), 0);
      await usage.close();
      assert.equal(await count(), 10);
    } finally {
      setSqliteLockWaitForTests(SQLITE_BUSY_TIMEOUT_MS);
      if (other.inTransaction) other.prepare('rollback').run();
      other.close();
    }
  });
});
