import assert from 'node:assert/strict';
import { it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { up } from './0061-endpoint-group-names.js';

// Groups stored before the rule (0010's table, without the index) that share a name but for its case.
it('renames existing look-alike group names in creation order, then refuses a new one', async () => {
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new BetterSqlite3(':memory:') }) });
  try {
    await db.schema
      .createTable('endpoint_groups')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('org_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('name', 'varchar(200)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    const rows = [
      ['g1', 'org_a', 'Ops', '2026-01-01'],
      ['g2', 'org_a', 'ops', '2026-01-02'],
      ['g3', 'org_a', 'OPS', '2026-01-03'],
      ['g4', 'org_a', 'ops (2)', '2026-01-04'],
      ['g5', 'org_b', 'ops', '2026-01-05'],
    ].map(([id, org_id, name, created_at]) => ({ id, org_id, name, created_at }));
    await db.insertInto('endpoint_groups').values(rows).execute();

    await up(db);

    const after = await db.selectFrom('endpoint_groups').select(['id', 'name']).orderBy('id').execute();
    assert.deepEqual(
      after.map((r) => `${r.id}:${r.name}`),
      // g4 already held "ops (2)", so g2 skips to (3) then g3 to (4); the first of each name keeps it
      ['g1:Ops', 'g2:ops (3)', 'g3:OPS (4)', 'g4:ops (2)', 'g5:ops'],
    );
    await assert.rejects(
      db
        .insertInto('endpoint_groups')
        .values({ id: 'g6', org_id: 'org_b', name: 'OpS', created_at: 'x' })
        .execute(),
      /UNIQUE/,
    );
  } finally {
    await db.destroy();
  }
});
