import type { PolicyRules } from './endpoint.schemas.js';

export type ScopeType = 'organization' | 'group' | 'user';

export interface StoredPolicy {
  id: string;
  name: string;
  scope: { type: ScopeType; targets: string[] };
  rules: PolicyRules;
  enforcement: 'block' | 'warn' | 'log';
  enabled: boolean;
  updatedAt: string;
}

export interface DeviceSubject {
  orgId: string;
  userId: string | null;
  userEmail: string | null;
  /** The device's own group (from its enrollment link) and the groups of its user. */
  groupIds: readonly string[];
}

const LEVEL: Record<ScopeType, number> = { organization: 0, group: 1, user: 2 };

/** Whether a policy applies to a device; an organization policy with no targets applies to everyone. */
export function appliesTo(p: StoredPolicy, s: DeviceSubject): boolean {
  if (!p.enabled) return false;
  const t = p.scope.targets;
  switch (p.scope.type) {
    case 'organization':
      return t.length === 0 || t.includes(s.orgId);
    case 'group':
      return s.groupIds.some((g) => t.includes(g));
    case 'user':
      return (
        (s.userId !== null && t.includes(s.userId)) ||
        (s.userEmail !== null && t.some((x) => x.toLowerCase() === s.userEmail))
      );
  }
}

export interface EffectivePolicy {
  enforcement: 'block' | 'warn' | 'log';
  rules: PolicyRules;
  /** The policies that contributed, from the broadest to the most specific. */
  applied: Array<{ id: string; name: string; scope: ScopeType }>;
}

/**
 * Precedence organization → group → user (docs/endpoint.md): policies are applied from the broadest scope
 * to the narrowest, and within a scope from the oldest change to the newest. A later policy replaces each
 * rule section field it sets (aiServices as a whole, since its mode and lists only make sense together;
 * dataProtection and logging field by field); enforcement is the most specific policy's.
 */
export function mergePolicies(
  policies: readonly StoredPolicy[],
  subject: DeviceSubject,
  defaultEnforcement: 'block' | 'warn' | 'log',
): EffectivePolicy {
  const ordered = policies
    .filter((p) => appliesTo(p, subject))
    .sort(
      (a, b) =>
        LEVEL[a.scope.type] - LEVEL[b.scope.type] ||
        a.updatedAt.localeCompare(b.updatedAt) ||
        a.id.localeCompare(b.id),
    );
  let enforcement = defaultEnforcement;
  const rules: PolicyRules = {};
  for (const p of ordered) {
    enforcement = p.enforcement;
    if (p.rules.aiServices) rules.aiServices = p.rules.aiServices;
    if (p.rules.dataProtection) rules.dataProtection = { ...rules.dataProtection, ...p.rules.dataProtection };
    if (p.rules.logging) rules.logging = { ...rules.logging, ...p.rules.logging };
  }
  return {
    enforcement,
    rules,
    applied: ordered.map((p) => ({ id: p.id, name: p.name, scope: p.scope.type })),
  };
}
