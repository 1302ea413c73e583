import type { Clock } from '../../platform/clock/index.js';
import { newId, type Sealer } from '../../platform/crypto/index.js';
import { type Outbound, OutboundError } from '../../platform/net/index.js';
import { createGroupCommit, type Db, type DialectName } from '../../platform/storage/index.js';
import { classifyWebhookStatus, nextWebhookAttempt } from './retry.js';
import { webhookHeaders } from './signing.js';
import { createTaskPool } from './task-pool.js';
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
  /** Requests in flight at once in this process. */
  concurrency?: number;
  /**
   * Requests in flight at once to one webhook in this process, so a slow or failing endpoint cannot take
   * every slot and hold up the other endpoints' deliveries and retries.
   */
  perEndpoint?: number;
  /** How long a claimed delivery stays hidden from other workers; longer than the request timeout. */
  leaseMs?: number;
  /** A slot came free: the worker loop should take new due work now (see createEventWorkers). */
  onSlotFree?: () => void;
  /** A send whose outcome could not be written (its lease ends and it is attempted again). */
  onError?: (err: unknown) => void;
}

/** Event body exactly as the spec shapes it; `data` is already JSON text, spliced in without re-parsing. */
export function eventBody(ctx: SendContext): string {
  const e = ctx.event;
  return `{"id":${JSON.stringify(e.id)},"type":${JSON.stringify(e.type)},"created":${JSON.stringify(e.created_at)},"data":${e.data},"organization":{"id":${JSON.stringify(e.org_id)},"name":${JSON.stringify(ctx.orgName)}}}`;
}

/**
 * Sends due webhook deliveries as a pool: `fill` claims due rows for the free slots (at most `perEndpoint`
 * per webhook) and starts each send at once; each outcome and its attempt log are written as that send
 * ends (group-committed with the others ending meanwhile), and the freed slot takes new due work. So a
 * receiver that hangs for its 10 s holds its own slots only: other deliveries and every retry keep their
 * schedule. A process killed mid-flight leaves its rows leased; they become due again when the lease ends
 * (at once on SQLite, where the next start releases every lease).
 */
export function createWebhookDispatcher(deps: WebhookDispatcherDeps) {
  const repo = createWebhooksRepo(deps.db);
  const concurrency = deps.concurrency ?? 64;
  const perEndpoint = Math.min(concurrency, deps.perEndpoint ?? 16);
  const leaseMs = deps.leaseMs ?? WEBHOOK_TIMEOUT_MS + 5_000;
  const secretCache = new Map<string, string>();
  // Outcomes of sends that end together share one transaction: one commit per delivery would cap a backlog's
  // drain at the disk's commit rate.
  const outcomes = createGroupCommit(deps.db, {
    concurrency: deps.dialect === 'sqlite' ? 1 : 2,
  });
  const inFlightPerHook = new Map<string, number>();
  // A send that outlasts its lease (a receiver holding it, a slow outcome commit) makes its row due again:
  // the claim leaves these ids out, or this process would send the same delivery a second time.
  const sending = new Set<string>();

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

  /** One claimed delivery as a task of the pool: its attempt, then its outcome written. */
  function send(row: DeliveryRow, ctx: SendContext | undefined) {
    const hook = row.webhook_id;
    inFlightPerHook.set(hook, (inFlightPerHook.get(hook) ?? 0) + 1);
    sending.add(row.id);
    return async () => {
      try {
        const outcome = await attempt(row, ctx);
        await outcomes.run((trx) => createWebhooksRepo(trx).writeOutcomes([outcome]));
      } finally {
        sending.delete(row.id);
        const left = (inFlightPerHook.get(hook) ?? 1) - 1;
        if (left > 0) inFlightPerHook.set(hook, left);
        else inFlightPerHook.delete(hook);
      }
    };
  }

  const sends = createTaskPool({
    capacity: concurrency,
    async claim(free, start) {
      const now = deps.clock.now();
      const rows = await repo.claimDue(
        deps.dialect,
        now.toISOString(),
        new Date(now.getTime() + leaseMs).toISOString(),
        free,
        { perEndpoint, inFlight: inFlightPerHook, sending },
      );
      if (rows.length === 0) return 0;
      const ctxs = await repo.sendContexts(rows);
      for (const r of rows) start(send(r, ctxs.get(r.id)));
      return rows.length;
    },
    onFree: deps.onSlotFree,
    onError: deps.onError,
  });

  return {
    /**
     * Starts due deliveries in the free slots and returns how many it started, without waiting for them:
     * the worker loop calls it again when a slot frees (onSlotFree) or at its idle poll.
     */
    fill: sends.fill,
    /**
     * Claims and sends due deliveries, waiting for every send and its recorded outcome, until none is due
     * or `maxRounds` rounds were made; returns how many attempts were made. Tests call it directly with a
     * ManualClock instead of waiting for the loop.
     */
    runDue: sends.runDue,
    /** Stops taking work and waits for the sends in flight and their outcomes (stopping a worker). */
    close: sends.close,
    /**
     * Sends one delivery row that the caller created in state 'sending' (the test button) with its event,
     * which is not stored (a test is no activity of the organization); returns the outcome.
     */
    async sendNow(row: DeliveryRow, event: SendContext['event']): Promise<DeliveryOutcome> {
      const ctxs = await repo.sendContexts([row], event);
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
