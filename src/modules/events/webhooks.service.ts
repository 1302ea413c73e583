import type { Clock } from '../../platform/clock/index.js';
import { newId, type Sealer } from '../../platform/crypto/index.js';
import { AppError, invalid, notFound } from '../../platform/errors/index.js';
import type { Db } from '../../platform/storage/index.js';
import { EVENT_TYPES, type EventType } from './event-types.js';
import type { EventPublisher } from './events.service.js';
import { generateWebhookSecret, isAcceptableWebhookSecret } from './signing.js';
import type { WebhookDispatcher } from './webhook-delivery.js';
import { webhookUrlProblem } from './webhook-url.js';
import {
  DELIVERY_COUNT_CAP,
  createWebhooksRepo,
  type DeliveryRow,
  type WebhookRow,
} from './webhooks.repo.js';

export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  metadata: Record<string, string>;
  /** Why the service disabled the endpoint (410 Gone), else null. */
  disabledReason: string | null;
  /** End of the rotation grace period while the previous secret still signs, else null. */
  previousSecretExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface DeliveryView {
  id: string;
  eventId: string;
  eventType: string;
  /** pending (not finished: due or in flight), delivered or failed. */
  status: 'pending' | 'delivered' | 'failed';
  responseCode: number | null;
  responseTimeMs: number | null;
  attempts: number;
  deliveredAt: string | null;
  lastAttemptAt: string | null;
  nextRetryAt: string | null;
  error: string | null;
  test: boolean;
  createdAt: string;
}

export interface WebhookInput {
  url: string;
  events: string[];
  secret?: string | undefined;
  enabled?: boolean | undefined;
  metadata?: Record<string, string> | undefined;
}

export const DEFAULT_ROTATION_GRACE_SECONDS = 24 * 60 * 60;

