import type {
  Db,
  GatewayConversationsTable,
  GatewayForceTable,
  GatewayProviderKeysTable,
  GatewayUsageTable,
} from '../../platform/storage/index.js';

export type ConversationRow = GatewayConversationsTable;
export type ProviderKeyRow = GatewayProviderKeysTable;
export type ForceRow = GatewayForceTable;
export type UsageRow = GatewayUsageTable;

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
      if (rows.length === 0) return;
      await db.insertInto('gateway_usage').values(rows).execute();
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
