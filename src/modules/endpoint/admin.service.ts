import type { Clock } from '../../platform/clock/index.js';
import { newId } from '../../platform/crypto/index.js';
import { AppError, invalid, notFound } from '../../platform/errors/index.js';
import { type Db, type DialectName, isUniqueViolation } from '../../platform/storage/index.js';
import { normalizeHost } from './domains.js';
import { readForwarder } from './forwarders.js';
import { type Actor, type EndpointPublish, auditData } from './endpoint.events.js';
import { createEndpointRepo, type PolicyRow } from './endpoint.repo.js';
import type {
  DnsConfig,
  GroupBody,
  GroupPatch,
  PolicyBody,
  PolicyPatch,
  PolicyRules,
  SettingsBody,
} from './endpoint.schemas.js';
import type { StoredPolicy } from './policy-merge.js';
import type { OrgRef } from './devices.service.js';
import type { OrgStateStore } from './state.js';

/** An allowed extension version: exact, or with one trailing `.*` wildcard (docs/endpoint.md, "Settings"). */
const VERSION_RULE = /^\d+(\.\d+){0,2}$|^\d+(\.\d+)?\.\*$/;

// A plain address check (one @, no spaces, a dot in the domain): the block page only links to it.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Group names are unique per organization whatever their case (foldName, migration 0064): a clash is a 409. */
function groupNameTaken(err: unknown): never {
  if (isUniqueViolation(err))
    throw new AppError('conflict', 'A group of this name already exists (names are compared without case).');
  throw err;
}

