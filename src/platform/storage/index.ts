import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, type Migration, type MigrationProvider, Migrator, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { ConfigError } from '../config/index.js';
import { type Checkpointer, startCheckpointer } from './checkpointer.js';
import { MIGRATIONS } from './migrations/index.js';
import { SchemaScopedPostgresDialect } from './schema-scoped-dialect.js';
import { registerDirectSqlite, SQLITE_BUSY_TIMEOUT_MS } from './raw.js';
import type { Database } from './tables.js';

export type { Database } from './tables.js';
export type * from './tables.js';
export type Db = Kysely<Database>;
export type { VerifierDatabase } from './tables-verifier.js';
export { VERIFIER_MIGRATIONS } from './verifier-migrations/index.js';
export type DialectName = 'sqlite' | 'postgres';

// COUNT(*) and bigint columns arrive as strings from node-postgres; our counters fit a double exactly.
pg.types.setTypeParser(20, (v: string) => Number(v));

export interface StorageOptions {
  databaseUrl?: string | undefined;
  schema?: string;
  sqliteFile?: string;
  /**
   * SQLite file: WAL checkpoints in a background thread instead of in commits. For the processes that
   * serve (API, worker); a CLI command that runs a few statements is better off without the thread.
   */
  backgroundCheckpoints?: boolean;
  /**
   * Another process's own migration list and bookkeeping tables (the verification server keeps its own
   * store); the API server's list by default.
   */
  migrations?: { list: Record<string, Migration>; table: string; lockTable: string };
}

export interface Storage {
  db: Db;
  dialect: DialectName;
  migrate(): Promise<string[]>;
  ping(): Promise<boolean>;
  /**
   * Runs `fn` while holding the lock named `name`, waiting for it first: one holder at a time among the
   * processes on one PostgreSQL schema (an advisory lock on a connection of its own, released when that
   * connection ends, so a process that dies holding it frees it), and among the callers in this process on
   * an SQLite file. For one-off work that several processes started together must not do twice (the
   * first-start bootstrap).
   */
  exclusive<T>(name: string, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** SQLite: the holders of each lock in this process, by file and name (a chain of promises). */
const localLocks = new Map<string, Promise<unknown>>();

async function exclusiveLocally<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const before = localLocks.get(key) ?? Promise.resolve();
  const run = before.then(fn, fn);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  localLocks.set(key, settled);
  try {
    return await run;
  } finally {
    if (localLocks.get(key) === settled) localLocks.delete(key);
  }
}

class StaticMigrations implements MigrationProvider {
  constructor(private readonly list: Record<string, Migration>) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return this.list;
  }
}

/**
 * The embedded database file in the data folder, with the folder made 0700 and the database 0600 (its
 * -wal and -shm files too, when they exist; SQLite creates new ones with the database's mode). Modes of an
 * existing folder and files are tightened at every start: mkdir's mode is filtered by the umask and does
 * not touch a folder that exists, and SQLite would create the file world-readable under a 022 umask.
 */
export function sqliteFileIn(dataDir: string, name = 'parapet.db'): string {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  const file = join(dataDir, name);
  // An empty file is an empty database: creating it here gives it its mode before SQLite opens it.
  if (!existsSync(file)) writeFileSync(file, '', { mode: 0o600, flag: 'wx' });
  for (const f of [file, `${file}-wal`, `${file}-shm`]) restrictFile(f);
  return file;
}

/** Owner-only access to a file of the data folder (database, WAL, master key), when it exists. */
export function restrictFile(file: string): void {
  if (existsSync(file)) chmodSync(file, 0o600);
}

/**
 * How long opening a PostgreSQL connection may take. node-postgres waits forever by default: a DATABASE_URL
 * naming a port that accepts and never answers (a wrong port, a dropped route) held the start, and every
 * request that needed a new connection, without a word.
 */
const PG_CONNECT_TIMEOUT_MS = 10_000;

/** SQLSTATE classes and socket errors that mean "this database cannot be reached or used as configured". */
const PG_CONNECTION_CODES =
  /^(08|28|3D|57P0[1-3])|^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH)$/;

