import type { Clock } from '../../platform/clock/index.js';
import type { Db, DialectName, EndpointOrgStateTable } from '../../platform/storage/index.js';
import { createEndpointRepo } from './endpoint.repo.js';
import type { DnsConfig, SettingsBody } from './endpoint.schemas.js';

/** Organization endpoint settings with every default filled in (docs/endpoint.md, "Settings"). */
export interface EndpointSettings {
  defaultEnforcement: 'block' | 'warn' | 'log';
  heartbeatIntervalSeconds: number;
  offlineAfterMinutes: number;
  allowedExtensionVersions: string[];
  requireUserBinding: boolean;
  /** Whether the person at an unmanaged device may unenroll it (POST /api/v1/endpoint/unenroll, reason user). */
  allowUserUnenroll: boolean;
}

export const DEFAULT_SETTINGS: EndpointSettings = {
  defaultEnforcement: 'warn',
  heartbeatIntervalSeconds: 60,
  offlineAfterMinutes: 15,
  allowedExtensionVersions: [],
  requireUserBinding: false,
  allowUserUnenroll: true,
};

export interface OrgState {
  version: number;
  settings: EndpointSettings;
  dns: DnsConfig | null;
  updatedAt: string | null;
}

// Heartbeats read the state on every call; a change made on another server shows within this time.
const CACHE_MS = 1_000;

function toState(row: EndpointOrgStateTable | undefined): OrgState {
  return {
    version: row?.config_version ?? 1,
    settings: { ...DEFAULT_SETTINGS, ...(row ? (JSON.parse(row.settings) as SettingsBody) : {}) },
    dns: row?.dns_config ? (JSON.parse(row.dns_config) as DnsConfig) : null,
    updatedAt: row?.updated_at ?? null,
  };
}

/**
 * The per-organization endpoint state and its config version. Every change that can alter a device's
 * config (policies, settings, DNS, bindings, and other modules' sections) goes through bump(), in the
 * transaction of the change, so the version a heartbeat reports moves with it.
 */
export function createOrgStateStore(deps: { db: Db; clock: Clock }) {
  const cache = new Map<string, { state: OrgState; until: number }>();

  return {
    async get(orgId: string): Promise<OrgState> {
      const now = deps.clock.now().getTime();
      const hit = cache.get(orgId);
      if (hit && hit.until > now) return hit.state;
      const state = toState(await createEndpointRepo(deps.db).state(orgId));
      if (cache.size > 10_000) cache.clear();
      cache.set(orgId, { state, until: now + CACHE_MS });
      return state;
    },

    async bump(
      trx: Db,
      orgId: string,
      set: { settings?: EndpointSettings; dns?: DnsConfig } = {},
    ): Promise<number> {
      const version = await createEndpointRepo(trx).bumpState(orgId, deps.clock.now().toISOString(), {
        ...(set.settings ? { settings: JSON.stringify(set.settings) } : {}),
        ...(set.dns ? { dns_config: JSON.stringify(set.dns) } : {}),
      });
      cache.delete(orgId);
      return version;
    },

    /**
     * The state as stored (never the cache), locked for the caller's transaction: what a change merges
     * over. SQLite's write transactions already run one at a time; PostgreSQL locks the row.
     */
    async lockStored(trx: Db, orgId: string, dialect: DialectName): Promise<OrgState> {
      const row = await createEndpointRepo(trx).lockedState(
        orgId,
        deps.clock.now().toISOString(),
        dialect === 'postgres',
      );
      return toState(row);
    },

    forget(orgId: string): void {
      cache.delete(orgId);
    },
  };
}

export type OrgStateStore = ReturnType<typeof createOrgStateStore>;
