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
  if (sqlite) {
    const direct = directSqlite.get(adapter);
    if (direct && (db.isTransaction || direct.held === db)) {
      try {
        return Promise.resolve(runDirect<R>(direct.source, text, params));
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
  /** Whether a transaction is open on the connection. */
  inTransaction(): boolean;
  /**
   * BEGIN IMMEDIATE without waiting: false (and no transaction) when another process holds the write
   * lock right now.
   */
  tryBegin(): boolean;
}

interface DirectSqlite {
  source: StatementSource;
  /** This process's write transactions (sqliteTransactions), in the order they asked for the lock. */
  writers: Fifo;
  /** The handle of the connection that sqliteTransactions holds in a transaction right now, if any. */
  held: Db | undefined;
}

/**
 * Each SQLite database by its Kysely adapter, which the database's transactions share. Inside a
 * transaction the one SQLite connection is this transaction's (Kysely holds it until COMMIT), so a
 * statement run on it directly runs in the transaction, without the promise chain Kysely builds around
 * every query (about a fifth of the vault write's garbage, for the same SQLite work).
 */
const directSqlite = new WeakMap<object, DirectSqlite>();

export function registerDirectSqlite(db: Db, source: StatementSource): void {
  directSqlite.set(db.getExecutor().adapter, { source, writers: new Fifo(), held: undefined });
}

/**
 * On SQLite, runs `work` in a transaction whose BEGIN IMMEDIATE, COMMIT and ROLLBACK are cached statements
 * run on the connection, which Kysely lends from BEGIN to COMMIT (`db.connection()`: no other query of this
 * process runs meanwhile, as with `db.transaction()`; while another process holds the write lock it is
 * given back between tries, see lockedTransaction). `work` gets that connection's handle,
 * on which runStatement runs directly. Kysely's `db.transaction()` made a transaction object, an executor
 * and two compiled queries per call, and the sampling heap profile showed most of them outliving the
 * young generation (about 0.5 KB a proxied request, one vault write each). Undefined on PostgreSQL.
 */
export function sqliteTransactions(db: Db): (<T>(work: (trx: Db) => Promise<T>) => Promise<T>) | undefined {
  const found = directSqlite.get(db.getExecutor().adapter);
  if (!found) return undefined;
  const direct: DirectSqlite = found;
  const { source, writers } = direct;
  return async <T>(work: (trx: Db) => Promise<T>): Promise<T> => {
    // One writer of this process at a time tries for the lock, in arrival order: each polling on its own,
    // hundreds of waiting requests (detection events of a flood) kept the event loop busy with retries,
    // and a newcomer could overtake one that had waited for seconds.
    const release = await writers.acquire();
    try {
      return await lockedTransaction(work);
    } finally {
      release();
    }
  };

  async function lockedTransaction<T>(work: (trx: Db) => Promise<T>): Promise<T> {
    // The wait counts from the first refusal: time spent behind this process's own queries is not
    // another process's lock.
    let since = 0;
    for (let attempt = 0; ; attempt++) {
      const outcome = await db.connection().execute(async (conn): Promise<{ value: T } | typeof LOCKED> => {
        // Another process (PARAPET_HTTP_WORKERS, `parapet worker`) writing the same file holds the lock:
        // wait for it with the event loop free, not in SQLite's busy handler, which sleeps the thread.
        // Under two API processes at 500 requests/s that sleep took 0.6 s of every 8 (up to 72 ms at a
        // time) from each process's requests. The connection goes back meanwhile, for this process's reads.
        if (!source.tryBegin()) return LOCKED;
        direct.held = conn;
        try {
          const value = await work(conn);
          source.prepare('commit').run([]);
          return { value };
        } catch (err) {
          // A failed COMMIT (a busy database) leaves the transaction open, as a failed statement does.
          if (source.inTransaction()) source.prepare('rollback').run([]);
          throw err;
        } finally {
          direct.held = undefined;
        }
      });
      if (outcome !== LOCKED) return outcome.value;
      if (attempt === 0) since = performance.now();
      else if (performance.now() - since >= lockWaitMs) throw busyError();
      await lockRetryDelay(attempt);
    }
  }
}

/** A first-come, first-served lock within one process: `acquire` resolves to its release. */
class Fifo {
  private tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const turn = new Promise<void>((resolve) => {
      release = resolve;
    });
    const before = this.tail;
    this.tail = before.then(() => turn);
    return before.then(() => release);
  }
}

const LOCKED = Symbol('locked');

/**
 * A runner of write transactions for code that writes on the request path: on SQLite, sqliteTransactions
 * (the write lock of another process is waited for with the event loop free); on PostgreSQL, Kysely's.
 */
export function writeTransactions(db: Db): <T>(work: (trx: Db) => Promise<T>) => Promise<T> {
  return sqliteTransactions(db) ?? (<T>(work: (trx: Db) => Promise<T>) => db.transaction().execute(work));
}

/** How long a statement waits for a lock another process holds before failing with SQLITE_BUSY. */
export const SQLITE_BUSY_TIMEOUT_MS = 5_000;

/** A transaction waits for another process's write lock as long as SQLite's own busy timeout would. */
let lockWaitMs = SQLITE_BUSY_TIMEOUT_MS;

/** Tests: how long a transaction waits for another process's write lock before failing. */
export function setSqliteLockWaitForTests(ms: number): void {
  lockWaitMs = ms;
}

/** The error SQLite gives when its busy timeout runs out, with the same code (callers check it). */
function busyError(): Error {
  return Object.assign(new Error('database is locked (another process held the write lock too long)'), {
    code: 'SQLITE_BUSY',
  });
}

/**
 * The first retry comes after the I/O of this turn of the loop (another process's transaction is most often
 * done by then), later ones after 1 to 4 ms: short enough not to leave the lock idle for long, and the
 * requests that arrive meanwhile join the next batch of the group commit.
 */
function lockRetryDelay(attempt: number): Promise<void> {
  return new Promise((resolve) => {
    if (attempt === 0) setImmediate(resolve);
    else setTimeout(resolve, Math.min(attempt, 4));
  });
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
