import type { Kysely } from 'kysely';

/**
 * API keys get a scope (docs/auth.md): `products` (the default, what every existing key keeps) calls the
 * products of its kind; `admin`, created only by an owner or admin, also manages the organization's
 * integrations by API (webhooks, SIEM integrations, every /api/saas/* route).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('api_keys')
    .addColumn('scope', 'varchar(16)', (c) => c.notNull().defaultTo('products'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('scope').execute();
}
