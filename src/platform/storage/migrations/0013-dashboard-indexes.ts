import type { Kysely } from 'kysely';

/**
 * The settled-day counts table and indexes for the dashboard's reads at a million stored events and deliveries (docs/dashboard.md, bench:web):
 * - events (org_id, created_at, type): the overview's counts per day and type come from the index alone;
 * - events (org_id, type, created_at): the newest events of one type without sorting the others;
 * - webhook_deliveries (org_id, webhook_id, [status], [event_type], created_at, id): the filtered delivery
 *   log, paged by keyset (created_at, id) instead of an offset that reads every skipped row, and its capped
 *   count answered from the index alone (org_id leads: every query names it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Counts of settled days (tables-dashboard.ts): the overview's daily series without reading old events.
  await db.schema
    .createTable('event_day_counts')
    .addColumn('org_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_day_counts_pk', ['org_id', 'day', 'type'])
    .execute();
  await db.schema
    .createIndex('events_org_created_type')
    .on('events')
    .columns(['org_id', 'created_at', 'type'])
    .execute();
  await db.schema
    .createIndex('events_org_type_created')
    .on('events')
    .columns(['org_id', 'type', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_hook_keyset')
    .on('webhook_deliveries')
    .columns(['org_id', 'webhook_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_hook_status')
    .on('webhook_deliveries')
    .columns(['org_id', 'webhook_id', 'status', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_hook_status_type')
    .on('webhook_deliveries')
    .columns(['org_id', 'webhook_id', 'status', 'event_type', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_hook_type')
    .on('webhook_deliveries')
    .columns(['org_id', 'webhook_id', 'event_type', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of [
    'webhook_deliveries_hook_type',
    'webhook_deliveries_hook_status_type',
    'webhook_deliveries_hook_status',
    'webhook_deliveries_hook_keyset',
    'events_org_type_created',
    'events_org_created_type',
  ]) {
    await db.schema.dropIndex(name).ifExists().execute();
  }
  await db.schema.dropTable('event_day_counts').ifExists().execute();
}
