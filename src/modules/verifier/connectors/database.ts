import { stat } from 'node:fs/promises';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { identity, LocalFileProblem, type OwnData, openLocalFile } from './local-file.js';
import { rowSentence } from './rows.js';
import {
  type ConnectorDeps,
  type ConnectorResult,
  type FetchedDocument,
  SourceError,
  type SourceTarget,
} from './types.js';

type Row = Record<string, unknown>;

/** One read: the rows of a table (with its primary key columns) or of a query (with its key column). */
interface Reader {
  primaryKey(table: string): Promise<string[]>;
  rows(sql: string): Promise<Row[]>;
  quote(identifier: string): string;
  close(): Promise<void>;
}

export function databaseKind(url: string): 'postgres' | 'mysql' | 'sqlite' | null {
  if (/^postgres(ql)?:\/\//i.test(url)) return 'postgres';
  if (/^(mysql|mariadb):\/\//i.test(url)) return 'mysql';
  if (/^sqlite:/i.test(url)) return 'sqlite';
  return null;
}

/** The connection string as listings show it: the password (and query options) removed. */
export function redactConnection(url: string): string {
  if (databaseKind(url) === 'sqlite') return url;
  try {
    const u = new URL(url);
    u.password = '';
    u.search = '';
    return u.toString();
  } catch {
    return '(unparsable connection string)';
  }
}

const quoteWith = (q: string) => (identifier: string) =>
  identifier
    .split('.')
    .map((p) => `${q}${p.replaceAll(q, q + q)}${q}`)
    .join('.');

async function openPostgres(url: string): Promise<Reader> {
  const client = new pg.Client({ connectionString: url, statement_timeout: 60_000 });
  await client.connect();
  // Every statement runs in a read-only transaction: a query given as a source can never write.
  await client.query('BEGIN TRANSACTION READ ONLY');
  return {
    quote: quoteWith('"'),
    async primaryKey(table) {
      const r = await client.query<{ attname: string }>(
        `SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
         WHERE i.indrelid = $1::regclass AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)`,
        [quoteWith('"')(table)],
      );
      return r.rows.map((x) => x.attname);
    },
    async rows(sql) {
      // The extended protocol takes one statement only. A plain query string may hold several, and a source
      // query "SELECT …; COMMIT; DELETE …; SELECT 1" ended the read-only transaction and then wrote.
      // (`queryMode` is in pg since 8.13; its type definitions do not list it yet.)
      const extended = { text: sql, queryMode: 'extended' } as pg.QueryConfig;
      try {
        return (await client.query(extended)).rows as Row[];
      } catch (err) {
        if (/multiple commands/.test((err as Error).message))
          throw new Error('a query must be one statement (no ";" between statements)');
        throw err;
      }
    },
    async close() {
      await client.query('ROLLBACK').catch(() => {});
      await client.end();
    },
  };
}

async function openMysql(url: string): Promise<Reader> {
  const mysql = await import('mysql2/promise');
  // `-MULTI_STATEMENTS` wins over the connection string: mysql2 reads options from the URL's query string,
  // and `?multipleStatements=true` there would let "SELECT …; COMMIT; DELETE …" end the read-only
  // transaction and write (an explicit `multipleStatements: false` does not override the URL's true).
  const conn = await mysql.createConnection({
    uri: url.replace(/^mariadb:/i, 'mysql:'),
    dateStrings: true,
    flags: ['-MULTI_STATEMENTS'],
  });
  await conn.query('START TRANSACTION READ ONLY');
  return {
    quote: quoteWith('`'),
    async primaryKey(table) {
      const [schema, name] = table.includes('.') ? table.split('.', 2) : [null, table];
      const [rows] = await conn.query(
        `SELECT COLUMN_NAME AS c FROM information_schema.KEY_COLUMN_USAGE
         WHERE CONSTRAINT_NAME = 'PRIMARY' AND TABLE_NAME = ? AND TABLE_SCHEMA = COALESCE(?, DATABASE())
         ORDER BY ORDINAL_POSITION`,
        [name, schema],
      );
      return (rows as Array<{ c: string }>).map((r) => r.c);
    },
    async rows(sql) {
      const [rows] = await conn.query(sql);
      return rows as Row[];
    },
    async close() {
      await conn.query('ROLLBACK').catch(() => {});
      await conn.end();
    },
  };
}

/**
 * A SQLite file, judged as a file source is (never the verifier's data folder or store, links resolved):
 * SQLite opens the path the judged handle was opened through, and the file found there afterwards must be
 * the judged one, so a link pointed at the store meanwhile is refused.
 */
async function openSqlite(url: string, own: OwnData): Promise<Reader> {
  const file = url.replace(/^sqlite:(\/\/)?/i, '');
  let judged: Awaited<ReturnType<typeof openLocalFile>>;
  try {
    judged = await openLocalFile(file, own);
  } catch (err) {
    if (err instanceof LocalFileProblem) throw new SourceError(`${file} ${err.message}`);
    throw err;
  }
  let db: BetterSqlite3.Database;
  try {
    db = new BetterSqlite3(judged.real, { readonly: true, fileMustExist: true });
    const now = await stat(judged.real).catch(() => null);
    if (now === null || identity(now) !== identity(judged.opened)) {
      db.close();
      throw new SourceError(`${file} changed while it was being opened (a link was replaced); try again`);
    }
  } finally {
    await judged.handle.close();
  }
  return {
    quote: quoteWith('"'),
    async primaryKey(table) {
      const cols = db.prepare(`PRAGMA table_info(${quoteWith('"')(table)})`).all() as Array<{
        name: string;
        pk: number;
      }>;
      return cols
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name);
    },
    async rows(sql) {
      return db.prepare(sql).all() as Row[];
    },
    async close() {
      db.close();
    },
  };
}

async function open(url: string, own: OwnData): Promise<Reader> {
  const kind = databaseKind(url);
  try {
    if (kind === 'postgres') return await openPostgres(url);
    if (kind === 'mysql') return await openMysql(url);
    if (kind === 'sqlite') return await openSqlite(url, own);
  } catch (err) {
    if (err instanceof SourceError) throw err;
    throw new SourceError(`cannot connect to the database: ${(err as Error).message}`);
  }
  throw new SourceError('the connection string must start with postgres://, mysql://, mariadb:// or sqlite:');
}

const READ_ONLY_QUERY = /^\s*(select|with)\b/i;

/**
 * Whether the query holds a ";" before its end outside quoted text (string literals, quoted names). The
 * statement goes inside a derived table, where a second statement would only give a syntax error; saying
 * why is clearer. A ";" inside a comment is refused too (over-cautious, with the same clear reason).
 */
function severalStatements(sql: string): boolean {
  const unquoted = sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|`(?:[^`]|``)*`/g, "''");
  return /;\s*\S/.test(unquoted);
}

/**
 * The source's SELECT as a derived table with the row limit outside it. Appending " LIMIT n" to the text
 * let a trailing "-- " comment swallow the limit (every row loaded into memory) and, on MySQL/MariaDB,
 * keep "INTO OUTFILE" / "INTO DUMPFILE" working; inside a derived table both are refused by the database.
 * The line break before the closing parenthesis ends such a comment.
 */
function bounded(sql: string, limit: number): string {
  return `SELECT * FROM (\n${sql.replace(/;\s*$/, '')}\n) AS parapet_source LIMIT ${limit}`;
}

/**
 * A database, read only: each listed table row by row (cited by its primary key), or the rows of one
 * SELECT (cited by `keyColumn`). Each row is one passage.
 */
export async function readDatabase(target: SourceTarget, deps: ConnectorDeps): Promise<ConnectorResult> {
  if (!target.tables?.length && !target.query)
    throw new SourceError('a database source needs tables or a query');
  if (target.query && !READ_ONLY_QUERY.test(target.query))
    throw new SourceError('the query must be a SELECT');
  if (target.query && !target.keyColumn)
    throw new SourceError('a query needs keyColumn, the column a passage cites');
  if (target.query && severalStatements(target.query))
    throw new SourceError('a query must be one statement (no ";" between statements)');
  const reader = await open(target.url, deps.own);
  const documents: FetchedDocument[] = [];
  const skipped: ConnectorResult['skipped'] = [];
  try {
    const jobs = target.query
      ? [{ label: 'query', sql: target.query, key: [target.keyColumn!] }]
      : await Promise.all(
          (target.tables ?? []).map(async (t) => {
            const key = await reader.primaryKey(t).catch((err: Error) => {
              throw new SourceError(`table ${t}: ${err.message}`);
            });
            return { label: t, sql: `SELECT * FROM ${reader.quote(t)}`, key };
          }),
        );
    for (const job of jobs) {
      let rows: Row[];
      try {
        rows = await reader.rows(bounded(job.sql, deps.maxRows + 1));
      } catch (err) {
        throw new SourceError(`${job.label}: ${(err as Error).message}`);
      }
      if (rows.length > deps.maxRows)
        skipped.push({ what: job.label, reason: `more than ${deps.maxRows} rows` });
      rows.slice(0, deps.maxRows).forEach((row, i) => {
        const key =
          job.key.length > 0 ? job.key.map((k) => `${k}=${String(row[k])}`).join(',') : `row=${i + 1}`;
        const passage = rowSentence(
          `${job.label} ${job.key.map((k) => String(row[k])).join(' ') || i + 1}`,
          Object.entries(row),
        );
        documents.push({ citation: `${job.label}#${key}`, title: null, text: passage, passages: [passage] });
      });
    }
  } finally {
    await reader.close();
  }
  return { documents, unchanged: [], skipped };
}
