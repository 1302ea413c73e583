import type { Db, DialectName, SiemIntegrationsTable } from '../../platform/storage/index.js';

export type IntegrationRow = SiemIntegrationsTable;

export interface QueuedEvent {
  queueId: string;
  attempts: number;
  event: { id: string; type: string; created_at: string; org_id: string; data: string } | null;
}

export interface BreakerUpdate {
  circuit: 'closed' | 'open' | 'half_open';
  consecutiveFailures: number;
  nextAttemptAt: string;
  lastError?: string | null;
  lastSuccessAt?: string;
  lastFailureAt?: string;
  delivered?: number;
}

export function createSiemRepo(db: Db) {
  return {
    async insert(row: IntegrationRow): Promise<void> {
      await db.insertInto('siem_integrations').values(row).execute();
    },
    async list(orgId: string): Promise<IntegrationRow[]> {
      return db
        .selectFrom('siem_integrations')
        .selectAll()
        .where('org_id', '=', orgId)
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .execute();
    },
    async get(orgId: string, id: string): Promise<IntegrationRow | undefined> {
      return db
        .selectFrom('siem_integrations')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    async update(orgId: string, id: string, patch: Partial<IntegrationRow>): Promise<void> {
      await db
        .updateTable('siem_integrations')
        .set(patch)
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .execute();
    },
    /** The integration and its queue; call it inside a transaction (the service does). */
    async delete(orgId: string, id: string): Promise<boolean> {
      await db
        .deleteFrom('siem_queue')
        .where('org_id', '=', orgId)
        .where('integration_id', '=', id)
        .execute();
      const r = await db
        .deleteFrom('siem_integrations')
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    /** queued and dead counts per integration of the organization. */
    async queueCounts(orgId: string): Promise<Map<string, { queued: number; dead: number }>> {
      const rows = await db
        .selectFrom('siem_queue')
        .select(['integration_id', 'status', (eb) => eb.fn.countAll<number>().as('n')])
        .where('org_id', '=', orgId)
        .groupBy(['integration_id', 'status'])
        .execute();
      const out = new Map<string, { queued: number; dead: number }>();
      for (const r of rows) {
        const c = out.get(r.integration_id) ?? { queued: 0, dead: 0 };
        if (r.status === 'dead') c.dead += Number(r.n);
        else c.queued += Number(r.n);
        out.set(r.integration_id, c);
      }
      return out;
    },
    async listDead(orgId: string, integrationId: string, page: number, perPage: number) {
      const base = db
        .selectFrom('siem_queue')
        .where('org_id', '=', orgId)
        .where('integration_id', '=', integrationId)
        .where('status', '=', 'dead');
      const rows = await base
        .select(['id', 'event_id', 'event_created_at', 'attempts', 'last_error', 'created_at'])
        .orderBy('event_created_at', 'asc')
        .orderBy('id', 'asc')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute();
      const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return { rows, total: Number(count.n) };
    },
    async requeueDead(orgId: string, integrationId: string): Promise<number> {
      const r = await db
        .updateTable('siem_queue')
        .set({ status: 'queued', attempts: 0 })
        .where('org_id', '=', orgId)
        .where('integration_id', '=', integrationId)
        .where('status', '=', 'dead')
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },

    /**
     * Leases up to `limit` integrations that have queued events and whose breaker allows a send now. One
     * worker holds an integration at a time, which is what keeps its events in creation order. On
     * PostgreSQL, SKIP LOCKED lets concurrent workers pick different integrations without waiting.
     */
    async claimDue(
      dialect: DialectName,
      now: string,
      leaseUntil: string,
      limit: number,
    ): Promise<IntegrationRow[]> {
      return db.transaction().execute(async (trx) => {
        let q = trx
          .selectFrom('siem_integrations')
          .select('id')
          .where('enabled', '=', 1)
          .where('next_attempt_at', '<=', now)
          .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
          .where((eb) =>
            eb.exists(
              eb
                .selectFrom('siem_queue')
                .select('siem_queue.id')
                .whereRef('siem_queue.integration_id', '=', 'siem_integrations.id')
                .where('siem_queue.status', '=', 'queued'),
            ),
          )
          .orderBy('next_attempt_at', 'asc')
          .limit(limit);
        if (dialect === 'postgres') q = q.forUpdate().skipLocked();
        const ids = (await q.execute()).map((r) => r.id);
        if (ids.length === 0) return [];
        return trx
          .updateTable('siem_integrations')
          .set({ lease_until: leaseUntil })
          .where('id', 'in', ids)
          .returningAll()
          .execute();
      });
    },
    /** Moves the lease end; null releases the integration. */
    async setLease(id: string, leaseUntil: string | null): Promise<void> {
      await db
        .updateTable('siem_integrations')
        .set({ lease_until: leaseUntil })
        .where('id', '=', id)
        .execute();
    },
    /** The oldest queued events of an integration, in creation order. */
    async nextBatch(integrationId: string, limit: number): Promise<QueuedEvent[]> {
      const rows = await db
        .selectFrom('siem_queue')
        .leftJoin('events', 'events.id', 'siem_queue.event_id')
        .select([
          'siem_queue.id as queue_id',
          'siem_queue.attempts as attempts',
          'events.id as event_id',
          'events.type as type',
          'events.created_at as created_at',
          'events.org_id as org_id',
          'events.data as data',
        ])
        .where('siem_queue.integration_id', '=', integrationId)
        .where('siem_queue.status', '=', 'queued')
        .orderBy('siem_queue.event_created_at', 'asc')
        .orderBy('siem_queue.id', 'asc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        queueId: r.queue_id,
        attempts: r.attempts,
        event:
          r.event_id && r.type && r.created_at && r.org_id && r.data !== null
            ? { id: r.event_id, type: r.type, created_at: r.created_at, org_id: r.org_id, data: r.data }
            : null,
      }));
    },
    /**
     * Applies one send's outcome atomically: delivered and filtered rows leave the queue, failed ones are
     * counted or dead-lettered with their reason, and the breaker state moves.
     */
    async settle(
      integrationId: string,
      outcome: {
        remove: string[];
        retry: { ids: string[]; error: string };
        dead: { id: string; error: string }[];
        breaker: BreakerUpdate;
        leaseUntil: string | null;
      },
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < outcome.remove.length; i += 500) {
          await trx
            .deleteFrom('siem_queue')
            .where('id', 'in', outcome.remove.slice(i, i + 500))
            .execute();
        }
        for (let i = 0; i < outcome.retry.ids.length; i += 500) {
          await trx
            .updateTable('siem_queue')
            .set((eb) => ({ attempts: eb('attempts', '+', 1), last_error: outcome.retry.error }))
            .where('id', 'in', outcome.retry.ids.slice(i, i + 500))
            .execute();
        }
        for (const d of outcome.dead) {
          await trx
            .updateTable('siem_queue')
            .set((eb) => ({ status: 'dead', attempts: eb('attempts', '+', 1), last_error: d.error }))
            .where('id', '=', d.id)
            .execute();
        }
        const b = outcome.breaker;
        await trx
          .updateTable('siem_integrations')
          .set((eb) => ({
            circuit: b.circuit,
            consecutive_failures: b.consecutiveFailures,
            next_attempt_at: b.nextAttemptAt,
            lease_until: outcome.leaseUntil,
            ...(b.lastError === undefined ? {} : { last_error: b.lastError }),
            ...(b.lastSuccessAt === undefined ? {} : { last_success_at: b.lastSuccessAt }),
            ...(b.lastFailureAt === undefined ? {} : { last_failure_at: b.lastFailureAt }),
            ...(b.delivered ? { delivered_count: eb('delivered_count', '+', b.delivered) } : {}),
          }))
          .where('id', '=', integrationId)
          .execute();
      });
    },
    /**
     * Keeps the queue within its bound: the oldest events past `limit` move to the dead-letter state with
     * reason queue_full, where the API shows them and they can be retried. Nothing is deleted.
     */
    async enforceBound(integrationId: string, limit: number, error: string): Promise<number> {
      const c = await db
        .selectFrom('siem_queue')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('integration_id', '=', integrationId)
        .where('status', '=', 'queued')
        .executeTakeFirstOrThrow();
      const excess = Number(c.n) - limit;
      if (excess <= 0) return 0;
      const victims = db
        .selectFrom('siem_queue')
        .select('id')
        .where('integration_id', '=', integrationId)
        .where('status', '=', 'queued')
        .orderBy('event_created_at', 'asc')
        .orderBy('id', 'asc')
        .limit(excess);
      const ids = (await victims.execute()).map((r) => r.id);
      for (let i = 0; i < ids.length; i += 500) {
        await db
          .updateTable('siem_queue')
          .set({ status: 'dead', last_error: error })
          .where('id', 'in', ids.slice(i, i + 500))
          .execute();
      }
      return ids.length;
    },
    /** See the webhook repo: on SQLite every lease at start-up belongs to a dead process. */
    async releaseAllLeases(): Promise<number> {
      const r = await db
        .updateTable('siem_integrations')
        .set({ lease_until: null })
        .where('lease_until', 'is not', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
  };
}

export type SiemRepo = ReturnType<typeof createSiemRepo>;
