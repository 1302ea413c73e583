import { sql } from 'kysely';
import type { Db, DialectName, WebhookDeliveriesTable, WebhooksTable } from '../../platform/storage/index.js';

export type WebhookRow = WebhooksTable;
export type DeliveryRow = WebhookDeliveriesTable;

export interface AttemptRecord {
  id: string;
  deliveryId: string;
  orgId: string;
  attempt: number;
  startedAt: string;
  responseCode: number | null;
  latencyMs: number;
  errorClass: string | null;
  error: string | null;
}

/** What the dispatcher writes back after one attempt. */
export interface DeliveryOutcome {
  id: string;
  /** The attempt number the claim gave it; a write for an older claim is ignored. */
  attempts: number;
  status: 'pending' | 'delivered' | 'failed';
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  responseCode: number | null;
  responseTimeMs: number;
  error: string | null;
  attempt: AttemptRecord;
  /** Set when the answer was 410 Gone. */
  disableWebhook?: { orgId: string; webhookId: string; reason: string; at: string };
}

export interface SendContext {
  event: { id: string; type: string; created_at: string; data: string; org_id: string };
  orgName: string;
  webhook: WebhookRow | undefined;
}

/** The delivery log counts matching rows up to this many; beyond, its total says "more than". */
export const DELIVERY_COUNT_CAP = 10_000;

export interface DeliveryListQuery {
  page: number;
  perPage: number;
  status?: string;
  eventType?: string;
  /** The last row of the previous page (keyset pagination). */
  after?: { createdAt: string; id: string };
}

