import type { Kysely } from 'kysely';

/**
 * events (org_id, created_at, id) in place of (org_id, created_at): the report builder walks an
 * organization's events in (created_at, id) order by keyset (docs/reports.md); with id in the index, a page
 * is one index range read in that order, with no sort of the events that share a timestamp. Every query the
 * old index served uses the new one by its prefix, so the number of indexes written per event is the same.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('events_org_created_id')
    .on('events')
    .columns(['org_id', 'created_at', 'id'])
    .execute();
  await db.schema.dropIndex('events_org_created').ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('events_org_created').on('events').columns(['org_id', 'created_at']).execute();
  await db.schema.dropIndex('events_org_created_id').ifExists().execute();
}
