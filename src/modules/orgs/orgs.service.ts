import type { Clock } from '../../platform/clock/index.js';
import { hashPassword, newId, randomBase62, sha256Hex, verifyPassword } from '../../platform/crypto/index.js';
import { AppError } from '../../platform/errors/index.js';
import { type Db, type DialectName, isUniqueViolation } from '../../platform/storage/index.js';
import {
  type UserAuditData,
  loginEvent,
  loginFailedEvent,
  passwordChangeFailedEvent,
  passwordChangedEvent,
  roleChangedEvent,
  userJoinedEvent,
  userRemovedEvent,
} from './orgs.events.js';
import { createOrgsRepo, type OrgRow, type UserRow } from './orgs.repo.js';
import { dlpSettingsOf, eventUserAgent } from '../dlp/index.js';
import { type Plan, PRODUCTS, type Product, type Role, isProduct } from '../plans/index.js';

export interface Organization {
  id: string;
  name: string;
  plan: Plan;
  products: Product[];
  settings: Record<string, unknown>;
  renewalDay: number;
  createdAt: string;
}

export interface User {
  id: string;
  orgId: string;
  email: string;
  name: string;
  role: Role;
  /**
   * The password was set by someone else (an owner or admin, the CLI, a first start, a reset): until the user
   * changes it, their dashboard session reaches only the password change, "me" and sign-out (docs/auth.md).
   */
  mustChangePassword: boolean;
  createdAt: string;
}

/** The one capability orgs needs from events, passed in so that the two modules do not import each other. */
export type PublishFn = (
  db: Db,
  org: { id: string; plan: string },
  type:
    | 'user.joined'
    | 'user.removed'
    | 'audit.user_role'
    | 'audit.settings'
    | 'audit.login'
    | 'audit.login_failed'
    | 'audit.password_changed'
    | 'audit.password_change_failed',
  data: Record<string, unknown>,
) => Promise<unknown>;

/**
 * What another module does when a user is removed (endpoint: devices, groups, enrollment links and policy
 * scopes that name the user), run in the removal's transaction so that no moment has the user gone but still
 * bound. `user.email` is the address before the row is anonymised (policy scopes may name the user by it);
 * it is for the hook's own clean-up and never goes into an event. Registered by `main/` (orgs.onUserRemoved),
 * so that orgs imports no module that cleans up after it.
 */
export type UserRemovedHook = (
  trx: Db,
  org: Organization,
  user: { id: string; email: string },
  by: { userId: string | null },
) => Promise<void>;

export function toOrganization(row: OrgRow): Organization {
  const products = (JSON.parse(row.entitlements) as string[]).filter(isProduct);
  return {
    id: row.id,
    name: row.name,
    plan: row.plan as Plan,
    products,
    settings: JSON.parse(row.settings) as Record<string, unknown>,
    renewalDay: row.renewal_day,
    createdAt: row.created_at,
  };
}

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    orgId: row.org_id,
    email: row.email,
    name: row.name,
    role: row.role as Role,
    mustChangePassword: row.must_change_password === 1,
    createdAt: row.created_at,
  };
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** The one password rule of dashboard users (docs/auth.md): created, reset by the CLI, or changed. */
export const PASSWORD_MIN = 12;
export function checkPasswordStrength(password: string, field: string): void {
  if (password.length < PASSWORD_MIN)
    throw new AppError(
      'invalid_request',
      `${field}: the password must be at least ${PASSWORD_MIN} characters long.`,
    );
}

/** Refuses (409) to take away the organization's last owner; run under the owner lock. */
async function keepAnOwner(r: ReturnType<typeof createOrgsRepo>, orgId: string, what: string): Promise<void> {
  const owners = (await r.listUsers(orgId)).filter((u) => u.role === 'owner');
  if (owners.length <= 1)
    throw new AppError('conflict', `The last owner of an organization cannot be ${what}.`);
}

/**
 * The caller's role as stored now, read inside the change's transaction (after the owner lock): a session
 * carries the role of its last request, and a caller demoted meanwhile must not act on the old one. A
 * caller without a user row of this organization (a service call) keeps the role it was given.
 */
async function currentRole(
  r: ReturnType<typeof createOrgsRepo>,
  orgId: string,
  by: { id?: string; role: Role },
): Promise<Role> {
  if (!by.id) return by.role;
  const me = await r.getUser(orgId, by.id);
  return me ? (me.role as Role) : by.role;
}

