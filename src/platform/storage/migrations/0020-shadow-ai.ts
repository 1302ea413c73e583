import type { Kysely } from 'kysely';

const TIME = 'varchar(32)';
const ID = 'varchar(64)';

/** Shadow-AI radar: discovered services, their daily usage, report ids (idempotence), catalog decisions. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('shadow_ai_services')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('org_id', ID, (c) => c.notNull())
    .addColumn('domain', 'varchar(253)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('catalog_id', ID)
    .addColumn('category', 'varchar(32)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('risk_level', 'varchar(16)', (c) => c.notNull())
    .addColumn('detected_by', 'varchar(16)', (c) => c.notNull())
    .addColumn('heuristic_signals', 'text', (c) => c.notNull())
    .addColumn('usage_count', 'bigint', (c) => c.notNull())
    .addColumn('first_seen', TIME, (c) => c.notNull())
    .addColumn('last_seen', TIME, (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('shadow_ai_services_domain')
    .on('shadow_ai_services')
    .columns(['org_id', 'domain'])
    .unique()
    .execute();
  // The FREE plan shows the first services by creation; lists page newest-seen first.
  await db.schema
    .createIndex('shadow_ai_services_created')
    .on('shadow_ai_services')
    .columns(['org_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('shadow_ai_usage')
    .addColumn('org_id', ID, (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('service_id', ID, (c) => c.notNull())
    .addColumn('user_key', 'varchar(100)', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('shadow_ai_usage_pk', ['org_id', 'day', 'service_id', 'user_key'])
    .execute();

  await db.schema
    .createTable('shadow_ai_reports')
    .addColumn('org_id', ID, (c) => c.notNull())
    .addColumn('device_id', ID, (c) => c.notNull())
    .addColumn('report_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('received_at', TIME, (c) => c.notNull())
    .addPrimaryKeyConstraint('shadow_ai_reports_pk', ['org_id', 'device_id', 'report_id'])
    .execute();
  await db.schema
    .createIndex('shadow_ai_reports_received')
    .on('shadow_ai_reports')
    .column('received_at')
    .execute();

  // An organization's catalog rows: a status override of a shipped entry (builtin = 1, id = the entry's
  // id) or an entry of its own (builtin = 0, id cat_…, with its own facts).
  await db.schema
    .createTable('shadow_ai_catalog')
    .addColumn('org_id', ID, (c) => c.notNull())
    .addColumn('id', ID, (c) => c.notNull())
    .addColumn('builtin', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)')
    .addColumn('domains', 'text')
    .addColumn('category', 'varchar(32)')
    .addColumn('data_residency', 'varchar(32)')
    .addColumn('gdpr_status', 'varchar(16)')
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .addPrimaryKeyConstraint('shadow_ai_catalog_pk', ['org_id', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['shadow_ai_catalog', 'shadow_ai_reports', 'shadow_ai_usage', 'shadow_ai_services'])
    await db.schema.dropTable(t).ifExists().execute();
}
