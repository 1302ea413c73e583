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
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  return db.executeQuery<R>(CompiledQuery.raw(sqlite ? text : numbered(text), params as unknown[]));
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
