import { sql } from 'kysely';
import {
  type Db,
  type EndpointAlertsTable,
  type EndpointDevicesTable,
  type EndpointEnrollmentLinksTable,
  type EndpointLogsTable,
  type EndpointPoliciesTable,
  foldName,
} from '../../platform/storage/index.js';

export type DeviceRow = EndpointDevicesTable;
export type LinkRow = EndpointEnrollmentLinksTable;
export type PolicyRow = EndpointPoliciesTable;

export interface StatsDelta {
  sourceId: string;
  hour: string;
  domain: string;
  interactions: number;
  unapproved: number;
  dlp: number;
  policy: number;
}

/** Every method takes the organization first; another organization's rows are never read or changed. */
export function createEndpointRepo(db: Db) {
  return {
    // ----- devices -----
    async insertDevice(row: DeviceRow): Promise<void> {
      await db.insertInto('endpoint_devices').values(row).execute();
    },
    async device(orgId: string, id: string): Promise<DeviceRow | undefined> {
      return db
        .selectFrom('endpoint_devices')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    async updateDevice(orgId: string, id: string, set: Partial<DeviceRow>): Promise<boolean> {
      const r = await db
        .updateTable('endpoint_devices')
        .set(set)
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    /**
     * Ends a device that has not ended yet (status revoked); false when it was revoked already, also by a
     * concurrent transaction (PostgreSQL waits for its row lock and reads the committed row again).
     */
    async endDevice(orgId: string, id: string, at: string): Promise<boolean> {
      const r = await db
        .updateTable('endpoint_devices')
        .set({ status: 'revoked', revoked_at: at })
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .where('status', '!=', 'revoked')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    /** PostgreSQL only: holds the organization's seat lock until the transaction ends. */
    async lockSeats(orgId: string): Promise<void> {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`parapet:seats:${orgId}`}, 0))`.execute(db);
    },
    async countActiveDevices(orgId: string): Promise<number> {
      const r = await db
        .selectFrom('endpoint_devices')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('org_id', '=', orgId)
        .where('status', '=', 'active')
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },
    async listDevices(
      orgId: string,
      f: { status?: 'active' | 'offline' | 'revoked'; onlineSince: string; before?: string; after?: string },
      page: number,
      perPage: number,
    ): Promise<{ rows: DeviceRow[]; total: number }> {
      let q = db.selectFrom('endpoint_devices').where('org_id', '=', orgId);
      if (f.status === 'revoked') q = q.where('status', '=', 'revoked');
      else if (f.status === 'active')
        q = q.where('status', '=', 'active').where('last_seen_at', '>=', f.onlineSince);
      else if (f.status === 'offline')
        q = q
          .where('status', '=', 'active')
          .where((e) => e.or([e('last_seen_at', 'is', null), e('last_seen_at', '<', f.onlineSince)]));
      if (f.before) q = q.where('last_seen_at', '<', f.before);
      if (f.after) q = q.where('last_seen_at', '>=', f.after);
      const total = await q.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirst();
      const rows = await q
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute();
      return { rows, total: Number(total?.n ?? 0) };
    },
    async deviceCounts(orgId: string, onlineSince: string): Promise<{ total: number; active: number }> {
      const r = await db
        .selectFrom('endpoint_devices')
        .select((e) => [
          e.fn.countAll<number>().as('total'),
          e.fn.sum<number>(sql`case when last_seen_at >= ${onlineSince} then 1 else 0 end`).as('active'),
        ])
        .where('org_id', '=', orgId)
        .where('status', '=', 'active')
        .executeTakeFirst();
      return { total: Number(r?.total ?? 0), active: Number(r?.active ?? 0) };
    },

    // ----- users and groups (read to validate scopes and bindings) -----
    /**
     * A current user of the organization. lock (PostgreSQL only): the row is held (FOR SHARE) until the
     * transaction ends, so a removal (which updates the row first) either committed before, and the row no
     * longer matches, or waits for the caller's commit and then sees what it bound.
     */
    async user(
      orgId: string,
      idOrEmail: string,
      o: { lock?: boolean } = {},
    ): Promise<{ id: string; email: string } | undefined> {
      const column = idOrEmail.includes('@') ? 'email' : 'id';
      const q = db
        .selectFrom('users')
        .select(['id', 'email'])
        .where('org_id', '=', orgId)
        .where(column, '=', column === 'email' ? idOrEmail.toLowerCase() : idOrEmail)
        .where('removed_at', 'is', null);
      return (o.lock ? q.forShare() : q).executeTakeFirst();
    },
    /**
     * The current users among ids and e-mails, as ids and lower-case e-mails. lock (PostgreSQL only): the
     * rows found are held (FOR SHARE) until the transaction ends, as in user(): a write that names them
     * (a group's members, a policy's scope) and a removal of one of them then run one after the other.
     */
    async existingUsers(
      orgId: string,
      idsOrEmails: readonly string[],
      o: { lock?: boolean } = {},
    ): Promise<Set<string>> {
      if (idsOrEmails.length === 0) return new Set();
      const lower = idsOrEmails.map((x) => x.toLowerCase());
      const q = db
        .selectFrom('users')
        .select(['id', 'email'])
        .where('org_id', '=', orgId)
        .where('removed_at', 'is', null)
        .where((e) => e.or([e('id', 'in', idsOrEmails), e('email', 'in', lower)]));
      const rows = await (o.lock ? q.forShare() : q).execute();
      return new Set(rows.flatMap((r) => [r.id, r.email.toLowerCase()]));
    },
    /** `lock`: held until the transaction ends (FOR SHARE, PostgreSQL only): a deletion waits for it. */
    async existingGroups(
      orgId: string,
      ids: readonly string[],
      o: { lock?: boolean } = {},
    ): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const q = db
        .selectFrom('endpoint_groups')
        .select('id')
        .where('org_id', '=', orgId)
        .where('id', 'in', ids);
      const rows = await (o.lock ? q.forShare() : q).execute();
      return new Set(rows.map((r) => r.id));
    },
    async userGroups(orgId: string, userId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('endpoint_group_members')
        .select('group_id')
        .where('org_id', '=', orgId)
        .where('user_id', '=', userId)
        .execute();
      return rows.map((r) => r.group_id);
    },
    async insertGroup(orgId: string, id: string, name: string, at: string, userIds: string[]): Promise<void> {
      await db
        .insertInto('endpoint_groups')
        .values({ id, org_id: orgId, name, name_folded: foldName(name), created_at: at })
        .execute();
      if (userIds.length > 0) {
        await db
          .insertInto('endpoint_group_members')
          .values(userIds.map((u) => ({ org_id: orgId, group_id: id, user_id: u })))
          .execute();
      }
    },
    /** `lock`: FOR UPDATE (PostgreSQL only), as a deletion holds the group against writes that name it. */
    async group(orgId: string, id: string, o: { lock?: boolean } = {}) {
      const q = db.selectFrom('endpoint_groups').selectAll().where('org_id', '=', orgId).where('id', '=', id);
      return (o.lock ? q.forUpdate() : q).executeTakeFirst();
    },
    /** Renames a group and/or replaces its members (members: undefined keeps them). */
    async updateGroup(orgId: string, id: string, name: string | undefined, userIds: string[] | undefined) {
      if (name !== undefined) {
        await db
          .updateTable('endpoint_groups')
          .set({ name, name_folded: foldName(name) })
          .where('org_id', '=', orgId)
          .where('id', '=', id)
          .execute();
      }
      if (userIds !== undefined) {
        await db
          .deleteFrom('endpoint_group_members')
          .where('org_id', '=', orgId)
          .where('group_id', '=', id)
          .execute();
        if (userIds.length > 0) {
          await db
            .insertInto('endpoint_group_members')
            .values(userIds.map((u) => ({ org_id: orgId, group_id: id, user_id: u })))
            .execute();
        }
      }
    },
    /** Deletes a group, its memberships, and the bindings of devices and enrollment links to it. */
    async deleteGroup(orgId: string, id: string): Promise<{ devices: number; links: number }> {
      await db
        .deleteFrom('endpoint_group_members')
        .where('org_id', '=', orgId)
        .where('group_id', '=', id)
        .execute();
      const devices = await db
        .updateTable('endpoint_devices')
        .set({ group_id: null })
        .where('org_id', '=', orgId)
        .where('group_id', '=', id)
        .executeTakeFirst();
      const links = await db
        .updateTable('endpoint_enrollment_links')
        .set({ group_id: null })
        .where('org_id', '=', orgId)
        .where('group_id', '=', id)
        .executeTakeFirst();
      await db.deleteFrom('endpoint_groups').where('org_id', '=', orgId).where('id', '=', id).execute();
      return { devices: Number(devices.numUpdatedRows), links: Number(links.numUpdatedRows) };
    },
    /**
     * Takes a removed user out of the endpoint product: devices lose the binding, groups the membership, and
     * links still usable that would bind new devices to the user are revoked. Counts what changed.
     */
    async forgetUser(
      orgId: string,
      userId: string,
      at: string,
    ): Promise<{ devices: number; groups: number; links: number }> {
      const devices = await db
        .updateTable('endpoint_devices')
        .set({ user_id: null })
        .where('org_id', '=', orgId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      const groups = await db
        .deleteFrom('endpoint_group_members')
        .where('org_id', '=', orgId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      const links = await db
        .updateTable('endpoint_enrollment_links')
        .set({ revoked_at: at })
        .where('org_id', '=', orgId)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', at)
        .where((e) => e('uses', '<', e.ref('max_uses')))
        .executeTakeFirst();
      return {
        devices: Number(devices.numUpdatedRows),
        groups: Number(groups.numDeletedRows),
        links: Number(links.numUpdatedRows),
      };
    },
    async groups(orgId: string) {
      const groups = await db
        .selectFrom('endpoint_groups')
        .selectAll()
        .where('org_id', '=', orgId)
        .orderBy('created_at')
        .execute();
      const members = await db
        .selectFrom('endpoint_group_members')
        .select(['group_id', 'user_id'])
        .where('org_id', '=', orgId)
        .execute();
      return groups.map((g) => ({
        ...g,
        userIds: members.filter((m) => m.group_id === g.id).map((m) => m.user_id),
      }));
    },

    // ----- enrollment links -----
    async insertLink(row: LinkRow): Promise<void> {
      await db.insertInto('endpoint_enrollment_links').values(row).execute();
    },
    async linkByCodeHash(hash: string): Promise<LinkRow | undefined> {
      return db
        .selectFrom('endpoint_enrollment_links')
        .selectAll()
        .where('code_hash', '=', hash)
        .executeTakeFirst();
    },
    async link(orgId: string, id: string): Promise<LinkRow | undefined> {
      return db
        .selectFrom('endpoint_enrollment_links')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    async links(orgId: string): Promise<LinkRow[]> {
      return db
        .selectFrom('endpoint_enrollment_links')
        .selectAll()
        .where('org_id', '=', orgId)
        .orderBy('created_at', 'desc')
        .limit(500)
        .execute();
    },
    /**
     * Takes one use if the link is still usable at `at` (not revoked, not expired, a use left); false when
     * another transaction took the last use or revoked it since the caller read it.
     */
    async useLink(orgId: string, id: string, at: string): Promise<boolean> {
      const r = await db
        .updateTable('endpoint_enrollment_links')
        .set((e) => ({ uses: e('uses', '+', 1) }))
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', at)
        .where((e) => e('uses', '<', e.ref('max_uses')))
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async revokeLink(orgId: string, id: string, at: string): Promise<void> {
      await db
        .updateTable('endpoint_enrollment_links')
        .set({ revoked_at: at })
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .execute();
    },

    // ----- policies -----
    async insertPolicy(row: PolicyRow): Promise<void> {
      await db.insertInto('endpoint_policies').values(row).execute();
    },
    /** lock (PostgreSQL only): holds the row until the transaction ends, so a read-merge-write is atomic. */
    async policy(orgId: string, id: string, o: { lock?: boolean } = {}): Promise<PolicyRow | undefined> {
      const q = db
        .selectFrom('endpoint_policies')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('id', '=', id);
      return (o.lock ? q.forUpdate() : q).executeTakeFirst();
    },
    /**
     * lock (PostgreSQL only): every policy of the organization is held (FOR UPDATE) until the transaction
     * ends, for a change that rewrites several (a user's removal): a policy change committed meanwhile is
     * read as committed, never written over from an older copy. Rows are locked in the order listed
     * (created_at, then id), the same for every such change.
     */
    async policies(orgId: string, o: { lock?: boolean } = {}): Promise<PolicyRow[]> {
      const q = db
        .selectFrom('endpoint_policies')
        .selectAll()
        .where('org_id', '=', orgId)
        .orderBy('created_at')
        .orderBy('id');
      return (o.lock ? q.forUpdate() : q).execute();
    },
    async updatePolicy(orgId: string, id: string, set: Partial<PolicyRow>): Promise<void> {
      await db
        .updateTable('endpoint_policies')
        .set(set)
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .execute();
    },
    async deletePolicy(orgId: string, id: string): Promise<boolean> {
      const r = await db
        .deleteFrom('endpoint_policies')
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    // ----- organization state: settings, DNS configuration, config version -----
    async state(orgId: string) {
      return db.selectFrom('endpoint_org_state').selectAll().where('org_id', '=', orgId).executeTakeFirst();
    },
    /**
     * The state row, created (version 1, no settings: the defaults) if the organization has none yet, and
     * locked until the transaction ends on PostgreSQL: a change merged over it cannot lose another's.
     */
    async lockedState(orgId: string, at: string, lock: boolean) {
      await db
        .insertInto('endpoint_org_state')
        .values({ org_id: orgId, settings: '{}', dns_config: null, config_version: 1, updated_at: at })
        .onConflict((oc) => oc.column('org_id').doNothing())
        .execute();
      const q = db.selectFrom('endpoint_org_state').selectAll().where('org_id', '=', orgId);
      return (lock ? q.forUpdate() : q).executeTakeFirstOrThrow();
    },
    /** Writes what is given and bumps the config version, creating the row on first use. */
    async bumpState(
      orgId: string,
      at: string,
      set: { settings?: string; dns_config?: string } = {},
    ): Promise<number> {
      const existing = await this.state(orgId);
      if (!existing) {
        await db
          .insertInto('endpoint_org_state')
          .values({
            org_id: orgId,
            settings: set.settings ?? '{}',
            dns_config: set.dns_config ?? null,
            config_version: 2,
            updated_at: at,
          })
          .execute();
        return 2;
      }
      // The version the update wrote, not the one read before it: a concurrent bump on PostgreSQL
      // (READ COMMITTED) applies its +1 over the other's, and both used to answer the same number.
      const r = await db
        .updateTable('endpoint_org_state')
        .set((e) => ({ ...set, updated_at: at, config_version: e('config_version', '+', 1) }))
        .where('org_id', '=', orgId)
        .returning('config_version')
        .executeTakeFirstOrThrow();
      return Number(r.config_version);
    },

    // ----- alerts, logs, statistics -----
    async insertAlert(row: EndpointAlertsTable): Promise<boolean> {
      const r = await db
        .insertInto('endpoint_alerts')
        .values(row)
        .onConflict((oc) => oc.columns(['org_id', 'device_id', 'client_id']).doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
    async alertByClientId(orgId: string, deviceId: string, clientId: string) {
      return db
        .selectFrom('endpoint_alerts')
        .select('id')
        .where('org_id', '=', orgId)
        .where('device_id', '=', deviceId)
        .where('client_id', '=', clientId)
        .executeTakeFirst();
    },
    async insertLogs(rows: EndpointLogsTable[]): Promise<number> {
      const r = await db
        .insertInto('endpoint_logs')
        .values(rows)
        .onConflict((oc) => oc.columns(['org_id', 'device_id', 'client_id']).doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0n);
    },
    async purgeLogs(orgId: string, before: string): Promise<number> {
      const r = await db
        .deleteFrom('endpoint_logs')
        .where('org_id', '=', orgId)
        .where('created_at', '<', before)
        .executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    async orgsWithLogs(): Promise<string[]> {
      const rows = await db.selectFrom('endpoint_logs').select('org_id').distinct().execute();
      return rows.map((r) => r.org_id);
    },
    async addStats(orgId: string, deltas: readonly StatsDelta[]): Promise<void> {
      if (deltas.length === 0) return;
      await db
        .insertInto('endpoint_stats')
        .values(
          deltas.map((d) => ({
            org_id: orgId,
            source_id: d.sourceId,
            hour: d.hour,
            service_domain: d.domain,
            interactions: d.interactions,
            blocked_unapproved: d.unapproved,
            blocked_dlp: d.dlp,
            blocked_policy: d.policy,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['org_id', 'hour', 'source_id', 'service_domain']).doUpdateSet((e) => ({
            interactions: sql`${e.ref('endpoint_stats.interactions')} + ${e.ref('excluded.interactions')}`,
            blocked_unapproved: sql`${e.ref('endpoint_stats.blocked_unapproved')} + ${e.ref('excluded.blocked_unapproved')}`,
            blocked_dlp: sql`${e.ref('endpoint_stats.blocked_dlp')} + ${e.ref('excluded.blocked_dlp')}`,
            blocked_policy: sql`${e.ref('endpoint_stats.blocked_policy')} + ${e.ref('excluded.blocked_policy')}`,
          })),
        )
        .execute();
    },
    async statsByDomain(orgId: string, fromHour: string) {
      return db
        .selectFrom('endpoint_stats')
        .select((e) => [
          'service_domain',
          e.fn.sum<number>('interactions').as('interactions'),
          e.fn.sum<number>('blocked_unapproved').as('unapproved'),
          e.fn.sum<number>('blocked_dlp').as('dlp'),
          e.fn.sum<number>('blocked_policy').as('policy'),
        ])
        .where('org_id', '=', orgId)
        .where('hour', '>=', fromHour)
        .groupBy('service_domain')
        .execute();
    },
    async statsByUser(orgId: string, fromHour: string, limit: number) {
      return db
        .selectFrom('endpoint_stats as s')
        .innerJoin('endpoint_devices as d', (j) =>
          j.onRef('d.id', '=', 's.source_id').onRef('d.org_id', '=', 's.org_id'),
        )
        .select((e) => [
          'd.user_id',
          e.fn.sum<number>('s.interactions').as('interactions'),
          e.fn.sum<number>(sql`s.blocked_unapproved + s.blocked_dlp + s.blocked_policy`).as('blocked'),
        ])
        .where('s.org_id', '=', orgId)
        .where('s.hour', '>=', fromHour)
        .where('d.user_id', 'is not', null)
        .groupBy('d.user_id')
        .orderBy('interactions', 'desc')
        .orderBy('d.user_id')
        .limit(limit)
        .execute();
    },
  };
}

export type EndpointRepo = ReturnType<typeof createEndpointRepo>;
