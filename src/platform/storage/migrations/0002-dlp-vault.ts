import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dlp_sessions')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('org_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('key_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dlp_sessions_expiry').on('dlp_sessions').column('expires_at').execute();
  await db.schema
    .createIndex('dlp_sessions_org')
    .on('dlp_sessions')
    .columns(['org_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('dlp_tokens')
    .addColumn('session_id', 'varchar(64)', (c) =>
      c.notNull().references('dlp_sessions.id').onDelete('cascade'),
    )
    .addColumn('org_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('token', 'varchar(128)', (c) => c.notNull())
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    .addColumn('value_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('dlp_tokens_pk', ['session_id', 'token'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dlp_tokens').ifExists().execute();
  await db.schema.dropTable('dlp_sessions').ifExists().execute();
}
