import assert from 'node:assert/strict';
import { it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { up as proofsTable } from './0021-proofs.js';
import { up } from './0062-proof-content-unique.js';

// Proofs stored twice before the rule (retries of one upload): every row stays, the oldest copy of each
// content holds the unique column, and a new copy of any of them is refused by the index.
it('keeps copies stored before it, marks the oldest of each content, then refuses another copy', async () => {
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new BetterSqlite3(':memory:') }) });
  try {
    await proofsTable(db);
    const row = (id: string, org_id: string, sha256: string, uploaded_at: string) => ({
      id,
      org_id,
      device_id: 'dev',
      user_id: null,
      sha256,
      size_bytes: 1,
      store_key: `${org_id}/${id}.pdf`,
      metadata: '{}',
      risk_score: 0,
      computed_risk_score: 0,
      risk_score_mismatch: 0,
      uploaded_at,
      expires_at: '2027-01-01',
    });
    await db
      .insertInto('proofs')
      .values([
        row('p2', 'org_a', 'aa', '2026-01-02'),
        row('p1', 'org_a', 'aa', '2026-01-01'),
        row('p4', 'org_a', 'aa', '2026-01-02'),
        row('p3', 'org_b', 'aa', '2026-01-03'),
        row('p5', 'org_a', 'bb', '2026-01-03'),
      ])
      .execute();

    await up(db);

    const after = await db.selectFrom('proofs').select(['id', 'sha256_unique']).orderBy('id').execute();
    assert.deepEqual(
      after.map((r) => `${r.id}:${r.sha256_unique}`),
      ['p1:aa', 'p2:null', 'p3:aa', 'p4:null', 'p5:bb'],
    );
    await assert.rejects(
      db
        .insertInto('proofs')
        .values({ ...row('p6', 'org_a', 'bb', '2026-01-04'), sha256_unique: 'bb' })
        .execute(),
      /UNIQUE/,
    );
  } finally {
    await db.destroy();
  }
});
