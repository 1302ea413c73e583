import type { Kysely } from 'kysely';

/**
 * A user whose password someone else set or saw (created by an owner or admin, by `parapet user create`, the
 * owner of a first start, or a password reset) must choose their own at first sign-in: until then their
 * dashboard session reaches only the password change, "me" and sign-out (docs/auth.md). 1 while that is due.
 * Users stored before this migration keep 0: whether their password was ever handed over is not known, and
 * signing every existing user into a forced change at an upgrade would surprise more than it protects.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('must_change_password').execute();
}
