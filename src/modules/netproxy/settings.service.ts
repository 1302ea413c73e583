import type { Organization } from '../orgs/index.js';
import { checkClientNetworks, clientNetworksOf } from './networks.js';
import type { NetproxySettings } from './netproxy.schemas.js';
import { errorFormatOf, uninspectedOf } from './settings.js';

/** The organization's network-proxy settings, kept under `netproxy` in its settings. */
export function createNetproxySettings(deps: {
  getOrg(id: string): Promise<Organization | undefined>;
  listOrgs(): Promise<Organization[]>;
  /**
   * Writes the section with the read of the others in one step and publishes `audit.settings` (section and
   * field names, never the networks): the client networks decide which organization unauthenticated
   * traffic of the transparent proxy is counted and inspected for, so a change must leave a trace.
   */
  setSettingsSection(
    orgId: string,
    section: string,
    value: Record<string, unknown>,
    by: { userId: string | null; apiKeyId?: string | null },
  ): Promise<void>;
  /** Drops the organization from the authentication cache so the change is seen at once. */
  forgetOrg(id: string): void;
}) {
  return {
    get(org: Organization): NetproxySettings {
      return {
        clientNetworks: clientNetworksOf(org.settings),
        uninspected: uninspectedOf(org.settings),
        errorFormat: errorFormatOf(org.settings),
      };
    },

    async update(
      org: Organization,
      next: NetproxySettings,
      by: { userId: string | null; apiKeyId?: string | null },
    ): Promise<NetproxySettings> {
      const others = (await deps.listOrgs())
        .filter((o) => o.id !== org.id)
        .map((o) => ({ orgId: o.id, networks: clientNetworksOf(o.settings) }))
        .filter((o) => o.networks.length > 0);
      const clientNetworks = checkClientNetworks(next.clientNetworks, others);
      const fresh = (await deps.getOrg(org.id)) ?? org;
      const current = (fresh.settings['netproxy'] as Record<string, unknown> | undefined) ?? {};
      // Left out, the stored choice (or the default) stays: a client that knows only clientNetworks keeps it.
      const section = {
        ...current,
        clientNetworks,
        ...(next.uninspected ? { uninspected: next.uninspected } : {}),
        ...(next.errorFormat ? { errorFormat: next.errorFormat } : {}),
      };
      await deps.setSettingsSection(org.id, 'netproxy', section, by);
      deps.forgetOrg(org.id);
      return {
        clientNetworks,
        uninspected: uninspectedOf({ netproxy: section }),
        errorFormat: errorFormatOf({ netproxy: section }),
      };
    },
  };
}

export type NetproxySettingsService = ReturnType<typeof createNetproxySettings>;
