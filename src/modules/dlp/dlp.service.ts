import type { Entity } from '../../engines/dlp/index.js';
import type { Clock } from '../../platform/clock/index.js';
import { type Compute, inlineCompute } from '../../platform/compute/index.js';
import type { Db } from '../../platform/storage/index.js';
import type { LimitsService } from '../limits/index.js';
import type { Organization, OrgsService } from '../orgs/index.js';
import { dlpEventData } from './dlp.events.js';
import { type DlpSettings, checkDlpSettings, detectOptionsOf, dlpSettingsOf } from './dlp.settings.js';
import type { Vault } from './vault.service.js';
import type { Caller } from '../../platform/http/index.js';

export type DlpPublish = (
  db: Db,
  org: { id: string; plan: string },
  type: 'dlp.violation' | 'dlp.blocked',
  data: Record<string, unknown>,
) => Promise<unknown>;

export function createDlpService(deps: {
  vault: Vault;
  orgs: OrgsService;
  limits: LimitsService;
  clock: Clock;
  publish: DlpPublish;
  forgetOrg: (orgId: string) => void;
  /** Runs detection (large texts in a worker thread under a time budget). */
  compute?: Compute;
}) {
  const { vault } = deps;
  const compute = deps.compute ?? inlineCompute;
  return {
    async analyze(caller: Caller, text: string, opts: { sessionId?: string; sourceIp?: string }) {
      const started = performance.now();
      const settings = dlpSettingsOf(caller.org.settings);
      const [entities] = await compute.run(
        'detectEntities',
        [[text], detectOptionsOf(settings)],
        text.length,
      );
      const parts = await vault.tokenizeParts(caller.org.id, [{ text, entities: entities ?? [] }], {
        ...(opts.sessionId ? { sessionId: opts.sessionId } : {}),
        settings,
        within: async (trx, o) => {
          if (o.entities.length === 0) return;
          await deps.publish(
            trx,
            caller.org,
            'dlp.violation',
            dlpEventData(o.entities, o.preview, {
              action: 'REDACTED',
              userId: caller.user?.id ?? null,
              apiKeyId: caller.key?.id ?? null,
              ...(opts.sourceIp ? { sourceIp: opts.sourceIp } : {}),
            }),
          );
        },
      });
      const out = { ...parts, tokenized: parts.tokenized[0] ?? '' };
      deps.limits.record(caller.org, 'tokenization', {});
      return {
        tokenized: out.tokenized,
        tokens: out.tokens.map((t) => ({
          token: t.token,
          type: t.type.toLowerCase(),
          domain: t.domain,
          original: '[REDACTED]' as const,
          sessionId: out.sessionId,
        })),
        sessionId: out.sessionId,
        stats: {
          totalDetected: out.entities.length,
          categories: [...new Set(out.entities.map((e: Entity) => e.type.toLowerCase()))],
          processingMs: Math.round(performance.now() - started),
        },
      };
    },

    rehydrate(orgId: string, sessionId: string, text: string, opts: { json?: boolean } = {}) {
      return vault.rehydrate(orgId, sessionId, text, opts);
    },

    settings(org: Organization): DlpSettings {
      return dlpSettingsOf(org.settings);
    },

    async updateSettings(
      org: Organization,
      next: DlpSettings,
      by: { userId: string | null } = { userId: null },
    ): Promise<DlpSettings> {
      next = checkDlpSettings(next);
      // One step with the read of the other sections, and audited (orgs.setSettingsSection).
      await deps.orgs.setSettingsSection(org.id, 'dlp', { ...next }, by);
      deps.forgetOrg(org.id);
      return next;
    },
  };
}

export type DlpService = ReturnType<typeof createDlpService>;
