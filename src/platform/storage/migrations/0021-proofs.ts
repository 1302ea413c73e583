import type { Kysely } from 'kysely';

const TIME = 'varchar(32)';
const ID = 'varchar(64)';

/** Proof documents: metadata rows; the PDF itself is in the proof store (disk or S3, docs/proofs.md). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('proofs')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('org_id', ID, (c) => c.notNull())
    .addColumn('device_id', ID, (c) => c.notNull())
    .addColumn('user_id', ID)
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('store_key', 'varchar(300)', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('risk_score', 'integer', (c) => c.notNull())
    .addColumn('computed_risk_score', 'integer')
    .addColumn('risk_score_mismatch', 'integer', (c) => c.notNull())
    .addColumn('uploaded_at', TIME, (c) => c.notNull())
    .addColumn('expires_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('proofs_org_uploaded')
    .on('proofs')
    .columns(['org_id', 'uploaded_at', 'id'])
    .execute();
  await db.schema
    .createIndex('proofs_device_uploaded')
    .on('proofs')
    .columns(['org_id', 'device_id', 'uploaded_at', 'id'])
    .execute();
  await db.schema.createIndex('proofs_expires').on('proofs').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('proofs').ifExists().execute();
}
