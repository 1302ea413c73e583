import { Value } from 'typebox/value';
import type { Clock } from '../../platform/clock/index.js';
import { newId, type Sealer } from '../../platform/crypto/index.js';
import { invalid, notFound } from '../../platform/errors/index.js';
import type { Outbound } from '../../platform/net/index.js';
import type { Db } from '../../platform/storage/index.js';
import { type IntegrationBody, mergeBody, openBody, publicPart, sealBody } from './integration-secrets.js';
import type { SiemForwarder } from './siem-forwarder.js';
import { siemTargetProblem } from './siem-targets.js';
import { createSiemRepo, type IntegrationRow } from './siem.repo.js';
import { SiemIntegrationCreateSchema } from './siem.schemas.js';
import { createSink, toSinkIntegration } from './sinks/index.js';

/** Events waiting per integration before the oldest move to the dead-letter state (reason queue_full). */
export const DEFAULT_QUEUE_LIMIT = 100_000;

export interface IntegrationStatus {
  /** closed: healthy; open: failing, waiting for nextAttemptAt; half_open: due for a probe. */
  circuit: 'closed' | 'open' | 'half_open';
  consecutiveFailures: number;
  nextAttemptAt: string | null;
  lastError: string | null;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  queued: number;
  deadLettered: number;
  delivered: number;
  queueLimit: number;
}

export interface IntegrationView extends Omit<IntegrationBody, 'name'> {
  id: string;
  name: string;
  platform: string;
  enabled: boolean;
  secretFields: string[];
  status: IntegrationStatus;
  createdAt: string;
  updatedAt: string;
}

export interface SiemServiceDeps {
  db: Db;
  clock: Clock;
  sealer: Sealer;
  outbound: Outbound;
  allowPrivateTargets: boolean;
  forwarder: Pick<SiemForwarder, 'testConnection'>;
}

