import type { Clock } from '../../platform/clock/index.js';
import { newId, type Sealer } from '../../platform/crypto/index.js';
import { type Outbound, OutboundError } from '../../platform/net/index.js';
import type { Db, DialectName } from '../../platform/storage/index.js';
import { classifyWebhookStatus, nextWebhookAttempt } from './retry.js';
import { webhookHeaders } from './signing.js';
import {
  createWebhooksRepo,
  type DeliveryOutcome,
  type DeliveryRow,
  type SendContext,
} from './webhooks.repo.js';

/** The spec's delivery deadline. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

export interface WebhookDispatcherDeps {
  db: Db;
  dialect: DialectName;
  clock: Clock;
  sealer: Sealer;
  outbound: Outbound;
  /** Deliveries claimed per round trip to the database. */
  batchSize?: number;
  /** Requests in flight at once. */
  concurrency?: number;
  /** How long a claimed delivery stays hidden from other workers; longer than the request timeout. */
  leaseMs?: number;
}

/** Event body exactly as the spec shapes it; `data` is already JSON text, spliced in without re-parsing. */
export function eventBody(ctx: SendContext): string {
  const e = ctx.event;
  return `{"id":${JSON.stringify(e.id)},"type":${JSON.stringify(e.type)},"created":${JSON.stringify(e.created_at)},"data":${e.data},"organization":{"id":${JSON.stringify(e.org_id)},"name":${JSON.stringify(ctx.orgName)}}}`;
}

async function pool<T, R>(items: T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return out;
}

/**
 * Sends due webhook deliveries: claims rows, POSTs the signed event, writes the outcome and the attempt log
 * back in one transaction per batch. A process killed mid-flight leaves its rows leased; they become due
 * again when the lease ends (at once on SQLite, where the next start releases every lease).
 */
