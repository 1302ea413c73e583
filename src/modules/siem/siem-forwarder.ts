import type { Clock } from '../../platform/clock/index.js';
import type { Sealer } from '../../platform/crypto/index.js';
import type { Outbound } from '../../platform/net/index.js';
import type { Db, DialectName } from '../../platform/storage/index.js';
import { createTaskPool, siemBackoff } from '../events/index.js';
import { openBody } from './integration-secrets.js';
import { toSiemEvent } from './siem-event.js';
import { withoutQueries } from './sinks/http-result.js';
import { type BreakerUpdate, createSiemRepo, type IntegrationRow } from './siem.repo.js';
import {
  createSink,
  effectiveEventTypes,
  type ForwardingRules,
  type SiemEvent,
  type Sink,
  type SinkResult,
  shouldForward,
  toSinkIntegration,
} from './sinks/index.js';

export interface SiemForwarderDeps {
  db: Db;
  dialect: DialectName;
  clock: Clock;
  sealer: Sealer;
  outbound: Outbound;
  allowPrivate: boolean;
  /** Events read from the queue per send (sinks split further to each platform's limits). */
  batchSize?: number;
  /** Batches per integration per lease, so one large backlog does not starve other integrations. */
  maxBatches?: number;
  /** Integrations drained at once in this process, each by its own lane (one slow SIEM holds one lane). */
  concurrency?: number;
  /** Size of the single probe batch sent when a failing destination is due again (half-open). */
  probeSize?: number;
  leaseMs?: number;
  random?: () => number;
  /** A lane came free: the worker loop should take new due integrations now (see createEventWorkers). */
  onSlotFree?: () => void;
  /** A drain that failed on the database (the integration's lease ends and it is taken again). */
  onError?: (err: unknown) => void;
}

/** Builds the sink of an integration from its sealed body; throws TypeError on an unusable configuration. */
export function sinkFor(
  row: IntegrationRow,
  deps: Pick<SiemForwarderDeps, 'sealer' | 'outbound' | 'allowPrivate'>,
): Sink {
  const body = openBody(deps.sealer, row.id, row.secret_body);
  const { integration } = toSinkIntegration(body);
  return createSink(integration, { outbound: deps.outbound, allowPrivate: deps.allowPrivate });
}

/**
 * Drains each integration's durable queue through its sink, oldest event first, behind a circuit breaker
 * kept in the database: a failure opens it (events stay queued, no network calls) until the backoff
 * expires; then one small probe batch is sent (half-open); success closes it and the backlog drains in
 * creation order. Permanently rejected events move to the dead-letter state with their reason.
 *
 * Integrations drain in parallel lanes: a lane frees when its integration is settled and takes the next due
 * one at once, so a SIEM that answers slowly (or not at all until the timeout) delays only its own events.
 */