export function toPolicy(row: PolicyRow): StoredPolicy & { createdAt: string } {
  return {
    id: row.id,
    name: row.name,
    scope: { type: row.scope_type as StoredPolicy['scope']['type'], targets: JSON.parse(row.scope_targets) },
    rules: JSON.parse(row.rules) as PolicyRules,
    enforcement: row.enforcement as StoredPolicy['enforcement'],
    enabled: row.enabled === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Domains in rules are stored lower-case, without duplicates. */
function normalizeRules(rules: PolicyRules): PolicyRules {
  const out: PolicyRules = structuredClone(rules);
  if (out.aiServices) {
    out.aiServices.allowed = out.aiServices.allowed?.map((a) => ({ ...a, domain: normalizeHost(a.domain) }));
    out.aiServices.blocked = out.aiServices.blocked?.map((b) => ({
      ...b,
      domain: normalizeHost(b.domain),
      ...(b.except ? { except: b.except.map(normalizeHost) } : {}),
    }));
  }
  if (out.dataProtection?.blockCopyPaste) {
    out.dataProtection.blockCopyPaste.patterns = [...new Set(out.dataProtection.blockCopyPaste.patterns)];
  }
  return out;
}

/** Policies, settings, groups and DNS configuration: every change audited and bumping the config version. */
export function createAdminService(deps: {
  db: Db;
  /** PostgreSQL locks the rows a change reads first; SQLite's write transactions are serial already. */
  dialect: DialectName;
  clock: Clock;
  state: OrgStateStore;
  publish: EndpointPublish;
}) {
  const { db, clock } = deps;
  const repo = createEndpointRepo(db);
  const postgres = deps.dialect === 'postgres';

  /**
   * Scope targets must exist in the organization: a typo would otherwise silently apply to nobody. Only the
   * targets a write adds are checked: `stored` (an update's current scope) may name a target that has gone
   * since (removed users leave scopes at removal, a policy stored before that may still name one), and a
   * PATCH that disables or renames the policy must not fail on it. A scope with no target (what a user's
   * removal leaves) is accepted only unchanged and disabled.
   */
  async function checkScope(
    r: ReturnType<typeof createEndpointRepo>,
    orgId: string,
    p: PolicyBody,
    stored?: StoredPolicy['scope'],
  ): Promise<string[]> {
    const trimmed = [...new Set(p.scope.targets.map((t) => t.trim()))];
    if (p.scope.type === 'organization') {
      const bad = trimmed.find((t) => t !== orgId);
      if (bad)
        throw invalid(
          `scope.targets of an organization policy may only name this organization (${orgId}); got ${bad}.`,
        );
      return trimmed;
    }
    // User targets are stored with e-mails lower-case; compared with what is stored in the same form.
    const norm = (t: string) => (p.scope.type === 'user' && t.includes('@') ? t.toLowerCase() : t);
    const targets = [...new Set(trimmed.map(norm))];
    const kept = new Set(stored?.type === p.scope.type ? stored.targets.map(norm) : []);
    if (targets.length === 0 && (p.enabled !== false || kept.size > 0 || stored?.type !== p.scope.type))
      throw invalid(`scope.targets must name at least one ${p.scope.type}.`);
    const added = targets.filter((t) => !kept.has(t));
    const known =
      p.scope.type === 'group'
        ? // Held until the commit (PostgreSQL: FOR SHARE): a deletion of the group at the same time either
          // committed first (the group is unknown here) or waits, then finds this policy naming it (409).
          await r.existingGroups(orgId, added, { lock: postgres })
        : await r.existingUsers(orgId, added);
    const missing = added.filter(
      (t) => !known.has(p.scope.type === 'user' ? t.toLowerCase() : t) && !known.has(t),
    );
    if (missing.length > 0)
      throw invalid(
        `scope.targets: no ${p.scope.type} ${missing.slice(0, 5).join(', ')} in this organization.`,
      );
    return targets;
  }

  /** A group change: bumps the config version and writes its audit event, in the caller's transaction. */
  async function auditGroup(trx: Db, org: OrgRef, action: string, id: string, by: Actor, detail: object) {
    const configVersion = await deps.state.bump(trx, org.id);
    await deps.publish(
      trx,
      org,
      'audit.endpoint_settings',
      auditData(action, { kind: 'group', id }, by, { ...detail, configVersion }),
    );
  }

  /**
   * Every user id must name a user of the organization. The users are held until the change commits
   * (PostgreSQL: FOR SHARE): a removal of one of them running at the same time either committed first (the
   * user is missing here) or waits for this commit and then takes the user out of the group it joined.
   */
  async function checkMembers(r: ReturnType<typeof createEndpointRepo>, orgId: string, userIds: string[]) {
    const known = await r.existingUsers(orgId, userIds, { lock: postgres });
    const missing = userIds.filter((u) => !known.has(u));
    if (missing.length > 0)
      throw invalid(`userIds: no user ${missing.slice(0, 5).join(', ')} in this organization.`);
  }

  function checkRules(rules: PolicyRules): void {
    const ai = rules.aiServices;
    if (ai?.mode === 'allowlist' && ai.blocked?.length && !ai.allowed?.length) {
      throw invalid(
        'rules.aiServices: an allowlist needs rules.aiServices.allowed (blocked is for blocklists).',
      );
    }
    if (ai?.mode === 'blocklist' && !ai.blocked?.length) {
      throw invalid('rules.aiServices: a blocklist needs at least one rules.aiServices.blocked entry.');
    }
    for (const a of ai?.allowed ?? []) {
      if (a.conditions?.maxInputLength !== undefined && a.conditions.maxInputLength < 1) {
        throw invalid('rules.aiServices.allowed[].conditions.maxInputLength must be positive.');
      }
    }
  }

  /**
   * Creates a policy (id null) or changes one: `body` gives the whole policy from the stored row read in the
   * transaction (undefined when creating), so a change applies over the latest row, never over a copy read
   * before another change committed. The row is locked first on PostgreSQL (SELECT … FOR UPDATE); SQLite's
   * write transactions (BEGIN IMMEDIATE) already run one at a time.
   *
   * `sent`: the scope the request itself gives. Before the policy row, the users it names are held
   * (PostgreSQL: FOR SHARE) until the commit, in the order a user's removal takes them (the user's row,
   * then the policies): a removal at the same time either committed first, and a user it removed is an
   * unknown target here, or waits for this commit and then takes the user out of the scope written.
   */
  async function writePolicy(
    org: OrgRef,
    by: Actor,
    id: string | null,
    sent: PolicyBody['scope'] | undefined,
    body: (current: StoredPolicy | undefined) => PolicyBody,
  ) {
    if (id === null) checkRules(body(undefined).rules);
    return db.transaction().execute(async (trx) => {
      const r = createEndpointRepo(trx);
      if (postgres && sent?.type === 'user')
        await r.existingUsers(
          org.id,
          sent.targets.map((t) => t.trim()),
          { lock: true },
        );
      let existing: PolicyRow | undefined;
      if (id !== null) {
        existing = await r.policy(org.id, id, { lock: postgres });
        if (!existing) throw notFound('Policy');
      }
      const stored = existing ? toPolicy(existing) : undefined;
      const p = body(stored);
      if (id !== null) checkRules(p.rules);
      // Only targets the change adds are checked: a removed user's policy can still be switched off.
      const targets = await checkScope(r, org.id, p, stored?.scope);
      const now = clock.now().toISOString();
      const fields = {
        name: p.name.trim(),
        scope_type: p.scope.type,
        scope_targets: JSON.stringify(targets),
        rules: JSON.stringify(normalizeRules(p.rules)),
        enforcement: p.enforcement,
        enabled: p.enabled === false ? 0 : 1,
        updated_at: now,
      };
      let row: PolicyRow;
      if (id === null) {
        row = { id: newId('pol'), org_id: org.id, created_at: now, ...fields };
        await r.insertPolicy(row);
      } else {
        await r.updatePolicy(org.id, id, fields);
        row = (await r.policy(org.id, id)) as PolicyRow;
      }
      const configVersion = await deps.state.bump(trx, org.id);
      await deps.publish(
        trx,
        org,
        'audit.endpoint_policy',
        auditData(id === null ? 'created' : 'updated', { kind: 'policy', id: row.id }, by, {
          name: row.name,
          scope: p.scope.type,
          enforcement: row.enforcement,
          enabled: row.enabled === 1,
          configVersion,
        }),
      );
      return toPolicy(row);
    });
  }

  return {
    createPolicy: (org: OrgRef, body: PolicyBody, by: Actor) =>
      writePolicy(org, by, null, body.scope, () => body),

    /** Applies only the fields the patch names, over the row as it is when the change takes its lock. */
    updatePolicy: (org: OrgRef, id: string, patch: PolicyPatch, by: Actor) =>
      writePolicy(org, by, id, patch.scope, (cur) => {
        const c = cur as StoredPolicy;
        return {
          name: patch.name ?? c.name,
          scope: patch.scope ?? c.scope,
          rules: patch.rules ?? c.rules,
          enforcement: patch.enforcement ?? c.enforcement,
          enabled: patch.enabled ?? c.enabled,
        };
      }),

    async deletePolicy(org: OrgRef, id: string, by: Actor) {
      await db.transaction().execute(async (trx) => {
        const r = createEndpointRepo(trx);
        const existing = await r.policy(org.id, id);
        if (!existing || !(await r.deletePolicy(org.id, id))) throw notFound('Policy');
        const configVersion = await deps.state.bump(trx, org.id);
        await deps.publish(
          trx,
          org,
          'audit.endpoint_policy',
          auditData('deleted', { kind: 'policy', id }, by, { name: existing.name, configVersion }),
        );
      });
      return { success: true, id };
    },

    async listPolicies(orgId: string) {
      return (await repo.policies(orgId)).map(toPolicy);
    },

    async settings(orgId: string) {
      const st = await deps.state.get(orgId);
      return { ...st.settings, configVersion: st.version };
    },

    /**
     * Merges the body over the settings as stored, read in the write transaction after the organization's
     * state row is locked: not over the cached state (up to a second old, and per server), whose merge
     * wrote back whole an object that undid a change made meanwhile here or on another server.
     */
    async updateSettings(org: OrgRef, body: SettingsBody, by: Actor) {
      body.allowedExtensionVersions?.forEach((v, i) => {
        // versionAllowed() compares a prefix before a final `.*` only: `1.*.5` would never match anything
        // and silently put every device on updateRequired.
        if (!VERSION_RULE.test(v))
          throw invalid(
            `allowedExtensionVersions[${i}] ('${v}') must be an exact version (1.4.0) or a version ending in .* (1.4.*, 1.*): a * may only be the last part.`,
          );
      });
      const out = await db.transaction().execute(async (trx) => {
        const stored = await deps.state.lockStored(trx, org.id, deps.dialect);
        const cur = stored.settings;
        const next = { ...cur, ...body };
        // A save that changes nothing (the dashboard's form sent again, a script that sets what is set)
        // moves no version: a new version makes every device of the organization fetch its config again,
        // and each save wrote an audit event that named fields nobody changed.
        const changed = (Object.keys(body) as Array<keyof typeof cur>).filter(
          (k) => JSON.stringify(cur[k]) !== JSON.stringify(next[k]),
        );
        if (changed.length === 0) return { ...cur, configVersion: stored.version };
        const v = await deps.state.bump(trx, org.id, { settings: next });
        await deps.publish(
          trx,
          org,
          'audit.endpoint_settings',
          auditData('updated', { kind: 'settings', id: org.id }, by, {
            changed,
            configVersion: v,
          }),
        );
        return { ...next, configVersion: v };
      });
      deps.state.forget(org.id);
      return out;
    },

    async createGroup(org: OrgRef, body: GroupBody, by: Actor) {
      const now = clock.now().toISOString();
      const id = newId('grp');
      const userIds = [...new Set(body.userIds ?? [])];
      await db
        .transaction()
        .execute(async (trx) => {
          const r = createEndpointRepo(trx);
          await checkMembers(r, org.id, userIds);
          await r.insertGroup(org.id, id, body.name.trim(), now, userIds);
          await auditGroup(trx, org, 'group_created', id, by, { members: userIds.length });
        })
        .catch(groupNameTaken);
      return { id, name: body.name.trim(), userIds, createdAt: now };
    },

    /** Renames a group or replaces its members; devices of its members get the new config version. */
    async updateGroup(org: OrgRef, id: string, patch: GroupPatch, by: Actor) {
      const userIds = patch.userIds ? [...new Set(patch.userIds)] : undefined;
      const name = patch.name?.trim();
      if (name === '') throw invalid('name must not be blank.');
      return db
        .transaction()
        .execute(async (trx) => {
          const r = createEndpointRepo(trx);
          const existing = await r.group(org.id, id);
          if (!existing) throw notFound('Group');
          if (userIds) await checkMembers(r, org.id, userIds);
          await r.updateGroup(org.id, id, name, userIds);
          await auditGroup(trx, org, 'group_updated', id, by, {
            changed: Object.keys(patch),
            ...(userIds ? { members: userIds.length } : {}),
          });
          const after = (await r.groups(org.id)).find((g) => g.id === id);
          return {
            id,
            name: after?.name ?? existing.name,
            userIds: after?.userIds ?? [],
            createdAt: existing.created_at,
          };
        })
        .catch(groupNameTaken);
    },

    /**
     * Deletes a group. Refused while a policy's scope names it (the policy would silently apply to nobody);
     * devices and enrollment links bound to it lose the binding, in the same transaction.
     */
    async deleteGroup(org: OrgRef, id: string, by: Actor) {
      return db.transaction().execute(async (trx) => {
        const r = createEndpointRepo(trx);
        // Held (PostgreSQL: FOR UPDATE) before the policies are read: a policy write that names this group
        // holds it FOR SHARE, so it committed before this read (409 below) or finds the group gone.
        if (!(await r.group(org.id, id, { lock: postgres }))) throw notFound('Group');
        const naming = (await r.policies(org.id))
          .map(toPolicy)
          .filter((p) => p.scope.type === 'group' && p.scope.targets.includes(id));
        if (naming.length > 0) {
          throw new AppError(
            'conflict',
            `The group is named by the scope of ${naming.length} polic${naming.length === 1 ? 'y' : 'ies'} (${naming
              .slice(0, 5)
              .map((p) => p.id)
              .join(', ')}); change or delete them first.`,
          );
        }
        const unbound = await r.deleteGroup(org.id, id);
        await auditGroup(trx, org, 'group_deleted', id, by, {
          unboundDevices: unbound.devices,
          unboundLinks: unbound.links,
        });
        return { success: true, id };
      });
    },

    async listGroups(orgId: string) {
      return (await repo.groups(orgId)).map((g) => ({
        id: g.id,
        name: g.name,
        userIds: g.userIds,
        createdAt: g.created_at,
      }));
    },

    async dnsConfig(orgId: string) {
      const st = await deps.state.get(orgId);
      if (!st.dns) return null;
      const p = st.dns.blockPage;
      const blockPage = { enabled: p.enabled, message: p.message ?? '', contactEmail: p.contactEmail ?? '' };
      return { ...st.dns, blockPage, updatedAt: st.updatedAt };
    },

    async setDnsConfig(org: OrgRef, body: DnsConfig, by: Actor) {
      if (
        body.enabled &&
        body.integration.type === 'dns_forwarder' &&
        body.integration.forwarders.length === 0
      ) {
        throw invalid(
          'integration.forwarders must name at least one upstream resolver for the dns_forwarder type.',
        );
      }
      const page = {
        enabled: body.blockPage.enabled,
        message: body.blockPage.message?.trim() ?? '',
        contactEmail: body.blockPage.contactEmail?.trim() ?? '',
      };
      // Only a page that is shown needs its text; the contact line is optional (left out when empty).
      if (page.enabled && page.message === '')
        throw invalid('blockPage.message must not be blank while blockPage.enabled is true.');
      if (page.contactEmail !== '' && !EMAIL.test(page.contactEmail))
        throw invalid('blockPage.contactEmail must be an e-mail address, or empty for no contact line.');
      body.integration.forwarders.forEach((text, i) => {
        const f = readForwarder(text);
        if ('problem' in f) throw invalid(`integration.forwarders[${i}] ('${text}') ${f.problem}.`);
      });
      const dns = {
        ...body,
        blockPage: page,
        blockedDomains: [...new Set(body.blockedDomains.map(normalizeHost))],
        allowedDomains: [...new Set(body.allowedDomains.map(normalizeHost))],
      };
      const updatedAt = await db.transaction().execute(async (trx) => {
        const v = await deps.state.bump(trx, org.id, { dns });
        await deps.publish(
          trx,
          org,
          'audit.endpoint_dns',
          auditData('updated', { kind: 'dns_config', id: org.id }, by, {
            enabled: dns.enabled,
            blockedDomains: dns.blockedDomains.length,
            allowedDomains: dns.allowedDomains.length,
            integration: dns.integration.type,
            configVersion: v,
          }),
        );
        // The time stored with the change, so the answer and a later GET agree.
        return (await createEndpointRepo(trx).state(org.id))?.updated_at ?? null;
      });
      deps.state.forget(org.id);
      return { ...dns, updatedAt };
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
