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
  it('copies committed pages into the database file without any commit checkpointing itself', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parapet-wal-'));
    const file = join(dir, 'parapet.db');
    const storage = await openStorage({ sqliteFile: file, backgroundCheckpoints: true });
    try {
      await sql`create table filler (id integer primary key, body text not null)`.execute(storage.db);
      const body = 'x'.repeat(3_000);
      // 2,000 commits of about one page each (~8 MB). Pages reach the database file only through a
      // checkpoint, and automatic checkpoints are off on this connection: only the thread can move them.
      for (let i = 0; i < 2_000; i++) {
        await sql`insert into filler (body) values (${body})`.execute(storage.db);
      }
      const deadline = Date.now() + 15_000;
      while (statSync(file).size < 6 * 1024 * 1024 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, CHECKPOINT_INTERVAL_MS));
      }
      assert.ok(statSync(file).size >= 6 * 1024 * 1024, `database file is ${statSync(file).size} bytes`);
      assert.ok(walSize(file) > 0, 'the database runs in WAL mode');
      const rows = await sql<{ n: number }>`select count(*) as n from filler`.execute(storage.db);
      assert.equal(Number(rows.rows[0]?.n), 2_000);
    } finally {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves SQLite checkpointing in commits when not asked for the thread (CLI commands)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parapet-wal-'));
    const file = join(dir, 'parapet.db');
    const storage = await openStorage({ sqliteFile: file });
    try {
      await sql`create table filler (id integer primary key, body text not null)`.execute(storage.db);
      const body = 'x'.repeat(3_000);
      for (let i = 0; i < 2_000; i++) {
        await sql`insert into filler (body) values (${body})`.execute(storage.db);
      }
      // Commits past 1,000 WAL pages checkpoint at once: pages are already in the file, no waiting.
      assert.ok(statSync(file).size >= 3 * 1024 * 1024, `database file is ${statSync(file).size} bytes`);
    } finally {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops with the storage, and the file opens again with every row', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parapet-wal-'));
    const file = join(dir, 'parapet.db');
    try {
      const first = await openStorage({ sqliteFile: file, backgroundCheckpoints: true });
      await sql`create table kept (v text)`.execute(first.db);
      await sql`insert into kept (v) values ('one')`.execute(first.db);
      await first.close();
      const second = await openStorage({ sqliteFile: file, backgroundCheckpoints: true });
      const rows = await sql<{ v: string }>`select v from kept`.execute(second.db);
      await second.close();
      assert.deepEqual(rows.rows, [{ v: 'one' }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
