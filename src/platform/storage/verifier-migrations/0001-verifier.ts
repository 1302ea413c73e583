import type { Kysely } from 'kysely';

/** The verification server's own store (never the API server's database): keys, sources, passages. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('verifier_keys')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('role', 'varchar(16)', (c) => c.notNull())
    .addColumn('prefix', 'varchar(32)', (c) => c.notNull())
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(32)')
    .execute();
  await db.schema
    .createTable('verifier_sources')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('shown_url', 'text', (c) => c.notNull())
    .addColumn('sealed_target', 'text', (c) => c.notNull())
    .addColumn('crawl_depth', 'integer', (c) => c.notNull())
    .addColumn('refresh_interval', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('status_reason', 'text')
    .addColumn('document_count', 'integer', (c) => c.notNull())
    .addColumn('passage_count', 'integer', (c) => c.notNull())
    .addColumn('validated_at', 'varchar(32)')
    .addColumn('validated_by', 'varchar(200)')
    .addColumn('last_indexed_at', 'varchar(32)')
    .addColumn('next_refresh_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('verifier_documents')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('source_id', 'varchar(64)', (c) =>
      c.notNull().references('verifier_sources.id').onDelete('cascade'),
    )
    .addColumn('citation', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('etag', 'text')
    .addColumn('last_modified', 'text')
    .addColumn('links', 'text')
    .addColumn('content_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('fetched_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('verifier_documents_source')
    .on('verifier_documents')
    .column('source_id')
    .execute();
  await db.schema
    .createTable('verifier_passages')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('source_id', 'varchar(64)', (c) =>
      c.notNull().references('verifier_sources.id').onDelete('cascade'),
    )
    .addColumn('document_id', 'varchar(64)', (c) =>
      c.notNull().references('verifier_documents.id').onDelete('cascade'),
    )
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('verifier_passages_document')
    .on('verifier_passages')
    .columns(['document_id', 'position'])
    .execute();
  await db.schema
    .createIndex('verifier_passages_source')
    .on('verifier_passages')
    .column('source_id')
    .execute();
  // Registration (cloud host key, own key pair), licence state: a handful of named values.
  await db.schema
    .createTable('verifier_settings')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'verifier_settings',
    'verifier_passages',
    'verifier_documents',
    'verifier_sources',
    'verifier_keys',
  ])
    await db.schema.dropTable(t).ifExists().execute();
}
