import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import BetterSqlite3 from 'better-sqlite3';
import { createGroupCommit, type Db, openStorage, type Storage } from './index.js';
import { SQLITE_BUSY_TIMEOUT_MS, setSqliteLockWaitForTests } from './raw.js';

const dialects: Array<{ name: string; url?: string }> = [{ name: 'SQLite' }];
if (process.env.TEST_DATABASE_URL) dialects.push({ name: 'PostgreSQL', url: process.env.TEST_DATABASE_URL });

for (const dialect of dialects) {
  describe(`group commit on ${dialect.name}`, () => {
    let storage: Storage;
    let dir: string;
    const schema = `gc_${randomBytes(5).toString('hex')}`;
    // The tests use a scratch table of their own: group commit knows nothing of the product's tables.
    const insert = (db: Db, id: string) => sql`insert into gc_rows (id) values (${id})`.execute(db);
    const ids = async () =>
      (await sql<{ id: string }>`select id from gc_rows order by id`.execute(storage.db)).rows.map(
        (r) => r.id,
      );

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'parapet-gc-'));
      storage = await openStorage(
        dialect.url ? { databaseUrl: dialect.url, schema } : { sqliteFile: join(dir, 'gc.db') },
      );
      await sql`create table gc_rows (id varchar(20) primary key)`.execute(storage.db);
    });
    after(async () => {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
      if (dialect.url) {
        const c = new pg.Client({ connectionString: dialect.url });
        await c.connect();
        await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await c.end();
      }
    });

    it('commits work queued in the same turn as one transaction, and returns each result', async () => {
      const sizes: number[] = [];
      const gc = createGroupCommit(storage.db, { onCommit: (n) => sizes.push(n) });
      const results = await Promise.all(
        ['a1', 'a2', 'a3', 'a4', 'a5'].map((id) =>
          gc.run(async (trx) => {
            await insert(trx, id);
            return `ok ${id}`;
          }),
        ),
      );
      assert.deepEqual(results, ['ok a1', 'ok a2', 'ok a3', 'ok a4', 'ok a5']);
      assert.deepEqual(sizes, [5]);
      assert.deepEqual(await ids(), ['a1', 'a2', 'a3', 'a4', 'a5']);
    });

    it('fails only the piece that failed; its writes are rolled back and the others commit', async () => {
      const sizes: number[] = [];
      const gc = createGroupCommit(storage.db, { onCommit: (n) => sizes.push(n) });
      const outcomes = await Promise.allSettled([
        gc.run((trx) => insert(trx, 'b1')),
        gc.run(async (trx) => {
          await insert(trx, 'b2');
          await insert(trx, 'a1'); // duplicate key: this piece fails after writing b2
        }),
        gc.run((trx) => insert(trx, 'b3')),
      ]);
      assert.deepEqual(
        outcomes.map((o) => o.status),
        ['fulfilled', 'rejected', 'fulfilled'],
      );
      // The other two commit together, once, without the failed piece.
      assert.deepEqual(sizes, [2]);
      const now = await ids();
      assert.ok(now.includes('b1') && now.includes('b3'));
      assert.ok(!now.includes('b2'), 'the failed piece left nothing behind');
    });

    it('fails the whole batch, without running its pieces again, when the transaction itself fails', async () => {
      let calls = 0;
      const busy = new Error('SQLITE_BUSY: database is locked');
      // A database whose BEGIN fails, as a locked database does after its timeout; through Kysely's
      // transactions (its adapter is not SQLite's, so there are no cached statements to run directly).
      const locked = {
        getExecutor: () => ({ adapter: {} }),
        transaction: () => ({ execute: async () => Promise.reject(busy) }),
      } as unknown as Db;
      const gc = createGroupCommit(locked);
      const outcomes = await Promise.allSettled(
        [1, 2, 3].map(() =>
          gc.run(async () => {
            calls++;
          }),
        ),
      );
      assert.deepEqual(
        outcomes.map((o) => (o.status === 'rejected' ? o.reason : o.status)),
        [busy, busy, busy],
      );
      assert.equal(calls, 0);
    });

    it('fails and rolls back the whole batch when COMMIT itself fails, and the next batch commits', async () => {
      // A deferred foreign key is checked at COMMIT: every piece succeeds, then the commit fails.
      await sql`create table gc_children (id varchar(20) primary key, parent varchar(20) references gc_rows (id) deferrable initially deferred)`.execute(
        storage.db,
      );
      const gc = createGroupCommit(storage.db);
      const outcomes = await Promise.allSettled([
        gc.run((trx) => insert(trx, 'f1')),
        gc.run(async (trx) => {
          await sql`insert into gc_children (id, parent) values ('k1', 'missing')`.execute(trx);
        }),
      ]);
      assert.deepEqual(
        outcomes.map((o) => o.status),
        ['rejected', 'rejected'],
      );
      assert.ok(!(await ids()).includes('f1'), 'nothing of the failed batch was committed');
      await gc.run((trx) => insert(trx, 'f2'));
      assert.ok((await ids()).includes('f2'), 'the connection took the next transaction');
    });

    it('settles every piece even when the commit observer throws', async () => {
      const gc = createGroupCommit(storage.db, {
        onCommit: () => {
          throw new Error('observer failed');
        },
      });
      const results = await Promise.all(['e1', 'e2'].map((id) => gc.run(async (trx) => insert(trx, id))));
      assert.equal(results.length, 2);
    });

    it('splits a long queue into batches of at most maxBatch and keeps their order', async () => {
      const sizes: number[] = [];
      const gc = createGroupCommit(storage.db, { maxBatch: 4, onCommit: (n) => sizes.push(n) });
      const order: number[] = [];
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          gc.run(async (trx) => {
            order.push(i);
            await insert(trx, `c${String(i).padStart(2, '0')}`);
          }),
        ),
      );
      assert.deepEqual(sizes, [4, 4, 2]);
      assert.deepEqual(order, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    });

    it('a piece queued while a transaction is in flight waits for it and still commits', async () => {
      const gc = createGroupCommit(storage.db);
      const first = gc.run(async (trx) => {
        await insert(trx, 'd1');
        return 'first';
      });
      await new Promise((r) => setImmediate(r));
      const second = gc.run(async (trx) => {
        await insert(trx, 'd2');
        return 'second';
      });
      assert.deepEqual(await Promise.all([first, second]), ['first', 'second']);
      const now = await ids();
      assert.ok(now.includes('d1') && now.includes('d2'));
    });

    if (!dialect.url) {
      // Another process writing the same file (PARAPET_HTTP_WORKERS, `parapet worker`): a second
      // connection of its own, holding the write lock.
      it('waits for another writer with its event loop free, then commits (a fresh connection too)', async () => {
        const other = new BetterSqlite3(join(dir, 'gc.db'));
        // The first write of a newly opened database: the busy timeout must be off for its first BEGIN too.
        const fresh = await openStorage({ sqliteFile: join(dir, 'gc.db') });
        try {
          other.prepare('begin immediate').run();
          const gc = createGroupCommit(fresh.db);
          let settled = false;
          const write = gc.run(async (trx) => {
            await insert(trx, 'w1');
            return 'written';
          });
          void write.finally(() => {
            settled = true;
          });
          // SQLite's busy handler would sleep this thread for the whole wait, then fail the write (settled below).
          // Timers fire in the order they fall due, so the 2 ms interval fires before the 60 ms wait ends
          // however loaded the machine is; a count of ticks (it asked for 5) depended on the load.
          let ticks = 0;
          const timer = setInterval(() => ticks++, 2);
          await new Promise((r) => setTimeout(r, 60));
          clearInterval(timer);
          assert.ok(ticks >= 1, 'the event loop ran no timer while the lock was held');
          assert.equal(settled, false, 'committed while another connection held the write lock');
          other.prepare('commit').run();
          assert.equal(await write, 'written');
          assert.ok((await ids()).includes('w1'));
        } finally {
          if (other.inTransaction) other.prepare('rollback').run();
          other.close();
          await fresh.close();
        }
      });

      it("takes the lock in this process's arrival order once the other writer lets go", async () => {
        const other = new BetterSqlite3(join(dir, 'gc.db'));
        try {
          other.prepare('begin immediate').run();
          // Three separate group commits: three transactions that all wait for the lock.
          const writes = ['o1', 'o2', 'o3'].map((id) =>
            createGroupCommit(storage.db).run((trx) => insert(trx, id)),
          );
          await new Promise((r) => setTimeout(r, 30));
          other.prepare('commit').run();
          await Promise.all(writes);
          const order = (
            await sql<{ id: string }>`select id from gc_rows where id like 'o%' order by rowid`.execute(
              storage.db,
            )
          ).rows.map((r) => r.id);
          assert.deepEqual(order, ['o1', 'o2', 'o3']);
        } finally {
          if (other.inTransaction) other.prepare('rollback').run();
          other.close();
        }
      });

      it('fails with SQLITE_BUSY after the wait, nothing written, busy timeout restored', async () => {
        const other = new BetterSqlite3(join(dir, 'gc.db'));
        setSqliteLockWaitForTests(40);
        try {
          other.prepare('begin immediate').run();
          const gc = createGroupCommit(storage.db);
          // SQLite's busy handler would wait out its own 5 s timeout with this thread asleep: the loop would
          // not turn before the refusal. Waiting in JavaScript lets the immediate run first (no clock read, so
          // a loaded machine cannot fail it).
          let loopTurned = false;
          setImmediate(() => {
            loopTurned = true;
          });
          await assert.rejects(
            gc.run((trx) => insert(trx, 'w2')),
            (err: { code?: string }) => err.code === 'SQLITE_BUSY',
          );
          assert.ok(loopTurned, 'the event loop turned while the write waited for the lock');
          other.prepare('commit').run();
          assert.ok(!(await ids()).includes('w2'));
          const timeout = await sql<{ timeout: number }>`pragma busy_timeout`.execute(storage.db);
          assert.equal(timeout.rows[0]?.timeout, SQLITE_BUSY_TIMEOUT_MS);
          // The connection is usable again at once: the next write commits.
          await gc.run((trx) => insert(trx, 'w3'));
          assert.ok((await ids()).includes('w3'));
        } finally {
          setSqliteLockWaitForTests(SQLITE_BUSY_TIMEOUT_MS);
          if (other.inTransaction) other.prepare('rollback').run();
          other.close();
        }
      });
    }
  });
}
