import type { Kysely } from 'kysely';

/**
 * Users removed before a removal let go of them in the endpoint product (docs/endpoint.md, "Removing a
 * user") left behind what a removal now clears in its transaction: devices bound to them, group
 * memberships, enrollment links that would still bind new devices to them, and user-scoped policies naming
 * them by id or by e-mail (the e-mail no longer matched anyone, and the policy could not even be disabled:
 * every PATCH re-checked it). This does the same for them: devices unbound, memberships dropped, usable
 * links revoked, scope targets that name no current user of the organization dropped (creation refused
 * any other kind, so only removals left such targets), a policy left with none disabled. Organizations
 * where something changed get a new config version, so their devices fetch their config again.
 */
interface Tables {
  users: { id: string; org_id: string; email: string; removed_at: string | null };
  endpoint_devices: { org_id: string; user_id: string | null };
  endpoint_group_members: { org_id: string; user_id: string };
  endpoint_enrollment_links: {
    org_id: string;
    user_id: string | null;
    revoked_at: string | null;
    expires_at: string;
    uses: number;
    max_uses: number;
  };
  endpoint_policies: {
    id: string;
    org_id: string;
    scope_type: string;
    scope_targets: string;
    enabled: number;
    updated_at: string;
  };
  endpoint_org_state: {
    org_id: string;
    settings: string;
    dns_config: string | null;
    config_version: number;
    updated_at: string;
  };
}

export async function up(raw: Kysely<unknown>): Promise<void> {
  const db = raw as unknown as Kysely<Tables>;
  const now = new Date().toISOString();
  const removed = await db
    .selectFrom('users')
    .select(['id', 'org_id'])
    .where('removed_at', 'is not', null)
    .execute();
  const touched = new Set<string>();
  const removedIds = removed.map((u) => u.id);
  for (let i = 0; i < removedIds.length; i += 500) {
    const ids = removedIds.slice(i, i + 500);
    const orgsOf = async (
      table: 'endpoint_devices' | 'endpoint_group_members' | 'endpoint_enrollment_links',
    ) =>
      (await db.selectFrom(table).select('org_id').where('user_id', 'in', ids).execute()).map(
        (r) => r.org_id,
      );
    for (const org of [...(await orgsOf('endpoint_devices')), ...(await orgsOf('endpoint_group_members'))])
      touched.add(org);
    await db.updateTable('endpoint_devices').set({ user_id: null }).where('user_id', 'in', ids).execute();
    await db.deleteFrom('endpoint_group_members').where('user_id', 'in', ids).execute();
    const links = db
      .selectFrom('endpoint_enrollment_links')
      .select('org_id')
      .where('user_id', 'in', ids)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .where((e) => e('uses', '<', e.ref('max_uses')));
    for (const r of await links.execute()) touched.add(r.org_id);
    await db
      .updateTable('endpoint_enrollment_links')
      .set({ revoked_at: now })
      .where('user_id', 'in', ids)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .where((e) => e('uses', '<', e.ref('max_uses')))
      .execute();
  }

  const policies = await db
    .selectFrom('endpoint_policies')
    .selectAll()
    .where('scope_type', '=', 'user')
    .execute();
  const live = new Map<string, Set<string>>();
  for (const u of await db
    .selectFrom('users')
    .select(['id', 'org_id', 'email'])
    .where('removed_at', 'is', null)
    .execute()) {
    const names = live.get(u.org_id) ?? new Set<string>();
    names.add(u.id).add(u.email.toLowerCase());
    live.set(u.org_id, names);
  }
  for (const p of policies) {
    const targets = JSON.parse(p.scope_targets) as string[];
    const names = live.get(p.org_id) ?? new Set<string>();
    const kept = targets.filter((t) => names.has(t) || names.has(t.toLowerCase()));
    if (kept.length === targets.length) continue;
    await db
      .updateTable('endpoint_policies')
      .set({
        scope_targets: JSON.stringify(kept),
        updated_at: now,
        ...(kept.length === 0 ? { enabled: 0 } : {}),
      })
      .where('id', '=', p.id)
      .execute();
    touched.add(p.org_id);
  }

  // As the endpoint state store bumps: an organization without a state row is at version 1 and gets 2.
  for (const org of touched) {
    const r = await db
      .updateTable('endpoint_org_state')
      .set((e) => ({ config_version: e('config_version', '+', 1), updated_at: now }))
      .where('org_id', '=', org)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0)
      await db
        .insertInto('endpoint_org_state')
        .values({ org_id: org, settings: '{}', dns_config: null, config_version: 2, updated_at: now })
        .execute();
  }
}

export async function down(): Promise<void> {
  // What was cleared named users who are gone; there is nothing to put back.
}
