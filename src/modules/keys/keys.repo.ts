import type { ApiKeysTable, Db } from '../../platform/storage/index.js';

export type KeyRow = ApiKeysTable;

export function createKeysRepo(db: Db) {
  return {
    async insert(row: KeyRow): Promise<void> {
      await db.insertInto('api_keys').values(row).execute();
    },
    async findByHash(hash: string): Promise<KeyRow | undefined> {
      return db.selectFrom('api_keys').selectAll().where('hash', '=', hash).executeTakeFirst();
    },
    async get(orgId: string, id: string): Promise<KeyRow | undefined> {
      return db
        .selectFrom('api_keys')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    async list(orgId: string): Promise<KeyRow[]> {
      return db
        .selectFrom('api_keys')
        .selectAll()
        .where('org_id', '=', orgId)
        .orderBy('created_at', 'desc')
        .execute();
    },
    async revoke(orgId: string, id: string, at: string): Promise<boolean> {
      const r = await db
        .updateTable('api_keys')
        .set({ revoked_at: at })
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    /** The active admin-scope keys a user created (revoked when the user stops being a manager). */
    async activeAdminKeysBy(orgId: string, userId: string): Promise<KeyRow[]> {
      return db
        .selectFrom('api_keys')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('created_by', '=', userId)
        .where('scope', '=', 'admin')
        .where('revoked_at', 'is', null)
        .execute();
    },
    async touch(id: string, at: string): Promise<void> {
      await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
    },
  };
}
