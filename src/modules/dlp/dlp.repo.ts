import { type Db, runStatement, statementChunks, valuesList } from '../../platform/storage/index.js';

export interface SessionRow {
  id: string;
  org_id: string;
  key_sealed: string;
  created_at: string;
  expires_at: string;
}

export interface TokenRow {
  token: string;
  type: string;
  value_sealed: string;
}

export function createDlpRepo(db: Db) {
  return {
    async getSession(orgId: string, id: string): Promise<SessionRow | undefined> {
      return db
        .selectFrom('dlp_sessions')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    // The two inserts of every tokenization are statements run as they are (runStatement): Kysely's builder
    // and compiler spend more than SQLite spends running them.
    async insertSession(row: SessionRow): Promise<void> {
      await runStatement(
        db,
        'insert into dlp_sessions (id, org_id, key_sealed, created_at, expires_at) values (?, ?, ?, ?, ?)',
        [row.id, row.org_id, row.key_sealed, row.created_at, row.expires_at],
      );
    },
    async extendSession(orgId: string, id: string, expiresAt: string): Promise<void> {
      await db
        .updateTable('dlp_sessions')
        .set({ expires_at: expiresAt })
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .execute();
    },
    async tokens(orgId: string, sessionId: string): Promise<TokenRow[]> {
      return db
        .selectFrom('dlp_tokens')
        .select(['token', 'type', 'value_sealed'])
        .where('org_id', '=', orgId)
        .where('session_id', '=', sessionId)
        .execute();
    },
    async insertTokens(orgId: string, sessionId: string, rows: TokenRow[], at: string): Promise<void> {
      if (rows.length === 0) return;
      // In chunks of a few fixed sizes: the statement texts stay few (they key the statement caches) and a
      // large text's thousands of tokens stay far under the drivers' parameter limits.
      let at0 = 0;
      for (const size of statementChunks(rows.length, 64)) {
        const params: unknown[] = [];
        for (const r of rows.slice(at0, at0 + size))
          params.push(sessionId, orgId, r.token, r.type, r.value_sealed, at);
        at0 += size;
        // The same value always derives the same token, so a concurrent writer's row is the same mapping.
        await runStatement(
          db,
          `insert into dlp_tokens (session_id, org_id, token, type, value_sealed, created_at) values ${valuesList(size, 6)} on conflict (session_id, token) do nothing`,
          params,
        );
      }
    },
    /** Deletes sessions of the organization together with their tokens (the sealed originals). */
    async deleteSessions(orgId: string, ids: string[]): Promise<void> {
      if (ids.length === 0) return;
      await db.deleteFrom('dlp_tokens').where('org_id', '=', orgId).where('session_id', 'in', ids).execute();
      await db.deleteFrom('dlp_sessions').where('org_id', '=', orgId).where('id', 'in', ids).execute();
    },
    async deleteExpired(now: string, limit: number): Promise<number> {
      const ids = (
        await db.selectFrom('dlp_sessions').select('id').where('expires_at', '<=', now).limit(limit).execute()
      ).map((r) => r.id);
      if (ids.length === 0) return 0;
      await db.deleteFrom('dlp_tokens').where('session_id', 'in', ids).execute();
      await db.deleteFrom('dlp_sessions').where('id', 'in', ids).execute();
      return ids.length;
    },
  };
}
