import type { Clock } from '../../platform/clock/index.js';
import { notFound } from '../../platform/errors/index.js';
import type { Db, DialectName } from '../../platform/storage/index.js';
import type { Vault } from '../dlp/index.js';
import { microsToUsd, usdToMicros } from '../providers/index.js';
import { createHistoryRepo } from './history.repo.js';
import { usageRange } from './usage-range.js';

/** Shaped like the process context, so the entrypoints hand theirs over as it is. */
export interface HistoryDeps {
  storage: { db: Db; dialect: DialectName };
  clock: Clock;
  vault: Vault;
  /** The gateway's usage recorder: its pending rows are written before a report is read. */
  gateway: { usage: { flush(): Promise<void> } };
}

const notFoundConversation = () => notFound('Conversation');

/**
 * What the protected chat kept, for the organization to read and erase, and what its calls cost. `userId`
 * on the conversation operations narrows them to what that dashboard user started (a session's view);
 * unset, they cover the whole organization (API keys).
 */
export function createGatewayHistory(deps: HistoryDeps) {
  const repo = createHistoryRepo(deps.storage.db, deps.storage.dialect);
  const now = () => deps.clock.now().toISOString();

  return {
    async list(orgId: string, page: { limit: number; offset: number }, userId?: string) {
      const { rows, total } = await repo.listConversations(orgId, now(), page, userId);
      return {
        conversations: rows.map((r) => ({
          id: r.id,
          model: r.model,
          messages: r.message_count,
          createdAt: r.created_at,
          updatedAt: r.updated_at,
          expiresAt: r.expires_at,
        })),
        total,
        limit: page.limit,
        offset: page.offset,
      };
    },

    async get(orgId: string, id: string, userId?: string) {
      const row = await repo.conversation(orgId, id, now(), userId);
      if (!row) throw notFoundConversation();
      const stored = JSON.parse(row.messages) as Array<{ role: string; content: unknown }>;
      return {
        id: row.id,
        model: row.model,
        sessionId: row.vault_session_id,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        expiresAt: row.expires_at,
        messages: stored.map((m) => ({
          role: m.role,
          content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content),
        })),
      };
    },

    /**
     * Erases the conversation together with its vault session (each conversation has a session of its own)
     * in one transaction, so the transcript and the originals its tokens stand for disappear at once. An
     * expired conversation can still be erased.
     */
    async remove(orgId: string, id: string, userId?: string): Promise<void> {
      const sessionId = await repo.sessionOf(orgId, id, userId);
      if (sessionId === undefined) throw notFoundConversation();
      await deps.vault.erase(orgId, sessionId, (trx) =>
        createHistoryRepo(trx, deps.storage.dialect).deleteConversation(orgId, id),
      );
    },

    async usage(orgId: string, query: { from?: string; to?: string }) {
      const { from, to } = usageRange(query, deps.clock.now());
      await deps.gateway.usage.flush();
      const [models, endpoints] = await Promise.all([
        repo.usageByModel(orgId, from.toISOString(), to.toISOString()),
        repo.usageByEndpoint(orgId, from.toISOString(), to.toISOString()),
      ]);
      // Each group's stored (unrounded) sum is rounded once to integer micro-dollars; totals add integers.
      const byModel = models
        .map((r) => {
          const costMicroUsd = usdToMicros(r.cost);
          return {
            provider: r.provider,
            model: r.model,
            requests: r.requests,
            promptTokens: r.prompt_tokens,
            completionTokens: r.completion_tokens,
            cost: microsToUsd(costMicroUsd),
            costMicroUsd,
            estimated: r.estimated,
          };
        })
        .sort(
          (a, b) =>
            b.costMicroUsd - a.costMicroUsd || b.requests - a.requests || a.model.localeCompare(b.model),
        );
      const sum = (pick: (m: (typeof byModel)[number]) => number) => byModel.reduce((n, m) => n + pick(m), 0);
      const costMicroUsd = sum((m) => m.costMicroUsd);
      return {
        from: from.toISOString(),
        to: to.toISOString(),
        requests: sum((m) => m.requests),
        promptTokens: sum((m) => m.promptTokens),
        completionTokens: sum((m) => m.completionTokens),
        cost: microsToUsd(costMicroUsd),
        costMicroUsd,
        byModel,
        byEndpoint: endpoints
          .map((e) => {
            const micros = usdToMicros(e.cost);
            return {
              endpoint: e.endpoint,
              requests: e.requests,
              cost: microsToUsd(micros),
              costMicroUsd: micros,
            };
          })
          .sort((a, b) => b.requests - a.requests || a.endpoint.localeCompare(b.endpoint)),
      };
    },

    /** Retention: conversations must not outlive the vault session their tokens live in. */
    async purgeOrphans(limit = 1_000): Promise<number> {
      return repo.deleteOrphanConversations(limit);
    },
  };
}

export type GatewayHistory = ReturnType<typeof createGatewayHistory>;
