import { sql } from 'kysely';
import { type Db, statementChunks } from '../../platform/storage/index.js';

export interface UsageDelta {
  requests: number;
  blocked: number;
  warned: number;
  scoreSum: number;
  scored: number;
}

export interface UsageDayDelta {
  orgId: string;
  product: string;
  /** YYYY-MM-DD (UTC) */
  day: string;
  requests: number;
  blocked: number;
}

export function createLimitsRepo(db: Db) {
  return {
    /** Adds a flush's daily figures, one multi-row statement per chunk (a flush holds a row per org, product and day). */
    async addDays(rows: readonly UsageDayDelta[]): Promise<void> {
      if (rows.length === 0) return;
      // One transaction: a failed flush is retried whole, so it must not have written part of itself.
      await db.transaction().execute(async (trx) => {
        let at = 0;
        for (const size of statementChunks(rows.length, 64)) {
          const chunk = rows.slice(at, at + size);
          at += size;
          await trx
            .insertInto('usage_days')
            .values(
              chunk.map((r) => ({
                org_id: r.orgId,
                product: r.product,
                day: r.day,
                requests: r.requests,
                blocked: r.blocked,
              })),
            )
            .onConflict((oc) =>
              oc.columns(['org_id', 'product', 'day']).doUpdateSet({
                requests: sql`usage_days.requests + excluded.requests`,
                blocked: sql`usage_days.blocked + excluded.blocked`,
              }),
            )
            .execute();
        }
      });
    },
    async add(orgId: string, product: string, period: string, d: UsageDelta): Promise<void> {
      await db
        .insertInto('usage')
        .values({
          org_id: orgId,
          product,
          period,
          requests: d.requests,
          blocked: d.blocked,
          warned: d.warned,
          score_sum: d.scoreSum,
          scored: d.scored,
        })
        .onConflict((oc) =>
          oc.columns(['org_id', 'product', 'period']).doUpdateSet({
            requests: sql`usage.requests + excluded.requests`,
            blocked: sql`usage.blocked + excluded.blocked`,
            warned: sql`usage.warned + excluded.warned`,
            score_sum: sql`usage.score_sum + excluded.score_sum`,
            scored: sql`usage.scored + excluded.scored`,
          }),
        )
        .execute();
    },
    async get(orgId: string, product: string, period: string) {
      return db
        .selectFrom('usage')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('product', '=', product)
        .where('period', '=', period)
        .executeTakeFirst();
    },
  };
}
