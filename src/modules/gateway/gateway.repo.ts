import {
  type Db,
  type GatewayConversationsTable,
  type GatewayForceTable,
  type GatewayProviderKeysTable,
  type GatewayUsageTable,
  runStatement,
  statementChunks,
  valuesList,
} from '../../platform/storage/index.js';

export type ConversationRow = GatewayConversationsTable;
export type ProviderKeyRow = GatewayProviderKeysTable;
export type ForceRow = GatewayForceTable;
export type UsageRow = GatewayUsageTable;

/** Rows of one usage insert statement at most (12 parameters each: 768, under every driver's limit). */
const USAGE_CHUNK_ROWS = 64;

export function createGatewayRepo(db: Db) {
  return {
    async conversation(orgId: string, id: string): Promise<ConversationRow | undefined> {
      return db
        .selectFrom('gateway_conversations')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    async insertConversation(row: ConversationRow): Promise<void> {
      await db.insertInto('gateway_conversations').values(row).execute();
    },
    async updateConversation(
      orgId: string,
      id: string,
      set: { messages: string; model: string; updated_at: string },
    ): Promise<void> {
      await db
        .updateTable('gateway_conversations')
        .set(set)
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .execute();
    },

    async providerKeys(orgId: string): Promise<ProviderKeyRow[]> {
      return db
        .selectFrom('gateway_provider_keys')
        .selectAll()
        .where('org_id', '=', orgId)
        .orderBy('provider')
        .execute();
    },
    async upsertProviderKey(row: ProviderKeyRow): Promise<void> {
      await db
        .insertInto('gateway_provider_keys')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['org_id', 'provider']).doUpdateSet({
            key_sealed: row.key_sealed,
            key_hint: row.key_hint,
            base_url: row.base_url,
            updated_by: row.updated_by,
            updated_at: row.updated_at,
          }),
        )
        .execute();
    },
    async deleteProviderKey(orgId: string, provider: string): Promise<boolean> {
      const r = await db
        .deleteFrom('gateway_provider_keys')
        .where('org_id', '=', orgId)
        .where('provider', '=', provider)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    async force(orgId: string): Promise<ForceRow | undefined> {
      return db.selectFrom('gateway_force').selectAll().where('org_id', '=', orgId).executeTakeFirst();
    },
    async upsertForce(row: ForceRow): Promise<void> {
      await db
        .insertInto('gateway_force')
        .values(row)
        .onConflict((oc) =>
          oc.column('org_id').doUpdateSet({
            enabled: row.enabled,
            enabled_at: row.enabled_at,
            enabled_by: row.enabled_by,
            updated_at: row.updated_at,
          }),
        )
        .execute();
    },

    async insertUsage(rows: UsageRow[]): Promise<void> {
      // A statement run as it is (runStatement), as the vault's inserts: every proxied call adds a row, and
      // Kysely's builder and compiler took about 2.5 KB of garbage per row (a 64-row batch is 768 values
      // visited one by one), more than the rest of the recorder. In chunks of a few fixed sizes: the
      // statement texts stay few (they key the statement caches).
      let at = 0;
      for (const size of statementChunks(rows.length, USAGE_CHUNK_ROWS)) {
        const params: unknown[] = [];
        for (let i = at; i < at + size; i++) {
          const r = rows[i] as UsageRow;
          params.push(
            r.id,
            r.org_id,
            r.endpoint,
            r.provider,
            r.model,
            r.prompt_tokens,
            r.completion_tokens,
            r.cost,
            r.usage_source,
            r.outcome,
            r.conversation_id,
            r.created_at,
          );
        }
        at += size;
        await runStatement(
          db,
          `insert into gateway_usage (id, org_id, endpoint, provider, model, prompt_tokens, completion_tokens, cost, usage_source, outcome, conversation_id, created_at) values ${valuesList(size, 12)}`,
          params,
        );
      }
    },
    async usage(orgId: string, limit = 100): Promise<UsageRow[]> {
      return db
        .selectFrom('gateway_usage')
        .selectAll()
        .where('org_id', '=', orgId)
        .orderBy('created_at', 'desc')
        .limit(limit)
        .execute();
    },
  };
}

export type GatewayRepo = ReturnType<typeof createGatewayRepo>;
