import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { up as up0061 } from './0061-endpoint-group-names.js';
import { up } from './0064-endpoint-group-folded-names.js';

/** A fresh database: SQLite in memory, or a schema of its own on TEST_DATABASE_URL (dropped by `close`). */
async function freshDb(): Promise<{ db: Kysely<any>; postgres: boolean; close: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new BetterSqlite3(':memory:') }) });
    return { db, postgres: false, close: () => db.destroy() };
  }
  const schema = `m0064_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const pool = new pg.Pool({ connectionString: url, max: 1, options: `-c search_path=${schema}` });
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    postgres: true,
    close: async () => {
      await db.destroy();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}

// Groups stored under 0061's index on lower(name), which let through names that fold alike: beyond ASCII on
// SQLite ("Équipe" / "équipe"), and on both stores "Straße" / "STRASSE" and a full-width "Ｆｉｎ" / "fin".
it('folds existing names in JavaScript, renames the look-alikes 0061 let through, then refuses a new one', async () => {
  const { db, postgres, close } = await freshDb();
  try {
    // 0010's table, as 0061 found it.
    await sql`create table endpoint_groups (id varchar(64) primary key, org_id varchar(64) not null,
      name varchar(200) not null, created_at varchar(32) not null)`.execute(db);
    await up0061(db);
    const rows = [
      ['g1', 'org_a', 'Straße', '2026-01-01'],
      ['g2', 'org_a', 'STRASSE', '2026-01-02'],
      ['g3', 'org_a', 'strasse (2)', '2026-01-03'],
      ['g4', 'org_a', 'Ｆｉｎ', '2026-01-04'],
      ['g5', 'org_a', 'fin', '2026-01-05'],
      ['g6', 'org_b', 'STRASSE', '2026-01-06'],
      // PostgreSQL's lower() already folded these two together: 0061 refused the second there.
      ...(postgres
        ? []
        : [
            ['g7', 'org_a', 'Équipe', '2026-01-07'],
            ['g8', 'org_a', 'équipe', '2026-01-08'],
          ]),
    ].map(([id, org_id, name, created_at]) => ({ id, org_id, name, created_at }));
    await db.insertInto('endpoint_groups').values(rows).execute();

    await up(db);

    const after = await db
      .selectFrom('endpoint_groups')
      .select(['id', 'name', 'name_folded'])
      .orderBy('id')
      .execute();
    assert.deepEqual(
      after.map((r) => `${r.id}:${r.name}:${r.name_folded}`),
      // g3 already held "strasse (2)", so g2 takes (3); the first of each folded name keeps it
      [
        'g1:Straße:strasse',
        'g2:STRASSE (3):strasse (3)',
        'g3:strasse (2):strasse (2)',
        'g4:Ｆｉｎ:fin',
        'g5:fin (2):fin (2)',
        'g6:STRASSE:strasse',
        ...(postgres ? [] : ['g7:Équipe:équipe', 'g8:équipe (2):équipe (2)']),
      ],
    );
    await assert.rejects(
      db
        .insertInto('endpoint_groups')
        .values({ id: 'g9', org_id: 'org_b', name: 'Strasse', name_folded: 'strasse', created_at: 'x' })
        .execute(),
      /UNIQUE|unique/,
    );
    // 0061's index on lower(name) is gone: only name_folded decides (two rows here differ in it alone).
    await db
      .insertInto('endpoint_groups')
      .values([
        { id: 'g10', org_id: 'org_c', name: 'Ops', name_folded: 'ops', created_at: 'x' },
        { id: 'g11', org_id: 'org_c', name: 'OPS', name_folded: 'ops-2', created_at: 'x' },
      ])
      .execute();
  } finally {
    await close();
  }
});