export function createSiemService(deps: SiemServiceDeps) {
  const repo = createSiemRepo(deps.db);
  const now = () => deps.clock.now().toISOString();

  /** Refuses a body no sink can be built from, with the sink's own explanation. */
  function validate(body: IntegrationBody) {
    if (!Value.Check(SiemIntegrationCreateSchema, body)) {
      const first = [...Value.Errors(SiemIntegrationCreateSchema, body)][0];
      throw invalid(
        `invalid integration: ${first ? `${first.instancePath || '/'} ${first.message}` : 'shape not recognised'}`,
      );
    }
    let integration: ReturnType<typeof toSinkIntegration>['integration'];
    try {
      integration = toSinkIntegration(body).integration;
    } catch (err) {
      throw invalid(`invalid integration: ${(err as Error).message}`);
    }
    // Where events would go first: the outbound policy's 400 names the field.
    const target = siemTargetProblem(integration, deps.allowPrivateTargets);
    if (target !== null) throw invalid(target);
    try {
      // Building the sink checks required fields; it opens no connection until the first send.
      void createSink(integration, {
        outbound: deps.outbound,
        allowPrivate: deps.allowPrivateTargets,
      }).close();
    } catch (err) {
      throw invalid(`invalid integration: ${(err as Error).message}`);
    }
  }

  function view(row: IntegrationRow, counts: { queued: number; dead: number } | undefined): IntegrationView {
    const { body, secretFields } = publicPart(JSON.parse(row.public_body) as IntegrationBody);
    const t = now();
    const circuit = row.circuit === 'closed' ? 'closed' : row.next_attempt_at <= t ? 'half_open' : 'open';
    return {
      ...body,
      id: row.id,
      name: row.name,
      platform: row.platform,
      enabled: row.enabled === 1,
      secretFields: JSON.parse(row.rules).secretFields ?? secretFields,
      status: {
        circuit,
        consecutiveFailures: row.consecutive_failures,
        nextAttemptAt: row.circuit === 'closed' ? null : row.next_attempt_at,
        lastError: row.last_error,
        lastSuccessAt: row.last_success_at,
        lastFailureAt: row.last_failure_at,
        queued: counts?.queued ?? 0,
        deadLettered: counts?.dead ?? 0,
        delivered: Number(row.delivered_count),
        queueLimit: row.queue_limit,
      },
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  function rowFields(id: string, body: IntegrationBody) {
    const { integration, rules } = toSinkIntegration(body);
    const { body: pub, secretFields } = publicPart(body);
    return {
      platform: integration.platform,
      name: body.name,
      public_body: JSON.stringify(pub),
      secret_body: sealBody(deps.sealer, id, body),
      endpoint: body.endpoint ?? null,
      rules: JSON.stringify({ ...rules, secretFields }),
      enabled: body.enabled === false ? 0 : 1,
    };
  }

  const mustGet = async (orgId: string, id: string) => {
    const row = await repo.get(orgId, id);
    if (!row) throw notFound('SIEM integration');
    return row;
  };
  const one = async (orgId: string, row: IntegrationRow) =>
    view(row, (await repo.queueCounts(orgId)).get(row.id));

  return {
    async create(orgId: string, body: IntegrationBody): Promise<IntegrationView> {
      validate(body);
      const id = newId('siem');
      const at = now();
      const row: IntegrationRow = {
        id,
        org_id: orgId,
        ...rowFields(id, body),
        circuit: 'closed',
        consecutive_failures: 0,
        next_attempt_at: at,
        lease_until: null,
        last_error: null,
        last_success_at: null,
        last_failure_at: null,
        delivered_count: 0,
        queue_limit: DEFAULT_QUEUE_LIMIT,
        created_at: at,
        updated_at: at,
      };
      await repo.insert(row);
      return view(row, undefined);
    },
    async list(orgId: string): Promise<IntegrationView[]> {
      const counts = await repo.queueCounts(orgId);
      return (await repo.list(orgId)).map((r) => view(r, counts.get(r.id)));
    },
    async get(orgId: string, id: string): Promise<IntegrationView> {
      return one(orgId, await mustGet(orgId, id));
    },
    /**
     * Merges the change into the stored body (secrets stay unless replaced) and re-validates the result. A
     * changed configuration closes the breaker so that the queue is tried again at once.
     */
    async update(orgId: string, id: string, patch: Partial<IntegrationBody>): Promise<IntegrationView> {
      const row = await mustGet(orgId, id);
      const stored = openBody(deps.sealer, id, row.secret_body);
      if (patch.platform !== undefined && patch.platform !== stored.platform)
        throw invalid('platform cannot change');
      if (patch.type !== undefined && patch.type !== stored.type) throw invalid('type cannot change');
      const merged = mergeBody(stored, patch);
      validate(merged);
      const at = now();
      const set: Partial<IntegrationRow> = {
        ...rowFields(id, merged),
        circuit: 'closed',
        consecutive_failures: 0,
        next_attempt_at: at,
        updated_at: at,
      };
      await repo.update(orgId, id, set);
      return one(orgId, { ...row, ...set });
    },
    async remove(orgId: string, id: string): Promise<void> {
      if (!(await repo.delete(orgId, id))) throw notFound('SIEM integration');
    },
    async test(orgId: string, id: string) {
      const row = await mustGet(orgId, id);
      const started = Date.now();
      const r = await deps.forwarder.testConnection(row);
      return {
        success: r.ok,
        responseCode: r.status ?? null,
        responseTimeMs: Date.now() - started,
        error: r.ok ? null : (r.error ?? 'failed'),
        reason: r.ok ? null : (r.reason ?? null),
      };
    },
    async deadLetters(orgId: string, id: string, page: number, perPage: number) {
      await mustGet(orgId, id);
      const { rows, total } = await repo.listDead(orgId, id, page, perPage);
      return {
        deadLetters: rows.map((r) => ({
          eventId: r.event_id,
          eventCreatedAt: r.event_created_at,
          attempts: r.attempts,
          error: r.last_error,
        })),
        pagination: { total, page, perPage },
      };
    },
    /** Moves every dead-lettered event back to the queue; due at once. */
    async retryDeadLetters(orgId: string, id: string): Promise<number> {
      await mustGet(orgId, id);
      const n = await repo.requeueDead(orgId, id);
      if (n > 0) await repo.update(orgId, id, { next_attempt_at: now() });
      return n;
    },
  };
}

export type SiemService = ReturnType<typeof createSiemService>;