/** Where a PostgreSQL URL points (host:port/database), for messages: never its user or password. */
export function postgresAddress(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/**
 * A failure to reach or log in to PostgreSQL, as a ConfigError naming DATABASE_URL and where it points
 * (never the password); any other error (a migration's, SQLite's) is returned as it is.
 */
export function namedStorageFailure(err: unknown, databaseUrl: string | undefined): unknown {
  if (!databaseUrl) return err;
  const e = err as { code?: unknown; message?: unknown };
  const message = typeof e.message === 'string' ? e.message : String(err);
  const unreachable = /timeout exceeded when trying to connect|^timeout expired$|Connection terminated/i.test(
    message,
  );
  if (!unreachable && !(typeof e.code === 'string' && PG_CONNECTION_CODES.test(e.code))) return err;
  return new ConfigError(
    `cannot use the PostgreSQL database of DATABASE_URL (${postgresAddress(databaseUrl)}): ${message}`,
    { cause: err },
  );
}

export async function openStorage(options: StorageOptions): Promise<Storage> {
  let db: Db;
  let dialect: DialectName;
  let migrationSchema: string | undefined;
  let checkpointer: Checkpointer | null = null;
  if (options.databaseUrl) {
    dialect = 'postgres';
    const schema = options.schema ?? 'public';
    migrationSchema = schema;
    if (schema !== 'public') {
      // The schema must exist before a pooled connection can put it on its search_path.
      const admin = new pg.Client({
        connectionString: options.databaseUrl,
        connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
      });
      await admin.connect();
      try {
        await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      } catch (err) {
        // IF NOT EXISTS is not atomic: replicas started together on a new schema fail with a unique
        // violation on pg_namespace (or duplicate_schema) for every one but the first. The schema exists.
        const code = (err as { code?: unknown }).code;
        if (code !== '23505' && code !== '42P06') throw err;
      } finally {
        await admin.end();
      }
    }
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
      max: 10,
      // The schema name was validated as a plain lower-case identifier, so it needs no quoting here.
      options: schema === 'public' ? undefined : `-c search_path=${schema}`,
    });
    db = new Kysely<Database>({ dialect: new SchemaScopedPostgresDialect({ pool }, schema) });
  } else {
    dialect = 'sqlite';
    const file = options.sqliteFile ?? ':memory:';
    const sqlite = new BetterSqlite3(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    if (options.backgroundCheckpoints && file !== ':memory:') {
      sqlite.pragma('wal_autocheckpoint = 0');
      checkpointer = startCheckpointer(file, {
        // Without the thread the WAL would grow without bound: SQLite checkpoints in commits again.
        onFailure: () => sqlite.pragma('wal_autocheckpoint = 1000'),
      });
    }
    const statements = withStatementCache(sqlite);
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }) });
    registerDirectSqlite(db, statements);
  }

  return {
    db,
    dialect,
    async migrate() {
      const migrator = new Migrator({
        db,
        provider: new StaticMigrations(options.migrations?.list ?? MIGRATIONS),
        // Features land in parallel with numbered migrations of their own; a database that already ran a
        // later number must still accept an earlier one that arrived afterwards.
        allowUnorderedMigrations: true,
        ...(options.migrations
          ? {
              migrationTableName: options.migrations.table,
              migrationLockTableName: options.migrations.lockTable,
            }
          : {}),
        ...(migrationSchema ? { migrationTableSchema: migrationSchema } : {}),
      });
      const { error, results } = await migrator.migrateToLatest();
      if (error) throw error instanceof Error ? error : new Error(String(error));
      return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    },
    async ping() {
      try {
        await sql`select 1`.execute(db);
        return true;
      } catch {
        return false;
      }
    },
    async exclusive<T>(name: string, fn: () => Promise<T>): Promise<T> {
      if (!options.databaseUrl) return exclusiveLocally(`${options.sqliteFile ?? ':memory:'}\0${name}`, fn);
      // A client of its own, not one of the pool's: the lock belongs to the session, and fn's queries must
      // not wait for the connection that holds it.
      const client = new pg.Client({
        connectionString: options.databaseUrl,
        connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
      });
      await client.connect();
      try {
        const key = `${migrationSchema ?? 'public'}:${name}`;
        await client.query('SELECT pg_advisory_lock(hashtext($1))', [key]);
        return await fn();
      } finally {
        // Ending the session releases the lock.
        await client.end();
      }
    },
    async close() {
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

const STATEMENT_CACHE = 500;

/**
 * Kysely prepares every query anew; preparing costs more than running on SQLite. Statements are reused by
 * their SQL text (parameters are bound per call), and the least recently used ones are dropped.
 */
function withStatementCache(sqlite: BetterSqlite3.Database) {
  const cache = new Map<string, BetterSqlite3.Statement>();
  const beginNow = sqlite.prepare('begin immediate');
  return {
    close: () => sqlite.close(),
    inTransaction: () => sqlite.inTransaction,
    tryBegin() {
      // SQLite waits for a lock by sleeping in the calling thread (1, 2, 5, 10… ms): the whole event loop
      // of this process. Asked not to wait, it answers SQLITE_BUSY at once and the caller retries later.
      // exec, not a prepared statement: SQLite applies a busy_timeout pragma when it is prepared, so a
      // statement prepared once would set it on its first run only by luck.
      sqlite.exec('pragma busy_timeout = 0');
      try {
        beginNow.run();
        return true;
      } catch (err) {
        // SQLITE_BUSY and its extended codes (SQLITE_BUSY_RECOVERY while another connection recovers the
        // WAL, SQLITE_BUSY_SNAPSHOT): the busy handler retried those too.
        if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY')) return false;
        throw err;
      } finally {
        sqlite.exec(`pragma busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
      }
    },
    prepare(text: string) {
      // Several processes may share the file (`parapet worker`, PARAPET_HTTP_WORKERS). A deferred BEGIN
      // that reads, then writes after another process committed fails at once with SQLITE_BUSY instead of
      // waiting; taking the write lock up front makes it wait its turn (busy_timeout).
      const sqlText = text === 'begin' ? 'begin immediate' : text;
      let stmt = cache.get(sqlText);
      if (stmt) {
        // Moved to the end (most recently used) only once the cache is half full, when an eviction could
        // come: a delete and a set per statement, about ten per proxied request, made the map rebuild its
        // table every few requests, and those tables were promoted to the old generation.
        if (cache.size < STATEMENT_CACHE / 2) return stmt;
        cache.delete(sqlText);
      } else {
        stmt = sqlite.prepare(sqlText);
        if (cache.size >= STATEMENT_CACHE) cache.delete(cache.keys().next().value as string);
      }
      cache.set(sqlText, stmt);
      return stmt;
    },
  };
}

/** A unique-constraint violation on either dialect, so callers can answer 409 instead of 500. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string };
  return (
    e?.code === '23505' ||
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

export { statementChunks } from './chunks.js';
export { foldName } from './fold.js';
export { createGroupCommit } from './group-commit.js';
export type { GroupCommit, GroupCommitOptions } from './group-commit.js';
export {
  runStatement,
  SQLITE_BUSY_TIMEOUT_MS,
  setSqliteLockWaitForTests,
  sqliteTransactions,
  valuesList,
  writeTransactions,
} from './raw.js';
