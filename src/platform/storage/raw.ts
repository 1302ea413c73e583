import { CompiledQuery, type QueryResult, SqliteAdapter } from 'kysely';
import type { Db } from './index.js';

const pgTexts = new Map<string, string>();

/** `?` placeholders as PostgreSQL's `$1…$n` (the texts given here hold no `?` of their own). */
function numbered(text: string): string {
  let out = pgTexts.get(text);
  if (out === undefined) {
    let n = 0;
    out = text.replace(/\?/g, () => `$${++n}`);
    if (pgTexts.size < 1_000) pgTexts.set(text, out);
  }
  return out;
}

/**
 * Runs one statement written with `?` placeholders on either dialect, without Kysely's query builder and
 * compiler. For the writes of every tokenizing request (vault session and tokens, the event and its
 * fan-out): building and compiling those queries allocated more, and took longer, than SQLite took to run
 * them. The text must be constant (or one of a few shapes): it is the key of the statement caches. Runs
 * in whatever transaction `db` is.
 */
export function runStatement<R = unknown>(
  db: Db,
  text: string,
  params: readonly unknown[],
): Promise<QueryResult<R>> {
  const adapter = db.getExecutor().adapter;
  const sqlite = adapter instanceof SqliteAdapter;
  if (sqlite && db.isTransaction) {
    const direct = directSqlite.get(adapter);
    if (direct) {
      try {
        return Promise.resolve(runDirect<R>(direct, text, params));
      } catch (err) {
        return Promise.reject(err);
      }
    }
  }
  return db.executeQuery<R>(CompiledQuery.raw(sqlite ? text : numbered(text), params as unknown[]));
}

/** What runDirect needs of a SQLite database: its cached statements (storage/index.ts). */
export interface StatementSource {
  prepare(text: string): {
    reader: boolean;
    all(params: readonly unknown[]): unknown[];
    run(params: readonly unknown[]): { changes: number; lastInsertRowid: number | bigint };
  };
}

/**
 * Each SQLite database by its Kysely adapter, which the database's transactions share. Inside a
 * transaction the one SQLite connection is this transaction's (Kysely holds it until COMMIT), so a
 * statement run on it directly runs in the transaction, without the promise chain Kysely builds around
 * every query (about a fifth of the vault write's garbage, for the same SQLite work).
 */
const directSqlite = new WeakMap<object, StatementSource>();

export function registerDirectSqlite(db: Db, source: StatementSource): void {
  directSqlite.set(db.getExecutor().adapter, source);
}

/** Kysely's SQLite connection does the same with a statement (sqlite-driver.js): same result shape. */
function runDirect<R>(source: StatementSource, text: string, params: readonly unknown[]): QueryResult<R> {
  const stmt = source.prepare(text);
  if (stmt.reader) return { rows: stmt.all(params) as R[] };
  const { changes, lastInsertRowid } = stmt.run(params);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

const rowSets = new Map<string, string>();

/** `(?, ?, ?), (?, ?, ?)`: the VALUES list of `rows` rows of `columns` placeholders each. */
export function valuesList(rows: number, columns: number): string {
  const key = `${rows}:${columns}`;
  let out = rowSets.get(key);
  if (out === undefined) {
    const one = `(${Array.from({ length: columns }, () => '?').join(', ')})`;
    out = Array.from({ length: rows }, () => one).join(', ');
    if (rowSets.size < 1_000) rowSets.set(key, out);
  }
  return out;
}
