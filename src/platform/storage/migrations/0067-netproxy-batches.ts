import type { Kysely } from 'kysely';

/**
 * netproxy_batches: which vault session the requests of an Anthropic message batch were tokenized into,
 * written when the network proxy relays the batch's creation, read when the batch's results are fetched
 * through it (docs/netproxy.md, "Anthropic batch results"). Keyed by organization and batch id: another
 * organization's results GET finds nothing. The row goes with its session (foreign key, on delete cascade:
 * the vault's expiry purge and an erasure remove it), so it never outlives the tokens it points at.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('netproxy_batches')
    .addColumn('org_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('batch_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('session_id', 'varchar(64)', (c) =>
      c.notNull().references('dlp_sessions.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('netproxy_batches_pk', ['org_id', 'batch_id'])
    .execute();
  // The cascade finds a session's rows by it (PostgreSQL does not index a referencing column by itself).
  await db.schema
    .createIndex('netproxy_batches_session')
    .on('netproxy_batches')
    .column('session_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('netproxy_batches').ifExists().execute();
}
