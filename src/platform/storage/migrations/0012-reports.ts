import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('reports')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('org_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull())
    .addColumn('period_from', 'varchar(32)', (c) => c.notNull())
    .addColumn('period_to', 'varchar(32)', (c) => c.notNull())
    .addColumn('requested_by', 'varchar(64)')
    .addColumn('result', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('finished_at', 'varchar(32)')
    .execute();
  // The list pages newest first per organization.
  await db.schema
    .createIndex('reports_org_created')
    .on('reports')
    .columns(['org_id', 'created_at', 'id'])
    .execute();
  // The events they read are found through (org_id, type, created_at, id), which 0013 creates for the
  // dashboard's overview as well.
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('reports').ifExists().execute();
}
