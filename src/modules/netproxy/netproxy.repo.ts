import type { Db } from '../../platform/storage/index.js';

export interface BatchRow {
  org_id: string;
  batch_id: string;
  session_id: string;
  created_at: string;
}

export function createNetproxyRepo(db: Db) {
  return {
    /**
     * A batch created through the proxy and the session its requests were tokenized into. A second write
     * of the same batch (not one Anthropic makes: its ids are unique) keeps the first.
     */
    async insertBatch(row: BatchRow): Promise<void> {
      await db
        .insertInto('netproxy_batches')
        .values(row)
        .onConflict((oc) => oc.columns(['org_id', 'batch_id']).doNothing())
        .execute();
    },
    /** The organization's own record of the batch: another organization's never answers. */
    async batchSession(orgId: string, batchId: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('netproxy_batches')
        .select('session_id')
        .where('org_id', '=', orgId)
        .where('batch_id', '=', batchId)
        .executeTakeFirst();
      return row?.session_id;
    },
  };
}
