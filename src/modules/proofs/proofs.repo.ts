import type { Db } from '../../platform/storage/index.js';
import type { ProofsTable } from '../../platform/storage/tables-shadow.js';

export type ProofRow = ProofsTable;

/** Proof rows; every method takes the organization first (the retention sweep excepted). */
export function createProofsRepo(db: Db) {
  return {
    async insert(row: ProofRow): Promise<void> {
      await db.insertInto('proofs').values(row).execute();
    },
    /** The organization's stored copy of this content (the unique index of migration 0062), if any. */
    async byContent(orgId: string, sha256: string): Promise<ProofRow | undefined> {
      return db
        .selectFrom('proofs')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('sha256_unique', '=', sha256)
        .executeTakeFirst();
    },
    async get(orgId: string, id: string): Promise<ProofRow | undefined> {
      return db
        .selectFrom('proofs')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    async list(orgId: string, deviceId: string | undefined, page: number, perPage: number) {
      let q = db.selectFrom('proofs').where('org_id', '=', orgId);
      if (deviceId) q = q.where('device_id', '=', deviceId);
      const [rows, total] = await Promise.all([
        q
          .selectAll()
          .orderBy('uploaded_at', 'desc')
          .orderBy('id', 'desc')
          .limit(perPage)
          .offset((page - 1) * perPage)
          .execute(),
        q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst(),
      ]);
      return { rows, total: Number(total?.n ?? 0) };
    },
    async delete(orgId: string, id: string): Promise<boolean> {
      const r = await db
        .deleteFrom('proofs')
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    /** The retention sweep: expired proofs of every organization, oldest first. */
    async expired(now: string, limit: number): Promise<ProofRow[]> {
      return db
        .selectFrom('proofs')
        .selectAll()
        .where('expires_at', '<=', now)
        .orderBy('expires_at')
        .limit(limit)
        .execute();
    },
  };
}