function toView(r: WebhookRow, now: string): WebhookView {
  const grace =
    r.previous_secret_expires_at && r.previous_secret_expires_at > now ? r.previous_secret_expires_at : null;
  return {
    id: r.id,
    url: r.url,
    events: JSON.parse(r.events) as string[],
    enabled: r.enabled === 1,
    metadata: JSON.parse(r.metadata) as Record<string, string>,
    disabledReason: r.disabled_reason,
    previousSecretExpiresAt: grace,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function deliveryView(r: DeliveryRow): DeliveryView {
  return {
    id: r.id,
    eventId: r.event_id,
    eventType: r.event_type,
    status: r.status === 'delivered' ? 'delivered' : r.status === 'failed' ? 'failed' : 'pending',
    responseCode: r.response_code,
    responseTimeMs: r.response_time_ms,
    attempts: r.attempts,
    deliveredAt: r.delivered_at,
    lastAttemptAt: r.last_attempt_at,
    nextRetryAt: r.status === 'pending' || r.status === 'sending' ? r.next_attempt_at : null,
    error: r.error,
    test: r.is_test === 1,
    createdAt: r.created_at,
  };
}

function checkEvents(events: string[]): string[] {
  const bad = events.filter((e) => e !== '*' && !Object.hasOwn(EVENT_TYPES, e));
  if (bad.length > 0) throw invalid(`events contains unknown event types: ${bad.join(', ')}`);
  return [...new Set(events)];
}

/** Sample data of the test button: clearly marked, and shaped like the real payload of the type. */
function sampleData(type: EventType): Record<string, unknown> {
  const base = { test: true };
  if (type.startsWith('detection.')) {
    return {
      ...base,
      id: 'det_test',
      riskScore: 90,
      severity: 'HIGH',
      category: 'TEST',
      patterns: [],
      action: 'BLOCKED',
      blocked: true,
    };
  }
  if (type.startsWith('dlp.')) {
    return {
      ...base,
      domain: 'TEST',
      type: 'TEST',
      severity: 'MEDIUM',
      action: 'REDACTED',
      findingsCount: 1,
    };
  }
  return base;
}

export interface WebhooksServiceDeps {
  db: Db;
  clock: Clock;
  sealer: Sealer;
  allowPrivateTargets: boolean;
  dispatcher: Pick<WebhookDispatcher, 'sendNow'>;
  /** Wakes the delivery workers after a change that made deliveries due. */
  wake?: () => void;
  /** The publisher's publish: writes `audit.webhook` (SIEM only) in the transaction of a change. */
  publish?: EventPublisher['publish'];
}

/** Who changed a webhook, for its audit event: a dashboard user or an admin-scope API key. */
export interface WebhookChange {
  org: { id: string; plan: string };
  actor: { userId: string | null; apiKeyId: string | null };
}

/**
 * The part of a webhook URL an audit event may carry: scheme, host and port. Paths and query strings of
 * webhook URLs often hold a token of the receiver (chat and automation services put one there).
 */
function urlOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

export interface DeliveriesFilter {
  page: number;
  perPage: number;
  status?: string;
  eventType?: string;
  cursor?: string;
}

/** The keyset of the delivery log: the (created_at, id) of the last row shown, opaque to clients. */
function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(`${createdAt}|${id}`).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  const [createdAt, id, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!createdAt || !id || extra !== undefined || Number.isNaN(Date.parse(createdAt))) {
    throw invalid("The query parameter 'cursor' is not a nextCursor this service returned.");
  }
  return { createdAt, id };
}

export function createWebhooksService(deps: WebhooksServiceDeps) {
  const repo = createWebhooksRepo(deps.db);
  const now = () => deps.clock.now().toISOString();
  const checkUrl = (url: string) => {
    const problem = webhookUrlProblem(url, deps.allowPrivateTargets);
    if (problem) throw invalid(problem);
  };
  const checkSecret = (secret: string) => {
    if (!isAcceptableWebhookSecret(secret)) {
      throw invalid(
        'secret must be whsec_ followed by base64 of 24 to 64 bytes, or 16 to 256 printable characters',
      );
    }
  };
  const mustGet = async (orgId: string, id: string) => {
    const row = await repo.get(orgId, id);
    if (!row) throw notFound('Webhook');
    return row;
  };
  /**
   * Creating, changing, rotating and deleting a webhook are audit events (SIEM, AUDIT) in the change's
   * transaction: a webhook is a channel out of the organization (events carry previews and ids), and adding
   * one left no trace. The URL's origin only, field names of a change, never the secret.
   */
  const changed = async (
    change: WebhookChange | undefined,
    write: (trx: Db) => Promise<Record<string, unknown>>,
  ): Promise<void> => {
    await deps.db.transaction().execute(async (trx) => {
      const data = await write(trx);
      if (change && deps.publish) {
        await deps.publish(trx, change.org, 'audit.webhook', {
          ...data,
          targetType: 'webhook',
          actor: change.actor,
        });
      }
    });
  };

  return {
    async create(
      orgId: string,
      input: WebhookInput,
      change?: WebhookChange,
    ): Promise<WebhookView & { secret: string }> {
      checkUrl(input.url);
      const events = checkEvents(input.events);
      if (input.secret !== undefined) checkSecret(input.secret);
      const secret = input.secret ?? generateWebhookSecret();
      const id = newId('wh');
      const at = now();
      const row: WebhookRow = {
        id,
        org_id: orgId,
        url: input.url,
        events: JSON.stringify(events),
        secret_sealed: deps.sealer.seal(secret, id),
        previous_secret_sealed: null,
        previous_secret_expires_at: null,
        enabled: input.enabled === false ? 0 : 1,
        disabled_reason: null,
        metadata: JSON.stringify(input.metadata ?? {}),
        created_at: at,
        updated_at: at,
      };
      await changed(change, async (trx) => {
        await createWebhooksRepo(trx).insert(row);
        return {
          action: 'webhook_created',
          targetId: id,
          urlOrigin: urlOrigin(row.url),
          events,
          enabled: row.enabled === 1,
          severity: 'MEDIUM',
        };
      });
      return { ...toView(row, at), secret };
    },
    async list(orgId: string): Promise<WebhookView[]> {
      const at = now();
      return (await repo.list(orgId)).map((r) => toView(r, at));
    },
    async get(orgId: string, id: string): Promise<WebhookView> {
      return toView(await mustGet(orgId, id), now());
    },
    async update(
      orgId: string,
      id: string,
      patch: Partial<Omit<WebhookInput, 'secret'>>,
      change?: WebhookChange,
    ): Promise<WebhookView> {
      const row = await mustGet(orgId, id);
      const set: Partial<WebhookRow> = { updated_at: now() };
      if (patch.url !== undefined) {
        checkUrl(patch.url);
        set.url = patch.url;
      }
      if (patch.events !== undefined) set.events = JSON.stringify(checkEvents(patch.events));
      if (patch.metadata !== undefined) set.metadata = JSON.stringify(patch.metadata);
      if (patch.enabled !== undefined) {
        set.enabled = patch.enabled ? 1 : 0;
        // Turning an endpoint back on clears the reason the service turned it off.
        if (patch.enabled) set.disabled_reason = null;
      }
      await changed(change, async (trx) => {
        await createWebhooksRepo(trx).update(orgId, id, set);
        return {
          action: 'webhook_updated',
          targetId: id,
          urlOrigin: urlOrigin(set.url ?? row.url),
          ...(set.url !== undefined && urlOrigin(set.url) !== urlOrigin(row.url)
            ? { previousUrlOrigin: urlOrigin(row.url) }
            : {}),
          changed: Object.keys(patch).sort(),
          enabled: (set.enabled ?? row.enabled) === 1,
          severity: 'MEDIUM',
        };
      });
      return toView({ ...row, ...set }, now());
    },
    async remove(orgId: string, id: string, change?: WebhookChange): Promise<void> {
      await changed(change, async (trx) => {
        const r = createWebhooksRepo(trx);
        const row = await r.get(orgId, id);
        if (!row || !(await r.delete(orgId, id))) throw notFound('Webhook');
        return { action: 'webhook_deleted', targetId: id, urlOrigin: urlOrigin(row.url), severity: 'MEDIUM' };
      });
    },
    /**
     * New secret (given or generated); the previous one keeps signing webhook-signature for graceSeconds so
     * receivers can switch without a gap. graceSeconds 0 retires it at once.
     */
    async rotateSecret(
      orgId: string,
      id: string,
      input: { secret?: string | undefined; graceSeconds?: number | undefined },
      change?: WebhookChange,
    ): Promise<{ secret: string; previousSecretExpiresAt: string | null }> {
      const row = await mustGet(orgId, id);
      if (input.secret !== undefined) checkSecret(input.secret);
      const secret = input.secret ?? generateWebhookSecret();
      const grace = input.graceSeconds ?? DEFAULT_ROTATION_GRACE_SECONDS;
      const expires = grace > 0 ? new Date(deps.clock.now().getTime() + grace * 1000).toISOString() : null;
      await changed(change, async (trx) => {
        await createWebhooksRepo(trx).update(orgId, id, {
          secret_sealed: deps.sealer.seal(secret, id),
          previous_secret_sealed: expires ? row.secret_sealed : null,
          previous_secret_expires_at: expires,
          updated_at: now(),
        });
        return {
          action: 'webhook_secret_rotated',
          targetId: id,
          urlOrigin: urlOrigin(row.url),
          graceSeconds: grace,
          severity: 'LOW',
        };
      });
      return { secret, previousSecretExpiresAt: expires };
    },
    async deliveries(orgId: string, id: string, q: DeliveriesFilter) {
      await mustGet(orgId, id);
      const after = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
      const { rows, total } = await repo.listDeliveries(orgId, id, {
        page: q.page,
        perPage: q.perPage,
        ...(q.status ? { status: q.status } : {}),
        ...(q.eventType ? { eventType: q.eventType } : {}),
        ...(after ? { after } : {}),
      });
      const last = rows.length === q.perPage ? rows[rows.length - 1] : undefined;
      return {
        deliveries: rows.map(deliveryView),
        pagination: {
          total: Math.min(total, DELIVERY_COUNT_CAP),
          ...(total > DELIVERY_COUNT_CAP ? { totalIsLowerBound: true } : {}),
          page: q.page,
          perPage: q.perPage,
          ...(last ? { nextCursor: encodeCursor(last.created_at, last.id) } : {}),
        },
      };
    },
    async delivery(orgId: string, id: string, deliveryId: string) {
      await mustGet(orgId, id);
      const row = await repo.getDelivery(orgId, id, deliveryId);
      if (!row) throw notFound('Delivery');
      const attempts = await repo.attempts(orgId, deliveryId);
      return {
        delivery: deliveryView(row),
        attempts: attempts.map((a) => ({
          attempt: a.attempt,
          at: a.startedAt,
          responseCode: a.responseCode,
          latencyMs: a.latencyMs,
          errorClass: a.errorClass,
          error: a.error,
        })),
      };
    },
    /** Sends a test event now, one attempt, and reports the answer. */
    async test(orgId: string, id: string, eventType: EventType) {
      const hook = await mustGet(orgId, id);
      const at = now();
      const eventId = newId('evt');
      // Not written to the events table: reports, the overview and the event list read that table, and a
      // test is no activity of the organization. The delivery row keeps the history of the send.
      const event = {
        id: eventId,
        type: eventType,
        created_at: at,
        data: JSON.stringify(sampleData(eventType)),
        org_id: orgId,
      };
      const row: DeliveryRow = {
        id: newId('del'),
        org_id: orgId,
        webhook_id: hook.id,
        event_id: eventId,
        event_type: eventType,
        status: 'sending',
        attempts: 1,
        // Leased like any claimed row, so a worker does not take it while this request sends it.
        next_attempt_at: new Date(deps.clock.now().getTime() + 60_000).toISOString(),
        last_attempt_at: at,
        delivered_at: null,
        response_code: null,
        response_time_ms: null,
        error: null,
        is_test: 1,
        created_at: at,
      };
      await repo.insertDelivery(row);
      const outcome = await deps.dispatcher.sendNow(row, event);
      return {
        success: outcome.status === 'delivered',
        deliveryId: row.id,
        responseCode: outcome.responseCode,
        responseTimeMs: outcome.responseTimeMs,
        error: outcome.error,
      };
    },
    /** Puts one finished delivery back in the queue for a new round of attempts. */
    async redeliver(orgId: string, id: string, deliveryId: string): Promise<DeliveryView> {
      await mustGet(orgId, id);
      const row = await repo.getDelivery(orgId, id, deliveryId);
      if (!row) throw notFound('Delivery');
      if (row.status === 'pending' || row.status === 'sending') {
        throw new AppError('conflict', 'This delivery is still being attempted.');
      }
      if ((await repo.requeue(orgId, id, [deliveryId], now())) === 0) {
        throw new AppError(
          'conflict',
          'The event of this delivery is not stored (a test send, or an event past retention); send a new test instead.',
        );
      }
      deps.wake?.();
      const again = await repo.getDelivery(orgId, id, deliveryId);
      return deliveryView(again ?? row);
    },
    /** Every failed delivery created in [since, until) goes back in the queue; returns how many. */
    async recover(orgId: string, id: string, since: string, until?: string): Promise<number> {
      await mustGet(orgId, id);
      const n = await repo.requeue(orgId, id, 'failed', now(), since, until);
      if (n > 0) deps.wake?.();
      return n;
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
