import { type Kysely, sql } from 'kysely';

/**
 * One stored proof per content and organization (docs/proofs.md, "Uploading the same proof again"): an
 * extension that retries an upload whose answer was lost sends the same bytes again, and must get the proof
 * already stored instead of a second copy. `sha256_unique` holds the SHA-256 on the row that is the
 * organization's copy of that content, under a unique index on (org_id, sha256_unique), which decides two
 * uploads racing on SQLite and PostgreSQL alike (the second insert fails; the service answers with the
 * first). Copies stored twice before this migration keep their rows (they are evidence, and their files
 * cannot be removed from here): the oldest of each gets the column, the later ones keep null, which a unique
 * index never compares (both databases treat nulls as distinct). They go with the 90-day retention.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('proofs').addColumn('sha256_unique', 'varchar(64)').execute();
  await sql`
    update proofs set sha256_unique = sha256
    where not exists (
      select 1 from proofs earlier
      where earlier.org_id = proofs.org_id
        and earlier.sha256 = proofs.sha256
        and (earlier.uploaded_at < proofs.uploaded_at
          or (earlier.uploaded_at = proofs.uploaded_at and earlier.id < proofs.id))
    )`.execute(db);
  await db.schema
    .createIndex('proofs_org_content')
    .on('proofs')
    .columns(['org_id', 'sha256_unique'])
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('proofs_org_content').ifExists().execute();
  await db.schema.alterTable('proofs').dropColumn('sha256_unique').execute();
}
