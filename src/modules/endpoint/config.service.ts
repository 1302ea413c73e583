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
      if (sections.has(name) || ['configVersion', 'device', 'policy', 'settings', 'dns'].includes(name)) {
        throw new Error(`config section ${name} is already defined`);
      }
      sections.set(name, section);
    },

    async forDevice(
      orgId: string,
      deviceId: string,
    ): Promise<{ etag: string; body: Record<string, unknown> }> {
      const device = await repo.device(orgId, deviceId);
      if (!device || device.status === 'revoked') throw notFound('Device');
      const st = await deps.state.get(orgId);
      const user = device.user_id ? await repo.user(orgId, device.user_id) : undefined;
      const groupIds = [
        ...(device.group_id ? [device.group_id] : []),
        ...(user ? await repo.userGroups(orgId, user.id) : []),
      ];
      const effective = mergePolicies(
        await policiesOf(orgId, st.version),
        { orgId, userId: user?.id ?? null, userEmail: user?.email.toLowerCase() ?? null, groupIds },
        st.settings.defaultEnforcement,
      );
      const dns = st.dns;
      const body: Record<string, unknown> = {
        configVersion: st.version,
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
      return { etag: `"${sha256Hex(JSON.stringify(body)).slice(0, 32)}"`, body };
    },
  };
}

export type ConfigService = ReturnType<typeof createConfigService>;
