import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('hallucination_corrections')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('org_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('original_claim', 'text', (c) => c.notNull())
    .addColumn('corrected_claim', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('created_by_key', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  // Listing pages newest first and loading an organization's set both walk this index.
  await db.schema
    .createIndex('hallucination_corrections_org')
    .on('hallucination_corrections')
    .columns(['org_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('hallucination_corrections').ifExists().execute();
}
