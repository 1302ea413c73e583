// The database connector against real databases: what a source query may not do. The SQLite cases always
// run; PostgreSQL and MariaDB ones when TEST_DATABASE_URL / TEST_MYSQL_URL name a server (CI sets both).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { readDatabase } from './database.js';
import type { ConnectorDeps } from './types.js';

// Only maxRows and the verifier's own files (none here) matter to this connector; the others belong to
// the web connectors.
const deps = { maxRows: 2, own: { dir: null, files: [] } } as unknown as ConnectorDeps;
// crawlDepth is the website connector's; a database target carries 0.
const target = (t: { url: string; query: string; keyColumn: string }) => ({ crawlDepth: 0, ...t });
const dir = mkdtempSync(join(tmpdir(), 'parapet-db-source-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function sqliteFile(): string {
  const file = join(dir, `${randomBytes(4).toString('hex')}.sqlite`);
  const db = new BetterSqlite3(file);
  db.exec(
    "CREATE TABLE t (code TEXT PRIMARY KEY, name TEXT); INSERT INTO t VALUES ('a', 'one'), ('b', 'two'), ('c', 'three'), ('d', 'four');",
  );
  db.close();
  return file;
}

describe('database sources', () => {
  it('keeps the row limit when the query ends in a comment (it used to swallow an appended LIMIT)', async () => {
    const url = `sqlite:${sqliteFile()}`;
    const r = await readDatabase(
      target({
        url,
        // the fourth row fails when it is read (abs() of the smallest integer overflows): only a limit applied
        // by the database itself keeps it unread
        query:
          "SELECT code, CASE WHEN code = 'd' THEN abs(-9223372036854775808) ELSE 0 END AS boom FROM t ORDER BY code -- ",
        keyColumn: 'code',
      }),
      deps,
    );
    assert.equal(r.documents.length, 2);
    assert.deepEqual(r.skipped, [{ what: 'query', reason: 'more than 2 rows' }]);
  });

  it('refuses a second statement with its reason, and accepts a ";" inside quoted text', async () => {
    const url = `sqlite:${sqliteFile()}`;
    await assert.rejects(
      readDatabase(target({ url, query: 'SELECT code FROM t; SELECT 1 AS code', keyColumn: 'code' }), deps),
      /one statement/,
    );
    const quoted = await readDatabase(
      target({ url, query: "SELECT code, name FROM t WHERE name <> 'x;y';", keyColumn: 'code' }),
      deps,
    );
    assert.equal(quoted.documents.length, 2);
  });

  if (process.env.TEST_MYSQL_URL) {
    it('MariaDB: several statements stay refused when the URL asks for them, and INTO OUTFILE cannot write', async () => {
      const mysql = await import('mysql2/promise');
      const db = `vconn_${randomBytes(5).toString('hex')}`;
      const conn = await mysql.createConnection({
        uri: process.env.TEST_MYSQL_URL!,
        multipleStatements: true,
      });
      try {
        await conn.query(
          `CREATE DATABASE ${db}; CREATE TABLE ${db}.t (code VARCHAR(8) PRIMARY KEY); INSERT INTO ${db}.t VALUES ('a'), ('b');`,
        );
        const base = new URL(process.env.TEST_MYSQL_URL!);
        base.pathname = `/${db}`;
        base.searchParams.set('multipleStatements', 'true');
        await assert.rejects(
          readDatabase(
            target({
              url: base.toString(),
              query: 'SELECT code FROM t; COMMIT; DELETE FROM t; SELECT 1 AS code',
              keyColumn: 'code',
            }),
            deps,
          ),
          /one statement/,
        );
        const outfile = join(tmpdir(), `parapet-outfile-${randomBytes(4).toString('hex')}`);
        await assert.rejects(
          readDatabase(
            target({
              url: base.toString(),
              query: `SELECT code FROM t INTO OUTFILE '${outfile}' -- `,
              keyColumn: 'code',
            }),
            deps,
          ),
        );
        assert.equal(existsSync(outfile), false, 'INTO OUTFILE wrote a file');
        const [left] = await conn.query(`SELECT count(*) AS n FROM ${db}.t`);
        assert.equal(Number((left as Array<{ n: number }>)[0]!.n), 2);
      } finally {
        await conn.query(`DROP DATABASE IF EXISTS ${db}`);
        await conn.end();
      }
    });
  }

  if (process.env.TEST_DATABASE_URL) {
    it('PostgreSQL: the row limit holds after a trailing comment', async () => {
      const schema = `vconn_${randomBytes(5).toString('hex')}`;
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      try {
        await admin.query(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.t (ref text PRIMARY KEY)`);
        await admin.query(`INSERT INTO ${schema}.t VALUES ('a'), ('b'), ('c')`);
        const r = await readDatabase(
          target({
            url: process.env.TEST_DATABASE_URL!,
            query: `SELECT ref FROM ${schema}.t -- `,
            keyColumn: 'ref',
          }),
          deps,
        );
        assert.equal(r.documents.length, 2);
        assert.equal(r.skipped.length, 1);
      } finally {
        await admin.query(`DROP SCHEMA ${schema} CASCADE`);
        await admin.end();
      }
    });
  }
});
