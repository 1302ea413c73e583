import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { CHECKPOINT_INTERVAL_MS } from './checkpointer.js';
import { openStorage } from './index.js';

const walSize = (file: string) => {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
};

describe('WAL checkpoints in a background thread (SQLite file)', () => {
  it('keeps the WAL short while commits never checkpoint themselves', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parapet-wal-'));
    const file = join(dir, 'parapet.db');
    const storage = await openStorage({ sqliteFile: file });
    try {
      await sql`create table filler (id integer primary key, body text not null)`.execute(storage.db);
      const body = 'x'.repeat(3_000);
      // 2,000 commits of about one page each: left alone (automatic checkpoints off) the WAL would hold
      // them all, over 8 MB.
      let largest = 0;
      for (let batch = 0; batch < 20; batch++) {
        for (let i = 0; i < 100; i++) {
          await sql`insert into filler (body) values (${body})`.execute(storage.db);
        }
        largest = Math.max(largest, walSize(file));
        await new Promise((r) => setTimeout(r, CHECKPOINT_INTERVAL_MS / 2));
      }
      assert.ok(largest > 0, 'the database runs in WAL mode');
      assert.ok(largest < 4 * 1024 * 1024, `WAL grew to ${largest} bytes`);
      const rows = await sql<{ n: number }>`select count(*) as n from filler`.execute(storage.db);
      assert.equal(Number(rows.rows[0]?.n), 2_000);
    } finally {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops with the storage, and the file opens again with every row', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parapet-wal-'));
    const file = join(dir, 'parapet.db');
    try {
      const first = await openStorage({ sqliteFile: file });
      await sql`create table kept (v text)`.execute(first.db);
      await sql`insert into kept (v) values ('one')`.execute(first.db);
      await first.close();
      const second = await openStorage({ sqliteFile: file });
      const rows = await sql<{ v: string }>`select v from kept`.execute(second.db);
      await second.close();
      assert.deepEqual(rows.rows, [{ v: 'one' }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
