import type { Kysely } from 'kysely';

const TIME = 'varchar(32)';
const ID = 'varchar(64)';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('endpoint_devices')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('org_id', ID, (c) => c.notNull().references('organizations.id'))
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('os', 'varchar(100)')
    .addColumn('browser', 'varchar(100)')
    .addColumn('extension_version', 'varchar(40)')
    .addColumn('group_id', ID)
    .addColumn('user_id', ID)
    .addColumn('enrolled_via', 'varchar(100)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('last_seen_at', TIME)
    .addColumn('revoked_at', TIME)
    .execute();
  await db.schema
    .createIndex('endpoint_devices_org')
    .on('endpoint_devices')
    .columns(['org_id', 'status', 'last_seen_at'])
    .execute();

  await db.schema
    .createTable('device_tokens')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('org_id', ID, (c) => c.notNull())
    .addColumn('device_id', ID, (c) => c.notNull())
    .addColumn('prefix', 'varchar(32)', (c) => c.notNull())
    .addColumn('hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('revoked_at', TIME)
    .execute();
  await db.schema.createIndex('device_tokens_hash').on('device_tokens').column('hash').unique().execute();
  await db.schema
    .createIndex('device_tokens_device')
    .on('device_tokens')
    .columns(['org_id', 'device_id'])
    .execute();

  await db.schema
    .createTable('endpoint_groups')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('org_id', ID, (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('endpoint_group_members')
    .addColumn('org_id', ID, (c) => c.notNull())
    .addColumn('group_id', ID, (c) => c.notNull())
    .addColumn('user_id', ID, (c) => c.notNull())
    .addPrimaryKeyConstraint('endpoint_group_members_pk', ['org_id', 'group_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('endpoint_enrollment_links')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('org_id', ID, (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('code_prefix', 'varchar(32)', (c) => c.notNull())
    .addColumn('max_uses', 'integer', (c) => c.notNull())
    .addColumn('uses', 'integer', (c) => c.notNull())
    .addColumn('expires_at', TIME, (c) => c.notNull())
    .addColumn('group_id', ID)
    .addColumn('user_id', ID)
    .addColumn('created_by', ID)
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('revoked_at', TIME)
    .execute();
  await db.schema
    .createIndex('endpoint_enrollment_code')
    .on('endpoint_enrollment_links')
    .column('code_hash')
    .unique()
    .execute();

  await db.schema
    .createTable('endpoint_policies')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('org_id', ID, (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('scope_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('scope_targets', 'text', (c) => c.notNull())
    .addColumn('rules', 'text', (c) => c.notNull())
    .addColumn('enforcement', 'varchar(8)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('endpoint_policies_org').on('endpoint_policies').column('org_id').execute();

  await db.schema
    .createTable('endpoint_org_state')
    .addColumn('org_id', ID, (c) => c.primaryKey())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('dns_config', 'text')
    .addColumn('config_version', 'integer', (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('endpoint_alerts')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('org_id', ID, (c) => c.notNull())
    .addColumn('device_id', ID, (c) => c.notNull())
    .addColumn('client_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('user_id', ID)
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    .addColumn('dlp_domain', 'varchar(32)', (c) => c.notNull())
    .addColumn('service_domain', 'varchar(253)', (c) => c.notNull())
    .addColumn('action', 'varchar(16)', (c) => c.notNull())
    .addColumn('severity', 'varchar(16)', (c) => c.notNull())
    .addColumn('findings_count', 'integer', (c) => c.notNull())
    .addColumn('redacted_preview', 'text', (c) => c.notNull())
    .addColumn('occurred_at', TIME, (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('endpoint_alerts_client')
    .on('endpoint_alerts')
    .columns(['org_id', 'device_id', 'client_id'])
    .unique()
    .execute();

  await db.schema
    .createTable('endpoint_logs')
    .addColumn('org_id', ID, (c) => c.notNull())
    .addColumn('device_id', ID, (c) => c.notNull())
    .addColumn('client_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('service_domain', 'varchar(253)')
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('occurred_at', TIME, (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addPrimaryKeyConstraint('endpoint_logs_pk', ['org_id', 'device_id', 'client_id'])
    .execute();
  await db.schema
    .createIndex('endpoint_logs_age')
    .on('endpoint_logs')
    .columns(['org_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('endpoint_stats')
    .addColumn('org_id', ID, (c) => c.notNull())
    .addColumn('source_id', ID, (c) => c.notNull())
    .addColumn('hour', 'varchar(16)', (c) => c.notNull())
    .addColumn('service_domain', 'varchar(253)', (c) => c.notNull())
    .addColumn('interactions', 'integer', (c) => c.notNull())
    .addColumn('blocked_unapproved', 'integer', (c) => c.notNull())
    .addColumn('blocked_dlp', 'integer', (c) => c.notNull())
    .addColumn('blocked_policy', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('endpoint_stats_pk', ['org_id', 'hour', 'source_id', 'service_domain'])
    .execute();

  await db.schema
    .createTable('licenses')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('org_id', ID, (c) => c.notNull())
    .addColumn('plan', 'varchar(20)', (c) => c.notNull())
    .addColumn('seats', 'integer', (c) => c.notNull())
    .addColumn('products', 'text', (c) => c.notNull())
    .addColumn('features', 'text', (c) => c.notNull())
    .addColumn('issued_at', TIME, (c) => c.notNull())
    .addColumn('expires_at', TIME, (c) => c.notNull())
    .addColumn('revoked_at', TIME)
    .execute();
  await db.schema.createIndex('licenses_org').on('licenses').columns(['org_id', 'expires_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'licenses',
    'endpoint_stats',
    'endpoint_logs',
    'endpoint_alerts',
    'endpoint_org_state',
    'endpoint_policies',
    'endpoint_enrollment_links',
    'endpoint_group_members',
    'endpoint_groups',
    'device_tokens',
    'endpoint_devices',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