export function createWebhookDispatcher(deps: WebhookDispatcherDeps) {
  const repo = createWebhooksRepo(deps.db);
  const batchSize = deps.batchSize ?? 200;
  const concurrency = deps.concurrency ?? 64;
  const leaseMs = deps.leaseMs ?? WEBHOOK_TIMEOUT_MS + 5_000;
  const secretCache = new Map<string, string>();

  const open = (sealed: string, webhookId: string) => {
    const key = `${webhookId}:${sealed}`;
    let plain = secretCache.get(key);
    if (plain === undefined) {
      plain = deps.sealer.open(sealed, webhookId);
      if (secretCache.size > 5_000) secretCache.clear();
      secretCache.set(key, plain);
    }
    return plain;
  };

  function finish(
    row: DeliveryRow,
    at: Date,
    result: {
      code: number | null;
      timeMs: number;
      errorClass: string | null;
      error: string | null;
      retryAfter?: string;
    },
    disable?: DeliveryOutcome['disableWebhook'],
  ): DeliveryOutcome {
    const ok = result.code !== null && classifyWebhookStatus(result.code) === 'delivered';
    const terminal = ok || disable !== undefined || row.is_test === 1 || result.errorClass === 'ssrf_blocked';
    const next = terminal ? null : nextWebhookAttempt(row.attempts, at, result.retryAfter);
    const status = ok ? 'delivered' : next === null ? 'failed' : 'pending';
    return {
      id: row.id,
      attempts: row.attempts,
      status,
      nextAttemptAt: next?.toISOString() ?? null,
      deliveredAt: ok ? at.toISOString() : null,
      responseCode: result.code,
      responseTimeMs: result.timeMs,
      error: result.error,
      attempt: {
        id: newId('att'),
        orgId: row.org_id,
        deliveryId: row.id,
        attempt: row.attempts,
        startedAt: at.toISOString(),
        responseCode: result.code,
        latencyMs: result.timeMs,
        errorClass: result.errorClass,
        error: result.error,
      },
      ...(disable ? { disableWebhook: disable } : {}),
    };
  }

  /** One attempt of one claimed delivery; never throws. */
  async function attempt(row: DeliveryRow, ctx: SendContext | undefined): Promise<DeliveryOutcome> {
    const at = deps.clock.now();
    const none = { code: null, timeMs: 0 };
    if (!ctx)
      return finish({ ...row, is_test: 1 }, at, {
        ...none,
        errorClass: 'event_missing',
        error: 'event not found',
      });
    const hook = ctx.webhook;
    if (!hook)
      return finish({ ...row, is_test: 1 }, at, {
        ...none,
        errorClass: 'endpoint_deleted',
        error: 'webhook deleted',
      });
    if (hook.enabled !== 1 && row.is_test !== 1) {
      return finish({ ...row, is_test: 1 }, at, {
        ...none,
        errorClass: 'endpoint_disabled',
        error: 'webhook disabled',
      });
    }
    const body = eventBody(ctx);
    const secrets: string[] = [];
    if (
      hook.previous_secret_sealed &&
      hook.previous_secret_expires_at &&
      hook.previous_secret_expires_at > at.toISOString()
    ) {
      secrets.push(open(hook.previous_secret_sealed, hook.id));
    }
    const headers = webhookHeaders({
      secret: open(hook.secret_sealed, hook.id),
      secrets,
      eventId: ctx.event.id,
      eventType: ctx.event.type,
      timestampSec: Math.floor(at.getTime() / 1000),
      rawBody: body,
    });
    headers['user-agent'] = 'Parapet-Webhooks/1';
    try {
      const res = await deps.outbound.request(hook.url, {
        method: 'POST',
        headers,
        body,
        timeoutMs: WEBHOOK_TIMEOUT_MS,
      });
      const outcome = classifyWebhookStatus(res.status);
      const result = {
        code: res.status,
        timeMs: res.timeMs,
        errorClass: outcome === 'delivered' ? null : 'http_status',
        error: outcome === 'delivered' ? null : `HTTP ${res.status}`,
        ...(res.headers['retry-after'] === undefined ? {} : { retryAfter: res.headers['retry-after'] }),
      };
      const disable =
        outcome === 'disable_endpoint'
          ? {
              orgId: row.org_id,
              webhookId: hook.id,
              reason: 'endpoint answered 410 Gone',
              at: at.toISOString(),
            }
          : undefined;
      return finish(row, at, result, disable);
    } catch (err) {
      const e = err instanceof OutboundError ? err : null;
      return finish(row, at, {
        code: null,
        timeMs: deps.clock.now().getTime() - at.getTime(),
        errorClass: e?.code ?? 'error',
        error: e ? `${e.code}: ${e.message}`.slice(0, 500) : 'delivery failed',
      });
    }
  }

  return {
    /**
     * Claims and sends due deliveries until none is due or `maxBatches` batches were sent; returns how many
     * attempts were made. Tests call it directly with a ManualClock instead of waiting for the loop.
     */
    async runDue(maxBatches = 10): Promise<number> {
      let done = 0;
      for (let b = 0; b < maxBatches; b++) {
        const now = deps.clock.now();
        const rows = await repo.claimDue(
          deps.dialect,
          now.toISOString(),
          new Date(now.getTime() + leaseMs).toISOString(),
          batchSize,
        );
        if (rows.length === 0) break;
        const ctxs = await repo.sendContexts(rows);
        const outcomes = await pool(rows, concurrency, (r) => attempt(r, ctxs.get(r.id)));
        await repo.recordOutcomes(outcomes);
        done += rows.length;
        if (rows.length < batchSize) break;
      }
      return done;
    },
    /** Sends one delivery row that the caller created in state 'sending' (the test button); returns the outcome. */
    async sendNow(row: DeliveryRow): Promise<DeliveryOutcome> {
      const ctxs = await repo.sendContexts([row]);
      const outcome = await attempt(row, ctxs.get(row.id));
      await repo.recordOutcomes([outcome]);
      return outcome;
    },
    async releaseAllLeases(): Promise<number> {
      return repo.releaseAllLeases(deps.clock.now().toISOString());
    },
    async nextDueAt(): Promise<string | null> {
      return repo.nextDueAt();
    },
  };
}

export type WebhookDispatcher = ReturnType<typeof createWebhookDispatcher>;
