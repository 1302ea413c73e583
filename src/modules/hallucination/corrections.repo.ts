import type { Db, HallucinationCorrectionsTable } from '../../platform/storage/index.js';

export type CorrectionRow = HallucinationCorrectionsTable;

export function createCorrectionsRepo(db: Db) {
  return {
    async insert(row: CorrectionRow): Promise<void> {
      await db.insertInto('hallucination_corrections').values(row).execute();
    },

    async count(orgId: string): Promise<number> {
      const r = await db
        .selectFrom('hallucination_corrections')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('org_id', '=', orgId)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },

    /** Every correction of the organization, oldest first, bounded by the per-organization cap. */
    async all(orgId: string, limit: number): Promise<CorrectionRow[]> {
      return db
        .selectFrom('hallucination_corrections')
        .selectAll()
        .where('org_id', '=', orgId)
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .limit(limit)
        .execute();
    },

    /** One page, newest first. */
    async page(orgId: string, page: number, perPage: number): Promise<CorrectionRow[]> {
      return db
        .selectFrom('hallucination_corrections')
        .selectAll()
        .where('org_id', '=', orgId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute();
    },

    async remove(orgId: string, id: string): Promise<boolean> {
      const r = await db
        .deleteFrom('hallucination_corrections')
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}

export type CorrectionsRepo = ReturnType<typeof createCorrectionsRepo>;
