import type { Context } from './context.js';

export interface BootstrapResult {
  organization: { id: string; name: string; plan: string };
  owner: { email: string; password: string };
  keys: { al: string; sw: string };
}

export const BOOTSTRAP_OWNER_EMAIL = 'owner@parapet.local';
const PENDING = 'bootstrapPending';

/**
 * On an empty database: a first organization, its owner and one key of each kind, returned once. The
 * organization is marked pending until everything exists, so a start that dies half-way is completed by
 * the next one (with a fresh password and fresh keys, since the first ones were never shown).
 */
export async function bootstrapIfEmpty(ctx: Context): Promise<BootstrapResult | null> {
  // Replicas started together on an empty database would each create an organization, or one would fail
  // on the other's owner and revoke the keys the other printed: one start at a time bootstraps.
  return ctx.storage.exclusive('bootstrap', () => bootstrapOnce(ctx));
}

async function bootstrapOnce(ctx: Context): Promise<BootstrapResult | null> {
  if ((await ctx.orgs.countOrgs()) === 0) {
    await ctx.orgs.createOrg({
      name: 'Default organization',
      plan: 'enterprise',
      settings: { [PENDING]: true },
    });
  }
  const org = (await ctx.orgs.listOrgs()).find((o) => o.settings[PENDING] === true);
  if (!org) return null;

  const existing = (await ctx.orgs.listUsers(org.id)).find((u) => u.email === BOOTSTRAP_OWNER_EMAIL);
  const password = existing
    ? await ctx.orgs.resetPassword(org.id, existing.id)
    : // printed on the terminal (and in its scroll-back and logs): the owner replaces it at first sign-in
      (
        await ctx.orgs.createUser({
          org,
          email: BOOTSTRAP_OWNER_EMAIL,
          name: 'Owner',
          role: 'owner',
          mustChangePassword: true,
        })
      ).password;
  for (const key of await ctx.keys.list(org.id)) {
    if (key.status === 'active') await ctx.keys.revoke(org.id, key.id, null);
  }
  const al = await ctx.keys.create({ orgId: org.id, kind: 'al', name: 'Bootstrap detection key' });
  const sw = await ctx.keys.create({ orgId: org.id, kind: 'sw', name: 'Bootstrap chat key' });
  const { [PENDING]: _done, ...settings } = org.settings;
  await ctx.orgs.updateOrg(org.id, { settings });
  return {
    organization: { id: org.id, name: org.name, plan: org.plan },
    owner: { email: BOOTSTRAP_OWNER_EMAIL, password },
    keys: { al: al.secret, sw: sw.secret },
  };
}

export function formatBootstrap(b: BootstrapResult, apiUrl: string): string {
  return [
    '',
    '=== Parapet first start: these secrets are shown once. Store them now. ===',
    `Organization : ${b.organization.name} (${b.organization.id}, plan ${b.organization.plan})`,
    `Dashboard    : ${apiUrl}/  user ${b.owner.email}  password ${b.owner.password}`,
    `API key (al) : ${b.keys.al}   detection, tokenization, hallucination, network proxy`,
    `API key (sw) : ${b.keys.sw}   protected chat and full protection`,
    `Try it       : curl -s ${apiUrl}/api/health`,
    '==========================================================================',
    '',
  ].join('\n');
}