export function createSiemForwarder(deps: SiemForwarderDeps) {
  const repo = createSiemRepo(deps.db);
  const batchSize = deps.batchSize ?? 500;
  const maxBatches = deps.maxBatches ?? 20;
  const probeSize = deps.probeSize ?? 10;
  const leaseMs = deps.leaseMs ?? 60_000;
  const concurrency = deps.concurrency ?? 8;
  // Queue rows settled by every drain so far; runDue reports its own share.
  let settledTotal = 0;
  const sinks = new Map<string, { version: string; sink: Sink }>();

  const iso = (d: Date) => d.toISOString();

  async function cachedSink(row: IntegrationRow): Promise<Sink> {
    // The sealed body changes on every save (fresh IV), so it identifies the configuration exactly.
    const version = row.secret_body;
    const have = sinks.get(row.id);
    if (have && have.version === version) return have.sink;
    if (have) await have.sink.close().catch(() => undefined);
    const sink = sinkFor(row, deps);
    sinks.set(row.id, { version, sink });
    return sink;
  }

  function failure(failures: number, error: string, retryAfterMs?: number): BreakerUpdate {
    const now = deps.clock.now();
    let next = siemBackoff(failures, now, deps.random ? { random: deps.random } : {});
    if (retryAfterMs !== undefined && now.getTime() + retryAfterMs > next.getTime()) {
      next = new Date(now.getTime() + retryAfterMs);
    }
    return {
      circuit: 'open',
      consecutiveFailures: failures,
      nextAttemptAt: iso(next),
      lastError: withoutQueries(`${error}`).slice(0, 500),
      lastFailureAt: iso(now),
    };
  }

  /** Drains one leased integration; returns the number of queue rows it settled. */
  async function drain(row: IntegrationRow): Promise<number> {
    const stored = JSON.parse(row.rules) as ForwardingRules;
    // Rows stored before the default was made explicit have no eventTypes: read them with today's default.
    const rules = { ...stored, eventTypes: effectiveEventTypes(row.platform, stored) };
    let failures = row.consecutive_failures;
    let settled = 0;
    await repo.enforceBound(
      row.id,
      row.queue_limit,
      `queue_full: more than ${row.queue_limit} events waiting`,
    );
    let sink: Sink;
    try {
      sink = await cachedSink(row);
    } catch (err) {
      failures += 1;
      await repo.settle(row.id, {
        remove: [],
        retry: { ids: [], error: '' },
        dead: [],
        breaker: failure(failures, `configuration: ${(err as Error).message}`),
        leaseUntil: null,
      });
      return 0;
    }
    for (let b = 0; b < maxBatches; b++) {
      const size = failures > 0 ? probeSize : batchSize;
      const batch = await repo.nextBatch(row.id, size);
      if (batch.length === 0) break;
      const remove: string[] = [];
      const dead: { id: string; error: string }[] = [];
      const toSend: SiemEvent[] = [];
      const queueIdOf = new Map<string, string>();
      for (const q of batch) {
        if (!q.event) {
          dead.push({ id: q.queueId, error: 'event not found' });
          continue;
        }
        const ev = toSiemEvent({ ...q.event, data: JSON.parse(q.event.data) as Record<string, unknown> });
        if (!shouldForward(rules, ev)) {
          remove.push(q.queueId);
          continue;
        }
        toSend.push(ev);
        queueIdOf.set(ev.id, q.queueId);
      }
      let res: SinkResult = { ok: true, retryable: false };
      if (toSend.length > 0) {
        await repo.setLease(row.id, iso(new Date(deps.clock.now().getTime() + leaseMs)));
        res = await sink.send(toSend);
      }
      const retryIds: string[] = [];
      let breaker: BreakerUpdate;
      const now = iso(deps.clock.now());
      if (res.ok) {
        for (const ev of toSend) remove.push(queueIdOf.get(ev.id) as string);
        failures = 0;
        breaker = {
          circuit: 'closed',
          consecutiveFailures: 0,
          nextAttemptAt: now,
          lastSuccessAt: now,
          lastError: null,
          delivered: toSend.length,
        };
      } else {
        const rejected = new Map(
          (
            res.rejected ??
            toSend.map((e) => ({ id: e.id, retryable: res.retryable, error: res.error ?? 'failed' }))
          ).map((r) => [r.id, r]),
        );
        // An unreachable or unauthorised destination keeps the data (someone can fix it); a refused payload does not.
        const keep = res.reason === 'auth' || res.reason === 'blocked';
        let delivered = 0;
        for (const ev of toSend) {
          const qid = queueIdOf.get(ev.id) as string;
          const r = rejected.get(ev.id);
          if (!r) {
            remove.push(qid);
            delivered++;
          } else if (r.retryable || keep) retryIds.push(qid);
          else dead.push({ id: qid, error: withoutQueries(r.error).slice(0, 500) });
        }
        if (retryIds.length > 0) {
          failures += 1;
          breaker = { ...failure(failures, res.error ?? 'failed', res.retryAfterMs), delivered };
        } else {
          // The destination answered and judged the payload: it is up, only those events are bad.
          failures = 0;
          breaker = {
            circuit: 'closed',
            consecutiveFailures: 0,
            nextAttemptAt: now,
            lastSuccessAt: now,
            lastError: res.error === undefined ? null : withoutQueries(res.error).slice(0, 500),
            delivered,
          };
        }
      }
      const last = retryIds.length > 0 || batch.length < size || b === maxBatches - 1;
      await repo.settle(row.id, {
        remove,
        retry: { ids: retryIds, error: withoutQueries(res.error ?? 'failed').slice(0, 500) },
        dead,
        breaker,
        leaseUntil: last ? null : iso(new Date(deps.clock.now().getTime() + leaseMs)),
      });
      settled += remove.length + dead.length;
      if (last) return settled;
    }
    await repo.setLease(row.id, null);
    return settled;
  }

  /** Each due integration drains in a lane of its own; a lane frees when its integration is settled. */
  const lanes = createTaskPool({
    capacity: concurrency,
    async claim(free, start) {
      const now = deps.clock.now();
      const rows = await repo.claimDue(deps.dialect, iso(now), iso(new Date(now.getTime() + leaseMs)), free);
      for (const row of rows)
        start(async () => {
          settledTotal += await drain(row);
        });
      return rows.length;
    },
    onFree: deps.onSlotFree,
    onError: deps.onError,
  });

  return {
    /**
     * Starts draining due integrations in the free lanes and returns how many it started, without waiting:
     * the worker loop calls it again when a lane frees (onSlotFree) or at its idle poll.
     */
    fill: lanes.fill,
    /**
     * Drains due integrations and waits for them, round after round until none is due (bounded); returns
     * integrations handled plus queue rows settled, 0 when there was nothing to do. Tests call it directly.
     */
    async runDue(maxRounds = 10): Promise<number> {
      const before = settledTotal;
      // Integrations that only failed settle nothing, but they were work: counted so the loop goes on.
      const started = await lanes.runDue(maxRounds);
      return started + settledTotal - before;
    },
    /** Sends one synthetic event through a fresh sink for the integration and reports the answer. */
    async testConnection(row: IntegrationRow): Promise<SinkResult> {
      let sink: Sink;
      try {
        sink = sinkFor(row, deps);
      } catch (err) {
        return {
          ok: false,
          retryable: false,
          reason: 'permanent',
          error: `configuration: ${(err as Error).message}`,
        };
      }
      try {
        const at = iso(deps.clock.now());
        return await sink.send([
          {
            id: `evt_test_${Date.now().toString(36)}`,
            category: 'AUDIT',
            type: 'audit.siem_test',
            severity: 'LOW',
            timestamp: at,
            organizationId: row.org_id,
            data: { test: true, message: 'Parapet SIEM connection test' },
          },
        ]);
      } finally {
        await sink.close().catch(() => undefined);
      }
    },
    async releaseAllLeases(): Promise<number> {
      return repo.releaseAllLeases();
    },
    /** Stops taking integrations, waits for the drains in flight, then closes the sinks. */
    async close(): Promise<void> {
      await lanes.close();
      const all = [...sinks.values()];
      sinks.clear();
      await Promise.all(all.map((s) => s.sink.close().catch(() => undefined)));
    },
  };
}

export type SiemForwarder = ReturnType<typeof createSiemForwarder>;
