import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('gateway_conversations')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('org_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('vault_session_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('messages', 'text', (c) => c.notNull())
    .addColumn('model', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('gateway_conversations_org')
    .on('gateway_conversations')
    .columns(['org_id', 'updated_at'])
    .execute();

  await db.schema
    .createTable('gateway_provider_keys')
    .addColumn('org_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('provider', 'varchar(32)', (c) => c.notNull())
    .addColumn('key_sealed', 'text', (c) => c.notNull())
    .addColumn('key_hint', 'varchar(16)', (c) => c.notNull())
    .addColumn('base_url', 'text')
    .addColumn('updated_by', 'varchar(64)')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('gateway_provider_keys_pk', ['org_id', 'provider'])
    .execute();

  await db.schema
    .createTable('gateway_force')
    .addColumn('org_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('enabled_at', 'varchar(32)')
    .addColumn('enabled_by', 'varchar(64)')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('gateway_usage')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('org_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('endpoint', 'varchar(16)', (c) => c.notNull())
    .addColumn('provider', 'varchar(32)', (c) => c.notNull())
    .addColumn('model', 'varchar(200)', (c) => c.notNull())
    .addColumn('prompt_tokens', 'integer', (c) => c.notNull())
    .addColumn('completion_tokens', 'integer', (c) => c.notNull())
    .addColumn('cost', 'double precision', (c) => c.notNull())
    .addColumn('usage_source', 'varchar(16)', (c) => c.notNull())
    .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
    .addColumn('conversation_id', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('gateway_usage_org')
    .on('gateway_usage')
    .columns(['org_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('gateway_usage').ifExists().execute();
  await db.schema.dropTable('gateway_force').ifExists().execute();
  await db.schema.dropTable('gateway_provider_keys').ifExists().execute();
  await db.schema.dropTable('gateway_conversations').ifExists().execute();
}