export function createWebhooksRepo(db: Db) {
  return {
    async insert(row: WebhookRow): Promise<void> {
      await db.insertInto('webhooks').values(row).execute();
    },
    async list(orgId: string): Promise<WebhookRow[]> {
      return db
        .selectFrom('webhooks')
        .selectAll()
        .where('org_id', '=', orgId)
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .execute();
    },
    async get(orgId: string, id: string): Promise<WebhookRow | undefined> {
      return db
        .selectFrom('webhooks')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    async update(orgId: string, id: string, patch: Partial<WebhookRow>): Promise<void> {
      await db.updateTable('webhooks').set(patch).where('org_id', '=', orgId).where('id', '=', id).execute();
    },
    /** The webhook, its deliveries and their attempts; call it inside a transaction (the service does). */
    async delete(orgId: string, id: string): Promise<boolean> {
      const ids = db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('org_id', '=', orgId)
        .where('webhook_id', '=', id);
      await db
        .deleteFrom('webhook_attempts')
        .where('org_id', '=', orgId)
        .where('delivery_id', 'in', ids)
        .execute();
      await db
        .deleteFrom('webhook_deliveries')
        .where('org_id', '=', orgId)
        .where('webhook_id', '=', id)
        .execute();
      const r = await db
        .deleteFrom('webhooks')
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    async insertDelivery(row: DeliveryRow): Promise<void> {
      await db.insertInto('webhook_deliveries').values(row).execute();
    },
    async listDeliveries(
      orgId: string,
      webhookId: string,
      q: DeliveryListQuery,
    ): Promise<{ rows: DeliveryRow[]; total: number }> {
      let base = db
        .selectFrom('webhook_deliveries')
        .where('org_id', '=', orgId)
        .where('webhook_id', '=', webhookId);
      if (q.status) base = base.where('status', '=', q.status);
      if (q.eventType) base = base.where('event_type', '=', q.eventType);
      let page = base.selectAll();
      // Keyset: rows strictly older than the last one shown, in the (created_at, id) order of the index.
      if (q.after) {
        const { createdAt, id } = q.after;
        // (created_at, id) < (c, i), written so the first condition bounds the index range on both dialects:
        // a plain OR makes SQLite walk every newer row first.
        page = page
          .where('created_at', '<=', createdAt)
          .where((eb) => eb.or([eb('created_at', '<', createdAt), eb('id', '<', id)]));
      }
      const rows = await page
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(q.perPage)
        .offset(q.after ? 0 : (q.page - 1) * q.perPage)
        .execute();
      // Counted up to a cap: an exact count walks every matching row, a million of them for a busy hook.
      const counted = await db
        .selectFrom(
          base
            .select(sql.lit(1).as('one'))
            .limit(DELIVERY_COUNT_CAP + 1)
            .as('capped'),
        )
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return { rows, total: Number(counted.n) };
    },
    async getDelivery(orgId: string, webhookId: string, id: string): Promise<DeliveryRow | undefined> {
      return db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('webhook_id', '=', webhookId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    async attempts(orgId: string, deliveryId: string): Promise<AttemptRecord[]> {
      const rows = await db
        .selectFrom('webhook_attempts')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('delivery_id', '=', deliveryId)
        .orderBy('started_at', 'asc')
        .orderBy('attempt', 'asc')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        deliveryId: r.delivery_id,
        orgId: r.org_id,
        attempt: r.attempt,
        startedAt: r.started_at,
        responseCode: r.response_code,
        latencyMs: r.latency_ms,
        errorClass: r.error_class,
        error: r.error,
      }));
    },
    /** Puts finished deliveries back in the queue, due now, for a fresh round of attempts. */
    async requeue(
      orgId: string,
      webhookId: string,
      ids: string[] | 'failed',
      now: string,
      since?: string,
      until?: string,
    ) {
      let q = db
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', attempts: 0, next_attempt_at: now })
        .where('org_id', '=', orgId)
        .where('webhook_id', '=', webhookId)
        // Only deliveries whose event is stored: a test send's is not, and would only fail again.
        .where('event_id', 'in', db.selectFrom('events').select('id').where('org_id', '=', orgId));
      if (ids === 'failed') {
        q = q.where('status', '=', 'failed');
        if (since !== undefined) q = q.where('created_at', '>=', since);
        if (until !== undefined) q = q.where('created_at', '<', until);
      } else {
        q = q.where('id', 'in', ids).where('status', 'in', ['delivered', 'failed']);
      }
      const r = await q.executeTakeFirst();
      return Number(r.numUpdatedRows);
    },

    /**
     * Takes up to `limit` due deliveries (pending and due, or in flight past their lease: the process that
     * held them died) and leases them until `leaseUntil`. On PostgreSQL the rows are locked with SKIP LOCKED,
     * so concurrent workers take disjoint sets. With `fairness`, a webhook never gets more than
     * `perEndpoint` rows in flight in this process: the rows of webhooks already at that bound are not
     * read, and of the others' rows only what fits is leased (the rest stay due, for the next claim).
     */
    async claimDue(
      dialect: DialectName,
      now: string,
      leaseUntil: string,
      limit: number,
      fairness?: {
        perEndpoint: number;
        inFlight: ReadonlyMap<string, number>;
        /** Deliveries this process is still sending: due again once their lease ended, never sent twice. */
        sending?: ReadonlySet<string>;
      },
    ): Promise<DeliveryRow[]> {
      return db.transaction().execute(async (trx) => {
        const full = fairness
          ? [...fairness.inFlight].filter(([, n]) => n >= fairness.perEndpoint).map(([id]) => id)
          : [];
        let q = trx
          .selectFrom('webhook_deliveries')
          .select(['id', 'webhook_id'])
          .where('status', 'in', ['pending', 'sending'])
          .where('next_attempt_at', '<=', now)
          .orderBy('next_attempt_at', 'asc')
          .limit(limit);
        if (full.length > 0) q = q.where('webhook_id', 'not in', full);
        if (fairness?.sending && fairness.sending.size > 0)
          q = q.where('id', 'not in', [...fairness.sending]);
        if (dialect === 'postgres') q = q.forUpdate().skipLocked();
        const taken = new Map<string, number>();
        const ids: string[] = [];
        for (const r of await q.execute()) {
          const n = (fairness?.inFlight.get(r.webhook_id) ?? 0) + (taken.get(r.webhook_id) ?? 0);
          if (fairness && n >= fairness.perEndpoint) continue;
          taken.set(r.webhook_id, (taken.get(r.webhook_id) ?? 0) + 1);
          ids.push(r.id);
        }
        if (ids.length === 0) return [];
        return trx
          .updateTable('webhook_deliveries')
          .set((eb) => ({
            status: 'sending',
            attempts: eb('attempts', '+', 1),
            next_attempt_at: leaseUntil,
            last_attempt_at: now,
          }))
          .where('id', 'in', ids)
          .returningAll()
          .execute();
      });
    },
    /** The event, its organization's name and the webhook of each claimed delivery, in three queries. */
    /** `unstored`: the event of a test send, delivered without being an event of the organization. */
    async sendContexts(
      rows: DeliveryRow[],
      unstored?: SendContext['event'],
    ): Promise<Map<string, SendContext>> {
      const out = new Map<string, SendContext>();
      if (rows.length === 0) return out;
      const eventIds = [...new Set(rows.map((r) => r.event_id))];
      const hookIds = [...new Set(rows.map((r) => r.webhook_id))];
      const events = unstored
        ? (
            await db.selectFrom('organizations').select('name').where('id', '=', unstored.org_id).execute()
          ).map((o) => ({ ...unstored, org_name: o.name }))
        : await db
            .selectFrom('events')
            .innerJoin('organizations', 'organizations.id', 'events.org_id')
            .select([
              'events.id as id',
              'events.type as type',
              'events.created_at as created_at',
              'events.data as data',
              'events.org_id as org_id',
              'organizations.name as org_name',
            ])
            .where('events.id', 'in', eventIds)
            .execute();
      const hooks = await db.selectFrom('webhooks').selectAll().where('id', 'in', hookIds).execute();
      const eventById = new Map(events.map((e) => [e.id, e]));
      const hookById = new Map(hooks.map((h) => [h.id, h]));
      for (const r of rows) {
        const e = eventById.get(r.event_id);
        if (!e || e.org_id !== r.org_id) continue;
        const hook = hookById.get(r.webhook_id);
        out.set(r.id, {
          event: e,
          orgName: e.org_name,
          webhook: hook && hook.org_id === r.org_id ? hook : undefined,
        });
      }
      return out;
    },
    /** Writes a batch of attempt outcomes in one transaction (one commit for many deliveries). */
    async recordOutcomes(outcomes: DeliveryOutcome[]): Promise<void> {
      if (outcomes.length === 0) return;
      await db.transaction().execute(async (trx) => createWebhooksRepo(trx).writeOutcomes(outcomes));
    },
    /**
     * Writes attempt outcomes with this repo's handle (a transaction: the caller's, or a group commit's). An
     * outcome for an older claim of the delivery (its lease ended and another worker took it) is ignored.
     */
    async writeOutcomes(outcomes: DeliveryOutcome[]): Promise<void> {
      if (outcomes.length === 0) return;
      for (const o of outcomes) {
        await db
          .updateTable('webhook_deliveries')
          .set({
            status: o.status,
            next_attempt_at: o.nextAttemptAt,
            delivered_at: o.deliveredAt,
            response_code: o.responseCode,
            response_time_ms: o.responseTimeMs,
            error: o.error,
          })
          .where('id', '=', o.id)
          .where('attempts', '=', o.attempts)
          .where('status', '=', 'sending')
          .execute();
        if (o.disableWebhook) {
          const d = o.disableWebhook;
          await db
            .updateTable('webhooks')
            .set({ enabled: 0, disabled_reason: d.reason, updated_at: d.at })
            .where('org_id', '=', d.orgId)
            .where('id', '=', d.webhookId)
            .execute();
        }
      }
      await db
        .insertInto('webhook_attempts')
        .values(
          outcomes.map((o) => ({
            id: o.attempt.id,
            org_id: o.attempt.orgId,
            delivery_id: o.attempt.deliveryId,
            attempt: o.attempt.attempt,
            started_at: o.attempt.startedAt,
            response_code: o.attempt.responseCode,
            latency_ms: o.attempt.latencyMs,
            error_class: o.attempt.errorClass,
            error: o.attempt.error,
          })),
        )
        .execute();
    },
    /**
     * SQLite has exactly one process on the file, so at its start every lease is an orphan of a previous
     * run: those deliveries are due again at once instead of after their lease.
     */
    async releaseAllLeases(now: string): Promise<number> {
      const r = await db
        .updateTable('webhook_deliveries')
        .set({ next_attempt_at: now })
        .where('status', '=', 'sending')
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    async nextDueAt(): Promise<string | null> {
      const r = await db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.min('next_attempt_at').as('at'))
        .where('status', 'in', ['pending', 'sending'])
        .executeTakeFirst();
      return (r?.at as string | null | undefined) ?? null;
    },
  };
}

export type WebhooksRepo = ReturnType<typeof createWebhooksRepo>;
