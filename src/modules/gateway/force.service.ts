import type { Clock } from '../../platform/clock/index.js';
import { AppError } from '../../platform/errors/index.js';
import type { Db } from '../../platform/storage/index.js';
import { createGatewayRepo } from './gateway.repo.js';

export const CHAT_PATH = '/api/v1/gateway/chat';

export interface ForceStatus {
  enabled: boolean;
  enabledAt: string | null;
  enabledBy: string | null;
  config: { blockDirectProxy: boolean; allowedEndpoints: string[] };
}

export type ForcePublish = (
  db: Db,
  org: { id: string; plan: string },
  type: 'audit.force_mode',
  data: Record<string, unknown>,
) => Promise<unknown>;

// The proxy asks on every request; a switch on another instance shows here within this time.
const CACHE_MS = 1_000;

/** Force mode: while enabled, the provider proxy refuses and callers must use the protected chat. */
export function createForceService(deps: {
  db: Db;
  clock: Clock;
  publish: ForcePublish;
  /** Runs in the switch's transaction (the device config version bump). */
  onSwitch?: (trx: Db, orgId: string) => Promise<unknown>;
}) {
  const repo = createGatewayRepo(deps.db);
  const cache = new Map<string, { enabled: boolean; until: number }>();

  async function status(orgId: string): Promise<ForceStatus> {
    const row = await repo.force(orgId);
    const enabled = row?.enabled === 1;
    return {
      enabled,
      enabledAt: enabled ? (row?.enabled_at ?? null) : null,
      enabledBy: enabled ? (row?.enabled_by ?? null) : null,
      config: { blockDirectProxy: enabled, allowedEndpoints: [CHAT_PATH] },
    };
  }

  return {
    status,

    async isEnabled(orgId: string): Promise<boolean> {
      const now = deps.clock.now().getTime();
      const hit = cache.get(orgId);
      if (hit && hit.until > now) return hit.enabled;
      const enabled = (await repo.force(orgId))?.enabled === 1;
      cache.set(orgId, { enabled, until: now + CACHE_MS });
      if (cache.size > 10_000) cache.delete(cache.keys().next().value as string);
      return enabled;
    },

    /** Refuses a direct proxy call while force mode is on. */
    async assertProxyAllowed(orgId: string): Promise<void> {
      if (await this.isEnabled(orgId)) {
        throw new AppError(
          'gateway_force_blocked',
          `Force mode is active for this organization: direct provider access is blocked. Send the request to ${CHAT_PATH}, or ask an owner or admin to disable force mode.`,
        );
      }
    },

    async switch(
      org: { id: string; plan: string },
      userId: string,
      enabled: boolean,
    ): Promise<{ success: true; enabled: boolean; enabledAt: string | null }> {
      const now = deps.clock.now().toISOString();
      const before = await repo.force(org.id);
      const wasEnabled = before?.enabled === 1;
      // Switching on again keeps the original activation time and author.
      const enabledAt = enabled ? (wasEnabled ? (before?.enabled_at ?? now) : now) : null;
      const enabledBy = enabled ? (wasEnabled ? (before?.enabled_by ?? userId) : userId) : null;
      await deps.db.transaction().execute(async (trx) => {
        await createGatewayRepo(trx).upsertForce({
          org_id: org.id,
          enabled: enabled ? 1 : 0,
          enabled_at: enabledAt,
          enabled_by: enabledBy,
          updated_at: now,
        });
        await deps.publish(trx, org, 'audit.force_mode', {
          enabled,
          previous: wasEnabled,
          userId,
          at: now,
        });
        // On every switch, not only on a change: `before` is read outside this transaction, so two switches
        // racing could each see no change, and devices would keep the state of the first.
        if (deps.onSwitch) await deps.onSwitch(trx, org.id);
      });
      cache.set(org.id, { enabled, until: deps.clock.now().getTime() + CACHE_MS });
      return { success: true, enabled, enabledAt };
    },
  };
}

export type ForceService = ReturnType<typeof createForceService>;
