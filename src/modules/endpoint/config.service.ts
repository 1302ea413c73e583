import { sha256Hex } from '../../platform/crypto/index.js';
import { notFound } from '../../platform/errors/index.js';
import type { Db } from '../../platform/storage/index.js';
import { toPolicy } from './admin.service.js';
import { createEndpointRepo } from './endpoint.repo.js';
import { mergePolicies, type StoredPolicy } from './policy-merge.js';
import type { OrgStateStore } from './state.js';

export interface ConfigSubject {
  orgId: string;
  deviceId: string;
  userId: string | null;
  groupIds: readonly string[];
}

/**
 * A section of the device config contributed by another module (e.g. shadow-AI catalog decisions, force
 * mode). It must be deterministic for a given state: its output is part of the ETag. A module whose
 * section changes calls `bumpConfigVersion` in the transaction of the change, so heartbeats tell devices.
 */
export type ConfigSection = (subject: ConfigSubject) => Promise<unknown>;

/** The effective config of a device, with an ETag of its exact content for If-None-Match. */
export function createConfigService(deps: { db: Db; state: OrgStateStore }) {
  const repo = createEndpointRepo(deps.db);
  const sections = new Map<string, ConfigSection>();
  // Policies change rarely and every config fetch of an organization reads them: kept per config version.
  const policyCache = new Map<string, { version: number; policies: StoredPolicy[] }>();
  // The ETag each device was last given, under the inputs it was built from. Building a config (merging
  // policies, every section, hashing the JSON) costs about 2 ms of CPU; a device that asks with the ETag it
  // holds, while nothing it depends on changed, is answered 304 from this without building anything.
  // Sound because every change to an input either bumps the organization's config version or changes the
  // plan, the device's user, its e-mail or its groups, which are all part of the key.
  const lastEtag = new Map<string, { key: string; etag: string }>();

  async function policiesOf(orgId: string, version: number): Promise<StoredPolicy[]> {
    const hit = policyCache.get(orgId);
    if (hit && hit.version === version) return hit.policies;
    const policies = (await repo.policies(orgId)).map(toPolicy);
    if (policyCache.size > 10_000) policyCache.clear();
    policyCache.set(orgId, { version, policies });
    return policies;
  }

  return {
    /** Adds a named top-level section to every device config; names are unique. */
    registerSection(name: string, section: ConfigSection): void {
      if (
        sections.has(name) ||
        ['configVersion', 'plan', 'organization', 'device', 'policy', 'settings', 'dns'].includes(name)
      ) {
        throw new Error(`config section ${name} is already defined`);
      }
      sections.set(name, section);
    },

    /**
     * The device's config, or `body: null` when one of `ifNoneMatch` (ETags without W/ or quotes removed)
     * is still its current ETag.
     */
    async forDevice(
      orgId: string,
      deviceId: string,
      ifNoneMatch: readonly string[] = [],
      /**
       * The organization as the caller knows it: its plan (the extension prints it on proof documents, their
       * "tier") and its name (the extension's popup shows it).
       */
      org: { plan?: string; name?: string } = {},
    ): Promise<{ etag: string; body: Record<string, unknown> | null }> {
      const { plan, name } = org;
      const device = await repo.device(orgId, deviceId);
      if (!device || device.status === 'revoked') throw notFound('Device');
      const st = await deps.state.get(orgId);
      const user = device.user_id ? await repo.user(orgId, device.user_id) : undefined;
      const groupIds = [
        ...(device.group_id ? [device.group_id] : []),
        ...(user ? await repo.userGroups(orgId, user.id) : []),
      ];
      // A plan change or a rename does not bump the config version, so both are inputs.
      const inputsKey = JSON.stringify([
        orgId,
        st.version,
        plan ?? null,
        name ?? null,
        user?.id ?? null,
        user?.email ?? null,
        groupIds,
      ]);
      // `*` matches any current representation (RFC 9110, 13.1.2), and a known device always has one.
      const held = (etag: string) => ifNoneMatch.includes('*') || ifNoneMatch.includes(etag);
      const known = lastEtag.get(deviceId);
      if (known && known.key === inputsKey && held(known.etag)) {
        return { etag: known.etag, body: null };
      }
      const effective = mergePolicies(
        await policiesOf(orgId, st.version),
        { orgId, userId: user?.id ?? null, userEmail: user?.email.toLowerCase() ?? null, groupIds },
        st.settings.defaultEnforcement,
      );
      const dns = st.dns;
      const body: Record<string, unknown> = {
        configVersion: st.version,
        ...(plan ? { plan } : {}),
        ...(name ? { organization: { id: orgId, name } } : {}),
        device: { id: device.id, userId: user?.id ?? null, groupIds },
        policy: effective,
        settings: st.settings,
        dns: dns
          ? {
              enabled: dns.enabled,
              mode: dns.mode,
              blockedDomains: dns.blockedDomains,
              allowedDomains: dns.allowedDomains,
              blockPage: dns.blockPage,
            }
          : { enabled: false },
      };
      const subject: ConfigSubject = { orgId, deviceId, userId: user?.id ?? null, groupIds };
      for (const [name, section] of sections) body[name] = await section(subject);
      const etag = `"${sha256Hex(JSON.stringify(body)).slice(0, 32)}"`;
      if (lastEtag.size >= 200_000) lastEtag.clear(); // bounded: a cleared entry only costs one rebuild
      lastEtag.set(deviceId, { key: inputsKey, etag });
      return { etag, body: held(etag) ? null : body };
    },
  };
}

export type ConfigService = ReturnType<typeof createConfigService>;
