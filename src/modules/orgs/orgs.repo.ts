import { sql } from 'kysely';
import type { Db, OrganizationsTable, UsersTable } from '../../platform/storage/index.js';

export type OrgRow = OrganizationsTable;
export type UserRow = UsersTable;

export function createOrgsRepo(db: Db) {
  return {
    async insertOrg(row: OrgRow): Promise<void> {
      await db.insertInto('organizations').values(row).execute();
    },
    async getOrg(id: string): Promise<OrgRow | undefined> {
      return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async listOrgs(): Promise<OrgRow[]> {
      return db.selectFrom('organizations').selectAll().orderBy('created_at').execute();
    },
    async countOrgs(): Promise<number> {
      const r = await db
        .selectFrom('organizations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },
    async updateOrg(
      id: string,
      patch: Partial<Pick<OrgRow, 'name' | 'plan' | 'entitlements' | 'settings'>>,
    ): Promise<void> {
      await db.updateTable('organizations').set(patch).where('id', '=', id).execute();
    },
    async insertUser(row: UserRow): Promise<void> {
      await db.insertInto('users').values(row).execute();
    },
    async getUserByEmail(email: string): Promise<UserRow | undefined> {
      return db
        .selectFrom('users')
        .selectAll()
        .where('email', '=', email)
        .where('removed_at', 'is', null)
        .executeTakeFirst();
    },
    async getUser(orgId: string, id: string): Promise<UserRow | undefined> {
      return db
        .selectFrom('users')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .where('removed_at', 'is', null)
        .executeTakeFirst();
    },
    async listUsers(orgId: string): Promise<UserRow[]> {
      return db
        .selectFrom('users')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('removed_at', 'is', null)
        .orderBy('created_at')
        .execute();
    },
    /**
     * `mustChange`: true when someone other than the user set it (a reset), false when the user chose it;
     * both in the one statement, so no moment has the new password with the old flag.
     */
    async setPasswordHash(orgId: string, id: string, hash: string, mustChange: boolean): Promise<void> {
      await db
        .updateTable('users')
        .set({ password_hash: hash, must_change_password: mustChange ? 1 : 0 })
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .execute();
    },
    /**
     * Sets the hash only while the row still holds `expected` (the hash the caller verified a password
     * against); false when another change or a reset came in between.
     */
    async replacePasswordHash(
      orgId: string,
      id: string,
      expected: string,
      hash: string,
      mustChange: boolean,
    ): Promise<boolean> {
      const res = await db
        .updateTable('users')
        .set({ password_hash: hash, must_change_password: mustChange ? 1 : 0 })
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .where('password_hash', '=', expected)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
    /**
     * PostgreSQL only: one lock per organization, held until the transaction ends, so that two owners who
     * demote or remove each other at once take turns and the second sees that only one owner is left.
     */
    async lockOwners(orgId: string): Promise<void> {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`parapet:owners:${orgId}`}, 0))`.execute(db);
    },
    /** Sets the role only while the row still has the role the caller read (false when it changed since). */
    async setRole(orgId: string, id: string, role: string, expected: string): Promise<boolean> {
      const r = await db
        .updateTable('users')
        .set({ role })
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .where('role', '=', expected)
        .where('removed_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    /** `expected`: remove only while the row still has the role the caller read. */
    async removeUser(orgId: string, id: string, at: string, expected?: string): Promise<boolean> {
      // The e-mail is freed so that the person can be invited again later.
      let q = db
        .updateTable('users')
        .set({ removed_at: at, email: `removed+${id}` })
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .where('removed_at', 'is', null);
      if (expected !== undefined) q = q.where('role', '=', expected);
      const r = await q.executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async insertSession(row: {
      id: string;
      org_id: string;
      user_id: string;
      created_at: string;
      expires_at: string;
    }) {
      await db.insertInto('dashboard_sessions').values(row).execute();
    },
    async getSession(id: string) {
      return db.selectFrom('dashboard_sessions').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async deleteSession(id: string): Promise<void> {
      await db.deleteFrom('dashboard_sessions').where('id', '=', id).execute();
    },
    async deleteUserSessions(userId: string): Promise<void> {
      await db.deleteFrom('dashboard_sessions').where('user_id', '=', userId).execute();
    },
    /** Ends every session of the user but one (the one that changed the password stays signed in). */
    async deleteOtherSessions(userId: string, keepId: string): Promise<number> {
      const r = await db
        .deleteFrom('dashboard_sessions')
        .where('user_id', '=', userId)
        .where('id', '<>', keepId)
        .executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    async deleteExpiredSessions(now: string): Promise<number> {
      const r = await db.deleteFrom('dashboard_sessions').where('expires_at', '<=', now).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}

export type OrgsRepo = ReturnType<typeof createOrgsRepo>;
