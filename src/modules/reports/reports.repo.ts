import { sql } from 'kysely';
import type { Db, ReportsTable } from '../../platform/storage/index.js';

export interface EventRow {
  id: string;
  type: string;
  created_at: string;
  data: string;
}

export interface UsageRow {
  product: string;
  period: string;
  requests: number;
  blocked: number;
}

export interface ModelUsageRow {
  provider: string;
  model: string;
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
}

export function createReportsRepo(db: Db) {
  return {
    async insert(row: ReportsTable): Promise<void> {
      await db.insertInto('reports').values(row).execute();
    },
    async update(
      orgId: string,
      id: string,
      patch: Partial<
        Pick<ReportsTable, 'status' | 'progress' | 'result' | 'error' | 'updated_at' | 'finished_at'>
      >,
    ): Promise<void> {
      await db.updateTable('reports').set(patch).where('org_id', '=', orgId).where('id', '=', id).execute();
    },
    async get(orgId: string, id: string): Promise<ReportsTable | undefined> {
      return db
        .selectFrom('reports')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    /** Newest first, keyset-paged on (created_at, id) so deep pages cost what the first one does. */
    async list(
      orgId: string,
      opts: { limit: number; before?: { createdAt: string; id: string } },
    ): Promise<Omit<ReportsTable, 'result'>[]> {
      let q = db
        .selectFrom('reports')
        .select([
          'id',
          'org_id',
          'status',
          'progress',
          'period_from',
          'period_to',
          'requested_by',
          'error',
          'created_at',
          'updated_at',
          'finished_at',
        ])
        .where('org_id', '=', orgId);
      const before = opts.before;
      if (before) {
        q = q.where((eb) =>
          eb.or([
            eb('created_at', '<', before.createdAt),
            eb.and([eb('created_at', '=', before.createdAt), eb('id', '<', before.id)]),
          ]),
        );
      }
      return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(opts.limit).execute();
    },
    async countEvents(orgId: string, types: readonly string[], from: string, to: string): Promise<number> {
      const row = await db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('org_id', '=', orgId)
        .where('type', 'in', types)
        .where('created_at', '>=', from)
        .where('created_at', '<', to)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    /** One page of a period's events of the given types, oldest first, after the keyset cursor. */
    async eventsPage(
      orgId: string,
      types: readonly string[],
      from: string,
      to: string,
      after: { createdAt: string; id: string } | null,
      limit: number,
    ): Promise<EventRow[]> {
      let q = db
        .selectFrom('events')
        .select(['id', 'type', 'created_at', 'data'])
        .where('org_id', '=', orgId)
        .where('type', 'in', types)
        .where('created_at', '<', to);
      if (after) {
        // Keyset (created_at, id) > (c, i). The plain `created_at >= c` is what bounds the index range: with
        // the OR alone, each page read every earlier row of the period again (quadratic: a 365-day report
        // of 300,000 events took minutes on PostgreSQL). Index: events_org_created_id (migration 0066).
        q = q
          .where('created_at', '>=', after.createdAt)
          .where((eb) => eb.or([eb('created_at', '>', after.createdAt), eb('id', '>', after.id)]));
      } else {
        q = q.where('created_at', '>=', from);
      }
      return q.orderBy('created_at').orderBy('id').limit(limit).execute();
    },
    async usage(orgId: string, periods: readonly string[]): Promise<UsageRow[]> {
      if (periods.length === 0) return [];
      return db
        .selectFrom('usage')
        .select(['product', 'period', 'requests', 'blocked'])
        .where('org_id', '=', orgId)
        .where('period', 'in', periods)
        .orderBy('period')
        .orderBy('product')
        .execute();
    },
    async modelUsage(orgId: string, from: string, to: string): Promise<ModelUsageRow[]> {
      const rows = await db
        .selectFrom('gateway_usage')
        .select([
          'provider',
          'model',
          sql<number>`count(*)`.as('requests'),
          sql<number>`sum(prompt_tokens)`.as('prompt_tokens'),
          sql<number>`sum(completion_tokens)`.as('completion_tokens'),
          sql<number>`sum(cost)`.as('cost'),
        ])
        .where('org_id', '=', orgId)
        .where('created_at', '>=', from)
        .where('created_at', '<', to)
        .groupBy(['provider', 'model'])
        .execute();
      return rows.map((r) => ({
        provider: r.provider,
        model: r.model,
        requests: Number(r.requests),
        prompt_tokens: Number(r.prompt_tokens ?? 0),
        completion_tokens: Number(r.completion_tokens ?? 0),
        cost: Number(r.cost ?? 0),
      }));
    },
  };
}

export type ReportsRepo = ReturnType<typeof createReportsRepo>;
