import { sql } from 'kysely';
import type { Db, DialectName } from '../../platform/storage/index.js';

export interface ConversationSummaryRow {
  id: string;
  model: string;
  message_count: number;
  created_at: string;
  updated_at: string;
  expires_at: string;
}

export interface ConversationRowWithSession {
  id: string;
  model: string;
  messages: string;
  vault_session_id: string;
  created_at: string;
  updated_at: string;
  expires_at: string;
}

export interface UsageGroupRow {
  provider: string;
  model: string;
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
  estimated: number;
}

export interface EndpointGroupRow {
  endpoint: string;
  requests: number;
  cost: number;
}

/**
 * Reads and erasure of the protected chat's conversations and its usage. A conversation is only as alive
 * as its vault session: without the session its tokens can never be restored, so reads join on it.
 */
export function createHistoryRepo(db: Db, dialect: DialectName) {
  // Counted in the database so a listing never loads whole transcripts (up to 40 long messages each).
  const messageCount =
    dialect === 'postgres'
      ? sql<number>`json_array_length(c.messages::json)`
      : sql<number>`json_array_length(c.messages)`;

  // `userId`: only the conversations that dashboard user started (a session's view; docs/gateway.md).
  const live = (orgId: string, now: string, userId: string | undefined) => {
    const q = db
      .selectFrom('gateway_conversations as c')
      .innerJoin('dlp_sessions as s', (j) =>
        j.onRef('s.id', '=', 'c.vault_session_id').onRef('s.org_id', '=', 'c.org_id'),
      )
      .where('c.org_id', '=', orgId)
      .where('s.expires_at', '>', now);
    return userId === undefined ? q : q.where('c.user_id', '=', userId);
  };

  /** The organization's provider calls with `from` <= created_at < `to`. */
  const usageIn = (orgId: string, from: string, to: string) =>
    db
      .selectFrom('gateway_usage')
      .where('org_id', '=', orgId)
      .where('created_at', '>=', from)
      .where('created_at', '<', to);

  return {
    async listConversations(
      orgId: string,
      now: string,
      page: { limit: number; offset: number },
      userId?: string,
    ): Promise<{ rows: ConversationSummaryRow[]; total: number }> {
      const rows = await live(orgId, now, userId)
        .select([
          'c.id',
          'c.model',
          messageCount.as('message_count'),
          'c.created_at',
          'c.updated_at',
          's.expires_at',
        ])
        .orderBy('c.created_at', 'desc')
        .orderBy('c.id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      const count = await live(orgId, now, userId)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst();
      return {
        rows: rows.map((r) => ({ ...r, message_count: Number(r.message_count) })),
        total: Number(count?.n ?? 0),
      };
    },

    async conversation(
      orgId: string,
      id: string,
      now: string,
      userId?: string,
    ): Promise<ConversationRowWithSession | undefined> {
      return live(orgId, now, userId)
        .select([
          'c.id',
          'c.model',
          'c.messages',
          'c.vault_session_id',
          'c.created_at',
          'c.updated_at',
          's.expires_at',
        ])
        .where('c.id', '=', id)
        .executeTakeFirst();
    },

    /** The vault session of a conversation, expired or not; undefined when there is no such conversation. */
    async sessionOf(orgId: string, id: string, userId?: string): Promise<string | undefined> {
      const q = db
        .selectFrom('gateway_conversations')
        .select('vault_session_id')
        .where('org_id', '=', orgId)
        .where('id', '=', id);
      const row = await (userId === undefined ? q : q.where('user_id', '=', userId)).executeTakeFirst();
      return row?.vault_session_id;
    },

    async deleteConversation(orgId: string, id: string): Promise<void> {
      await db.deleteFrom('gateway_conversations').where('org_id', '=', orgId).where('id', '=', id).execute();
    },

    /** Conversations whose vault session is gone (purged on expiry); they could never be continued. */
    async deleteOrphanConversations(limit: number): Promise<number> {
      const ids = (
        await db
          .selectFrom('gateway_conversations as c')
          .leftJoin('dlp_sessions as s', 's.id', 'c.vault_session_id')
          .select('c.id')
          .where('s.id', 'is', null)
          .limit(limit)
          .execute()
      ).map((r) => r.id);
      if (ids.length === 0) return 0;
      await db.deleteFrom('gateway_conversations').where('id', 'in', ids).execute();
      return ids.length;
    },

    async usageByModel(orgId: string, from: string, to: string): Promise<UsageGroupRow[]> {
      const rows = await usageIn(orgId, from, to)
        .select((eb) => [
          'provider',
          'model',
          eb.fn.countAll<number>().as('requests'),
          eb.fn.sum<number>('prompt_tokens').as('prompt_tokens'),
          eb.fn.sum<number>('completion_tokens').as('completion_tokens'),
          eb.fn.sum<number>('cost').as('cost'),
          sql<number>`sum(case when usage_source = 'estimated' then 1 else 0 end)`.as('estimated'),
        ])
        .groupBy(['provider', 'model'])
        .execute();
      // PostgreSQL answers sums of integers as bigint strings; every figure here fits a double.
      return rows.map((r) => ({
        provider: r.provider,
        model: r.model,
        requests: Number(r.requests),
        prompt_tokens: Number(r.prompt_tokens),
        completion_tokens: Number(r.completion_tokens),
        cost: Number(r.cost),
        estimated: Number(r.estimated),
      }));
    },

    async usageByEndpoint(orgId: string, from: string, to: string): Promise<EndpointGroupRow[]> {
      const rows = await usageIn(orgId, from, to)
        .select((eb) => [
          'endpoint',
          eb.fn.countAll<number>().as('requests'),
          eb.fn.sum<number>('cost').as('cost'),
        ])
        .groupBy('endpoint')
        .execute();
      return rows.map((r) => ({ endpoint: r.endpoint, requests: Number(r.requests), cost: Number(r.cost) }));
    },
  };
}

export type HistoryRepo = ReturnType<typeof createHistoryRepo>;
