import type { Kysely } from 'kysely';

/**
 * The overview's breakdowns at a million stored events (docs/dashboard.md):
 * - event_day_facets: per settled UTC day, how many events carried each value of a facet (detection
 *   severity and category, DLP finding type and severity), counted once from the events and kept, like
 *   event_day_counts, so a month's breakdown reads a few hundred small rows instead of parsing the events;
 * - usage_days: requests and blocked requests per product and UTC day, written by the same batched flush as
 *   the monthly `usage` rows (the monthly rows stay the quota's truth; these only draw the daily chart).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('event_day_facets')
    .addColumn('org_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('facet', 'varchar(32)', (c) => c.notNull())
    .addColumn('value', 'varchar(64)', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_day_facets_pk', ['org_id', 'day', 'facet', 'value'])
    .execute();
  // A settled day whose events carried no facet at all still needs a marker that it was counted.
  await db.schema
    .createTable('event_day_facets_done')
    .addColumn('org_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_day_facets_done_pk', ['org_id', 'day'])
    .execute();
  await db.schema
    .createTable('usage_days')
    .addColumn('org_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('product', 'varchar(32)', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('requests', 'integer', (c) => c.notNull())
    .addColumn('blocked', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_days_pk', ['org_id', 'product', 'day'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('usage_days').execute();
  await db.schema.dropTable('event_day_facets_done').execute();
  await db.schema.dropTable('event_day_facets').execute();
}
