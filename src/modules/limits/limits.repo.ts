import { sql } from 'kysely';
import type { Db } from '../../platform/storage/index.js';

export interface UsageDelta {
  requests: number;
  blocked: number;
  warned: number;
  scoreSum: number;
  scored: number;
}

export function createLimitsRepo(db: Db) {
  return {
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
