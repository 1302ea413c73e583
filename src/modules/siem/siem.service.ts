import { Value } from 'typebox/value';
import type { Clock } from '../../platform/clock/index.js';
import { newId, type Sealer } from '../../platform/crypto/index.js';
import { invalid, notFound } from '../../platform/errors/index.js';
import type { Outbound } from '../../platform/net/index.js';
import type { Db } from '../../platform/storage/index.js';
import {
  type IntegrationBody,
  mergeBody,
  openBody,
  publicPart,
  sealBody,
  secretsLeftBehind,
} from './integration-secrets.js';
import type { SiemForwarder } from './siem-forwarder.js';
import { eventTypesProblem } from './siem-event-types.js';
import { siemTargetProblem } from './siem-targets.js';
import { createSiemRepo, type IntegrationRow } from './siem.repo.js';
import { SiemIntegrationCreateSchema } from './siem.schemas.js';
import {
  createSink,
  effectiveEventTypes,
  type SiemWebhookConfig,
  toSinkIntegration,
  webhookHeadersProblem,
} from './sinks/index.js';

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

export interface IntegrationView extends Omit<IntegrationBody, 'name' | 'eventTypes'> {
  /** What is forwarded: the given entries or the platform's default (effectiveEventTypes). */
  eventTypes: string[];
  id: string;
  name: string;
  platform: string;
  enabled: boolean;
  secretFields: string[];
  status: IntegrationStatus;
  createdAt: string;
  updatedAt: string;
}

/** Who changed an integration, for its audit event: a dashboard user or an admin-scope API key. */
export interface SiemChange {
  org: { id: string; plan: string };
  actor: { userId: string | null; apiKeyId: string | null };
}

export interface SiemServiceDeps {
  db: Db;
  clock: Clock;
  sealer: Sealer;
  outbound: Outbound;
  allowPrivateTargets: boolean;
  forwarder: Pick<SiemForwarder, 'testConnection'>;
  /** events.publish, passed in (siem does not import events): writes `audit.siem_integration`. */
  publish?: (
    db: Db,
    org: { id: string; plan: string },
    type: 'audit.siem_integration',
    data: Record<string, unknown>,
  ) => Promise<unknown>;
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
    const types = eventTypesProblem(body.eventTypes);
    if (types !== null) throw invalid(types);
    // Where events would go first: the outbound policy's 400 names the field.
    const target = siemTargetProblem(integration, deps.allowPrivateTargets);
    if (target !== null) throw invalid(target);
    const headers =
      integration.platform === 'WEBHOOK' ? (integration.config as SiemWebhookConfig).headers : undefined;
    const headerProblem = webhookHeadersProblem(headers);
    if (headerProblem !== null) throw invalid(headerProblem);
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
      eventTypes: effectiveEventTypes(row.platform, body),
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

  /**
   * Creating, changing and deleting an integration are audit events (AUDIT), written in the change's
   * transaction: switching off or deleting the forwarding is what an intruder would do first, and without
   * the event nothing recorded it. The data names the fields changed, never their values (secrets live
   * there). Published before the change is applied: the event reaches the organization's other enabled
   * integrations, and the one changed under the rules it had (a deleted one's queue goes with it).
   */
  const audit = async (trx: Db, change: SiemChange | undefined, data: Record<string, unknown>) => {
    if (!change || !deps.publish) return;
    await deps.publish(trx, change.org, 'audit.siem_integration', {
      ...data,
      targetType: 'siem_integration',
      actor: change.actor,
    });
  };

  return {
    async create(orgId: string, body: IntegrationBody, change?: SiemChange): Promise<IntegrationView> {
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
      await deps.db.transaction().execute(async (trx) => {
        await audit(trx, change, {
          action: 'siem_integration_created',
          targetId: id,
          name: row.name,
          platform: row.platform,
          enabled: row.enabled === 1,
          severity: 'MEDIUM',
        });
        await createSiemRepo(trx).insert(row);
      });
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
    async update(
      orgId: string,
      id: string,
      patch: Partial<IntegrationBody>,
      change?: SiemChange,
    ): Promise<IntegrationView> {
      const row = await mustGet(orgId, id);
      const stored = openBody(deps.sealer, id, row.secret_body);
      if (patch.platform !== undefined && patch.platform !== stored.platform)
        throw invalid('platform cannot change');
      if (patch.type !== undefined && patch.type !== stored.type) throw invalid('type cannot change');
      const merged = mergeBody(stored, patch);
      const left = secretsLeftBehind(stored, merged, patch);
      if (left.missing.length > 0)
        throw invalid(
          `${left.changed.join(', ')} changed: send ${left.missing.join(', ')} again. A stored credential is never sent to a new destination.`,
        );
      validate(merged);
      const at = now();
      const set: Partial<IntegrationRow> = {
        ...rowFields(id, merged),
        circuit: 'closed',
        consecutive_failures: 0,
        next_attempt_at: at,
        updated_at: at,
      };
      const disabled = row.enabled === 1 && set.enabled === 0;
      await deps.db.transaction().execute(async (trx) => {
        await audit(trx, change, {
          action: disabled ? 'siem_integration_disabled' : 'siem_integration_updated',
          targetId: id,
          name: set.name ?? row.name,
          platform: row.platform,
          enabled: set.enabled === 1,
          // Field names only: config and credentials hold secrets.
          changed: Object.keys(patch).sort(),
          severity: disabled ? 'HIGH' : 'MEDIUM',
        });
        await createSiemRepo(trx).update(orgId, id, set);
      });
      return one(orgId, { ...row, ...set });
    },
    async remove(orgId: string, id: string, change?: SiemChange): Promise<void> {
      await deps.db.transaction().execute(async (trx) => {
        const r = createSiemRepo(trx);
        const row = await r.get(orgId, id);
        if (!row) throw notFound('SIEM integration');
        await audit(trx, change, {
          action: 'siem_integration_deleted',
          targetId: id,
          name: row.name,
          platform: row.platform,
          severity: 'HIGH',
        });
        if (!(await r.delete(orgId, id))) throw notFound('SIEM integration');
      });
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
