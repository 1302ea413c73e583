import type { Kysely } from 'kysely';

/**
 * Protected-chat conversations remember the dashboard user who started them (docs/gateway.md): a session
 * lists, reads, continues (which rehydrates its tokens in the answer) and erases only its user's own; API
 * keys keep seeing all of the organization's. Null for conversations started with an API key, and for those
 * stored before this migration: they are the organization's, reached with a key only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('gateway_conversations').addColumn('user_id', 'varchar(64)').execute();
  await db.schema
    .createIndex('gateway_conversations_user')
    .on('gateway_conversations')
    .columns(['org_id', 'user_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('gateway_conversations_user').ifExists().execute();
  await db.schema.alterTable('gateway_conversations').dropColumn('user_id').execute();
}
