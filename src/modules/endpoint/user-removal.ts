import type { Clock } from '../../platform/clock/index.js';
import type { Db, DialectName } from '../../platform/storage/index.js';
import { toPolicy } from './admin.service.js';
import type { OrgRef } from './devices.service.js';
import { type EndpointPublish, auditData } from './endpoint.events.js';
import { createEndpointRepo } from './endpoint.repo.js';
import type { OrgStateStore } from './state.js';

/**
 * What the endpoint product does when the orgs module removes a user, in the removal's transaction
 * (docs/endpoint.md, "Removing a user"): the user's devices stay enrolled but lose the binding (their alerts
 * and config no longer name a user who is gone), the user leaves every group, links that would still bind
 * new devices to the user are revoked (an administrator makes a new link for whoever gets the laptop), and
 * user-scoped policies stop naming the user, by id or by e-mail. A policy left with no target is disabled
 * and kept, with its rules, for an administrator to give it new targets: enabled with no target it would
 * apply to nobody while looking active. One audit event says what changed; ids and counts only.
 *
 * On PostgreSQL the policies are read locked (FOR UPDATE): read unlocked, a policy PATCH committed between
 * this read and the write below was written over from the older copy (its change lost), and one that named
 * the user just then was not seen at all. The user's row is already held by the removal's update; writes
 * that name a user (policy scopes, group members, bindings) hold that row too (FOR SHARE) before anything
 * else, so they run wholly before the removal, which then sees what they wrote, or wholly after it, when
 * the user is gone and they are refused. SQLite's write transactions run one at a time already.
 */
export function createUserRemoval(deps: {
  clock: Clock;
  state: OrgStateStore;
  publish: EndpointPublish;
  dialect: DialectName;
}) {
  return async (
    trx: Db,
    org: OrgRef,
    user: { id: string; email: string },
    by: { userId: string | null },
  ): Promise<void> => {
    const r = createEndpointRepo(trx);
    const now = deps.clock.now().toISOString();
    const unbound = await r.forgetUser(org.id, user.id, now);
    const email = user.email.toLowerCase();
    const names = (t: string) => t === user.id || t.toLowerCase() === email;
    const changed: string[] = [];
    const disabled: string[] = [];
    for (const p of (await r.policies(org.id, { lock: deps.dialect === 'postgres' })).map(toPolicy)) {
      if (p.scope.type !== 'user' || !p.scope.targets.some(names)) continue;
      const targets = p.scope.targets.filter((t) => !names(t));
      await r.updatePolicy(org.id, p.id, {
        scope_targets: JSON.stringify(targets),
        ...(targets.length === 0 ? { enabled: 0 } : {}),
        updated_at: now,
      });
      changed.push(p.id);
      if (targets.length === 0 && p.enabled) disabled.push(p.id);
    }
    if (unbound.devices + unbound.groups + unbound.links + changed.length === 0) return;
    const configVersion = await deps.state.bump(trx, org.id);
    await deps.publish(
      trx,
      org,
      'audit.endpoint_settings',
      auditData(
        'user_removed',
        { kind: 'user', id: user.id },
        { userId: by.userId, apiKeyId: null, deviceId: null },
        {
          unboundDevices: unbound.devices,
          groupsLeft: unbound.groups,
          revokedLinks: unbound.links,
          policiesChanged: changed,
          policiesDisabled: disabled,
          configVersion,
        },
      ),
    );
  };
}