export function createOrgsService(deps: {
  db: Db;
  clock: Clock;
  publish: PublishFn;
  sessionTtlHours: number;
  /** On PostgreSQL the last-owner checks take a lock; SQLite runs one write transaction at a time anyway. */
  dialect?: DialectName;
  /**
   * Revokes, in the given transaction, the admin-scope keys a user created, when the user stops being an
   * owner or admin (demoted to member or viewer, or removed): those keys stand for an admin (docs/auth.md).
   * Resolves to what to run after the commit. Passed in (the keys module's) so orgs does not import keys.
   */
  revokeAdminKeysBy: (trx: Db, orgId: string, userId: string, by: string | null) => Promise<() => void>;
}) {
  const { db, clock } = deps;
  const repo = createOrgsRepo(db);
  const userRemovedHooks: UserRemovedHook[] = [];

  /**
   * An AUTHENTICATION audit event about one user's sign-in or credentials, in the given transaction: ids, the
   * client address and user agent (eventUserAgent: personal data and secrets in it replaced by their type,
   * 200 characters at most), never an e-mail address or a password.
   */
  async function publishUserAudit(
    trx: Db,
    user: { id: string; orgId: string },
    type: 'audit.login' | 'audit.login_failed' | 'audit.password_changed' | 'audit.password_change_failed',
    data: UserAuditData,
    from: { sourceIp?: string; userAgent?: string },
  ): Promise<void> {
    const orgRow = await createOrgsRepo(trx).getOrg(user.orgId);
    if (!orgRow) return;
    const org = toOrganization(orgRow);
    const userAgent = eventUserAgent(from.userAgent, dlpSettingsOf(org.settings));
    await deps.publish(trx, org, type, {
      targetType: 'user',
      targetId: user.id,
      userId: user.id,
      ...data,
      ...(from.sourceIp ? { sourceIp: from.sourceIp } : {}),
      ...(userAgent ? { userAgent } : {}),
    });
  }

  return {
    /** Adds a clean-up run in the transaction of every user removal (see UserRemovedHook). */
    onUserRemoved(hook: UserRemovedHook): void {
      userRemovedHooks.push(hook);
    },

    async createOrg(input: {
      name: string;
      plan: Plan;
      products?: Product[];
      renewalDay?: number;
      settings?: Record<string, unknown>;
    }): Promise<Organization> {
      const now = clock.now();
      const row: OrgRow = {
        id: newId('org'),
        name: input.name.trim(),
        plan: input.plan,
        entitlements: JSON.stringify(input.products ?? [...PRODUCTS]),
        settings: JSON.stringify(input.settings ?? {}),
        // Quotas renew on the day of the month the organization signed up, capped at 28 so every month has it.
        renewal_day: input.renewalDay ?? Math.min(now.getUTCDate(), 28),
        created_at: now.toISOString(),
      };
      await repo.insertOrg(row);
      return toOrganization(row);
    },

    async getOrg(id: string): Promise<Organization | undefined> {
      const row = await repo.getOrg(id);
      return row && toOrganization(row);
    },

    async listOrgs(): Promise<Organization[]> {
      return (await repo.listOrgs()).map(toOrganization);
    },

    async countOrgs(): Promise<number> {
      return repo.countOrgs();
    },

    async updateOrg(
      id: string,
      patch: { plan?: Plan; products?: Product[]; settings?: Record<string, unknown>; name?: string },
    ) {
      await repo.updateOrg(id, {
        ...(patch.plan ? { plan: patch.plan } : {}),
        ...(patch.name ? { name: patch.name } : {}),
        ...(patch.products ? { entitlements: JSON.stringify(patch.products) } : {}),
        ...(patch.settings ? { settings: JSON.stringify(patch.settings) } : {}),
      });
    },

    /**
     * Replaces one section of the organization's settings (`dlp`, `detection`, `hallucination`) as one
     * step: the row is read and written in one transaction (locked on PostgreSQL; SQLite writes one at a
     * time), so two pages saved at once keep both sections, and an `audit.settings` event says which section
     * changed, which of its fields, and who changed it. Never the values: DLP settings hold allowed values
     * and patterns that may be personal data. A save that changes nothing writes nothing.
     */
    async setSettingsSection(
      orgId: string,
      section: string,
      value: Record<string, unknown>,
      by: { userId: string | null; apiKeyId?: string | null },
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const q = trx.selectFrom('organizations').selectAll().where('id', '=', orgId);
        const row = await (deps.dialect === 'postgres' ? q.forUpdate() : q).executeTakeFirst();
        if (!row) throw new AppError('not_found', 'Organization was not found.');
        const settings = toOrganization(row).settings;
        const before = (settings[section] ?? {}) as Record<string, unknown>;
        const changed = [...new Set([...Object.keys(before), ...Object.keys(value)])]
          .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(value[k]))
          .sort();
        if (changed.length === 0 && settings[section] !== undefined) return;
        await createOrgsRepo(trx).updateOrg(orgId, {
          settings: JSON.stringify({ ...settings, [section]: value }),
        });
        await deps.publish(trx, toOrganization(row), 'audit.settings', {
          action: 'settings_changed',
          setting: section,
          changed,
          actorUserId: by.userId,
          ...(by.apiKeyId ? { actorApiKeyId: by.apiKeyId } : {}),
          severity: 'MEDIUM',
        });
      });
    },

    /** Renames the organization from the dashboard; an audit.settings event says who and from what. */
    async rename(org: Organization, name: string, by: { userId: string }): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await createOrgsRepo(trx).updateOrg(org.id, { name });
        await deps.publish(trx, org, 'audit.settings', {
          setting: 'organization.name',
          previousName: org.name,
          name,
          actorUserId: by.userId,
        });
      });
    },

    /**
     * Creates a user; when no password is given one is generated and returned once. `mustChangePassword`:
     * the password is handed to the user by someone who saw it (an owner or admin on the dashboard, the
     * operator's `parapet user create`, the first start's owner), so the user must choose their own at first
     * sign-in; every such caller sets it.
     */
    async createUser(input: {
      org: Organization;
      email: string;
      name?: string;
      role: Role;
      password?: string;
      mustChangePassword?: boolean;
    }): Promise<{ user: User; password: string }> {
      const email = input.email.trim().toLowerCase();
      if (!EMAIL.test(email)) throw new AppError('invalid_request', 'The e-mail address is not valid.');
      const password = input.password ?? randomBase62(20);
      checkPasswordStrength(password, 'password');
      const row: UserRow = {
        id: newId('usr'),
        org_id: input.org.id,
        email,
        name: (input.name ?? email.split('@')[0] ?? email).trim(),
        role: input.role,
        password_hash: await hashPassword(password),
        must_change_password: input.mustChangePassword ? 1 : 0,
        created_at: clock.now().toISOString(),
        removed_at: null,
      };
      try {
        await db.transaction().execute(async (trx) => {
          await createOrgsRepo(trx).insertUser(row);
          await deps.publish(
            trx,
            input.org,
            'user.joined',
            userJoinedEvent({ userId: row.id, role: row.role }),
          );
        });
      } catch (err) {
        if (isUniqueViolation(err))
          throw new AppError('conflict', 'A user with this e-mail address already exists.');
        throw err;
      }
      return { user: toUser(row), password };
    },

    /**
     * A signed-in user changes their own password (docs/auth.md): the current one must be right (403
     * otherwise, not 401, which would read as the session having ended), the new one follows the rule of user
     * creation and differs from it. The user's other sessions end, in the transaction of the change, with an
     * `audit.password_changed` event (ids and the client address only, never a password).
     */
    async changeOwnPassword(
      user: User,
      keepSessionToken: string,
      input: { currentPassword: string; newPassword: string },
      from: { sourceIp?: string; userAgent?: string } = {},
    ): Promise<{ otherSessionsEnded: number }> {
      checkPasswordStrength(input.newPassword, 'newPassword');
      const row = await repo.getUser(user.orgId, user.id);
      if (!row) throw new AppError('unauthorized', 'Log in first: this operation needs a dashboard session.');
      if (!(await verifyPassword(input.currentPassword, row.password_hash))) {
        // Recorded before the refusal is answered: the caller is signed in already, so unlike a login there
        // is no account to hide by answering first.
        await db
          .transaction()
          .execute((trx) =>
            publishUserAudit(trx, user, 'audit.password_change_failed', passwordChangeFailedEvent(), from),
          );
        throw new AppError('forbidden', 'currentPassword: the current password is wrong.');
      }
      if (input.newPassword === input.currentPassword)
        throw new AppError('invalid_request', 'newPassword: choose a password other than the current one.');
      const hash = await hashPassword(input.newPassword);
      return db.transaction().execute(async (trx) => {
        const r = createOrgsRepo(trx);
        // The user chose this one: the change that was due, if any, is done. Written only over the hash the
        // current password was checked against: an administrator's reset (or another change) that landed
        // during the slow check would otherwise be overwritten, and a reset made to lock out a stolen
        // session would leave the thief's new password in place.
        if (!(await r.replacePasswordHash(user.orgId, user.id, row.password_hash, hash, false)))
          throw new AppError(
            'conflict',
            'The password was changed or reset meanwhile; sign in again with the current password.',
          );
        const ended = await r.deleteOtherSessions(user.id, sha256Hex(keepSessionToken));
        await publishUserAudit(trx, user, 'audit.password_changed', passwordChangedEvent(ended), from);
        return { otherSessionsEnded: ended };
      });
    },

    /**
     * Sets a new generated password and ends the user's sessions; returns the password once. The operator
     * who runs it sees the password, so the user must change it at their next sign-in.
     */
    async resetPassword(orgId: string, userId: string): Promise<string> {
      const password = randomBase62(20);
      await repo.setPasswordHash(orgId, userId, await hashPassword(password), true);
      await repo.deleteUserSessions(userId);
      return password;
    },

    async listUsers(orgId: string): Promise<User[]> {
      return (await repo.listUsers(orgId)).map(toUser);
    },

    /** `by`: the dashboard user asking; as with roles, only an owner removes an owner (docs/auth.md). */
    async removeUser(org: Organization, userId: string, by?: { id?: string; role: Role }): Promise<void> {
      const at = clock.now().toISOString();
      const removed = await db.transaction().execute(async (trx) => {
        const r = createOrgsRepo(trx);
        // Every removal and role change takes the organization's owner lock first (PostgreSQL; SQLite runs
        // write transactions one at a time), so the roles read below are not changing under it: a promotion
        // to owner not yet committed made an admin's removal of that user pass.
        if (deps.dialect === 'postgres') await r.lockOwners(org.id);
        const user = await r.getUser(org.id, userId);
        if (!user) return undefined;
        // As with roles: a manager who removes themselves cannot undo it; another owner or admin can.
        if (by?.id === user.id)
          throw new AppError('forbidden', 'You cannot remove yourself; another owner or admin can.');
        const byRole = by ? await currentRole(r, org.id, by) : undefined;
        if (user.role === 'owner' && byRole !== undefined && byRole !== 'owner')
          throw new AppError('forbidden', 'Only an owner can remove an owner.');
        if (user.role === 'owner') await keepAnOwner(r, org.id, 'removed');
        if (!(await r.removeUser(org.id, userId, at, user.role)))
          throw new AppError('conflict', 'The user changed meanwhile; read the list again.');
        await r.deleteUserSessions(userId);
        for (const hook of userRemovedHooks)
          await hook(trx, org, { id: user.id, email: user.email }, { userId: by?.id ?? null });
        await deps.publish(trx, org, 'user.removed', userRemovedEvent(userId));
        return deps.revokeAdminKeysBy(trx, org.id, userId, by?.id ?? null);
      });
      if (!removed) throw new AppError('not_found', 'User was not found.');
      removed();
    },

    /**
     * Changes a user's role (docs/auth.md "Changing a role"). Only an owner makes or unmakes an owner; nobody
     * changes their own role, because a manager who demotes themselves by mistake cannot undo it; the last
     * owner stays an owner, so the organization always has someone who may do everything. Sessions keep
     * working: the role is read from the user's row on every request, so the change applies at once.
     */
    async changeRole(
      org: Organization,
      by: { id: string; role: Role },
      userId: string,
      role: Role,
    ): Promise<User> {
      const updated = await db.transaction().execute(async (trx) => {
        const r = createOrgsRepo(trx);
        // The owner lock first, for every change (see removeUser): the target's and the caller's roles are
        // read after it, so two changes of the same organization never decide on each other's old roles.
        if (deps.dialect === 'postgres') await r.lockOwners(org.id);
        const user = await r.getUser(org.id, userId);
        if (!user) return undefined;
        if (user.id === by.id)
          throw new AppError(
            'forbidden',
            'You cannot change your own role; another owner or admin of the organization can.',
          );
        const byRole = await currentRole(r, org.id, by);
        if ((role === 'owner' || user.role === 'owner') && byRole !== 'owner')
          throw new AppError('forbidden', 'Only an owner can make or unmake an owner.');
        if (user.role === role) return { user: toUser(user), afterCommit: () => {} };
        if (user.role === 'owner') await keepAnOwner(r, org.id, 'given another role');
        if (!(await r.setRole(org.id, userId, role, user.role)))
          throw new AppError('conflict', 'The user changed meanwhile; read the list again.');
        await deps.publish(
          trx,
          org,
          'audit.user_role',
          roleChangedEvent({ userId, previousRole: user.role as Role, role, byUserId: by.id }),
        );
        const stillManager = role === 'owner' || role === 'admin';
        const afterCommit = stillManager
          ? () => {}
          : await deps.revokeAdminKeysBy(trx, org.id, userId, by.id);
        return { user: toUser({ ...user, role }), afterCommit };
      });
      if (!updated) throw new AppError('not_found', 'User was not found.');
      updated.afterCommit();
      return updated.user;
    },

    /**
     * Checks a password; the same error for an unknown e-mail and a wrong password. Each login of a known
     * user is an audit event for the SIEM (AUTHENTICATION): `audit.login` in the transaction of the new
     * session, `audit.login_failed` for a wrong password. Ids and the client address only: never the
     * e-mail typed or the password. An unknown e-mail belongs to no organization, so it has no event.
     */
    async login(
      email: string,
      password: string,
      from: { sourceIp?: string; userAgent?: string; onFailedAudit?: (err: unknown) => void } = {},
    ): Promise<{ sessionToken: string; user: User; expiresAt: string }> {
      const row = await repo.getUserByEmail(email.trim().toLowerCase());
      // A dummy verification keeps the answer time the same whether or not the user exists.
      const ok = row
        ? await verifyPassword(password, row.password_hash)
        : await verifyPassword(password, DUMMY_HASH).then(() => false);
      if (row && !ok) {
        // Written after the answer, not before it: awaiting the write would make a wrong password slower
        // than an unknown e-mail, which tells a guesser which addresses have accounts.
        setImmediate(() => {
          db.transaction()
            .execute((trx) =>
              publishUserAudit(
                trx,
                { id: row.id, orgId: row.org_id },
                'audit.login_failed',
                loginFailedEvent(),
                from,
              ),
            )
            .catch((err: unknown) => from.onFailedAudit?.(err));
        });
      }
      if (!row || !ok) throw new AppError('unauthorized', 'The e-mail address or password is wrong.');
      const token = randomBase62(43);
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + deps.sessionTtlHours * 3600_000).toISOString();
      await db.transaction().execute(async (trx) => {
        const r = createOrgsRepo(trx);
        await r.insertSession({
          id: sha256Hex(token),
          org_id: row.org_id,
          user_id: row.id,
          created_at: now.toISOString(),
          expires_at: expiresAt,
        });
        await publishUserAudit(
          trx,
          { id: row.id, orgId: row.org_id },
          'audit.login',
          loginEvent(row.role),
          from,
        );
      });
      return { sessionToken: token, user: toUser(row), expiresAt };
    },

    async resolveSession(token: string): Promise<{ user: User; org: Organization } | undefined> {
      const session = await repo.getSession(sha256Hex(token));
      if (!session || session.expires_at <= clock.now().toISOString()) return undefined;
      const [user, org] = await Promise.all([
        repo.getUser(session.org_id, session.user_id),
        repo.getOrg(session.org_id),
      ]);
      if (!user || !org) return undefined;
      return { user: toUser(user), org: toOrganization(org) };
    },

    async logout(token: string): Promise<void> {
      await repo.deleteSession(sha256Hex(token));
    },

    async purgeExpiredSessions(): Promise<number> {
      return repo.deleteExpiredSessions(clock.now().toISOString());
    },
  };
}

const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

export type OrgsService = ReturnType<typeof createOrgsService>;
