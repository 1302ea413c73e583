import { Type } from 'typebox';
import { type App, errorResponses, callerOf, nameText } from '../../platform/http/index.js';
import { addressOrigin } from '../../platform/net/index.js';
import { callerRole } from '../auth/index.js';
import type { IntegrationBody } from './integration-secrets.js';
import { SiemEventTypeEntrySchema, SiemIntegrationCreateSchema } from './siem.schemas.js';
import type { IntegrationView as Integration, SiemChange, SiemService } from './siem.service.js';

const MANAGE = ['owner', 'admin'] as const;
const TAGS = ['siem'];
const BASE = '/api/saas/siem/integrations';
const Iso = Type.String({ format: 'date-time' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

const AnyMap = Type.Record(Type.String(), Type.Unknown());

/** The organization and the actor of a change, for its audit event. */
const changeBy = (request: Parameters<typeof callerOf>[0]): SiemChange => {
  const c = callerOf(request);
  return { org: c.org, actor: { userId: c.user?.id ?? null, apiKeyId: c.key?.id ?? null } };
};

/**
 * What a member or viewer sees of where an integration sends: the origin of each receiver address only, as
 * for event webhooks (docs/events.md). A collector's path or query (`/services/T000/B000/…`, `?token=`) is
 * as good as its credential; owners, admins and admin-scope keys, who may change the integration, see it
 * whole, and the receiver's answer in the last error. Credentials themselves are never returned to anyone
 * (secretFields).
 */
const manages = (request: Parameters<typeof callerOf>[0]): boolean => {
  const role = callerRole(callerOf(request));
  return role !== undefined && (MANAGE as readonly string[]).includes(role);
};

/**
 * A failure as a member or viewer sees it: its kind (`HTTP 404`, `timeout`, …) without the receiver's words,
 * which may echo the request path and query ("Cannot POST /collect?token=…") or our payload.
 */
function maskedError(error: string | null): string | null {
  if (error === null) return null;
  const kind = /^(HTTP \d{3}|[a-z_]+)(?=:|$)/.exec(error)?.[1] ?? 'failed';
  return `${kind} (the details are shown to owners and admins)`;
}

function shownTo(request: Parameters<typeof callerOf>[0], view: Integration): Integration {
  if (manages(request)) return view;
  const out: Integration = {
    ...view,
    status: { ...view.status, lastError: maskedError(view.status.lastError) },
  };
  if (typeof view.endpoint === 'string') out.endpoint = addressOrigin(view.endpoint);
  if (view.config) {
    const config = { ...view.config };
    for (const key of ['url', 'hecUrl'] as const) {
      if (typeof config[key] === 'string') config[key] = addressOrigin(config[key]);
    }
    out.config = config;
  }
  return out;
}

const IntegrationView = Type.Object({
  id: Type.String({ description: 'prefix siem_' }),
  name: Type.String(),
  platform: Type.String({
    description: 'SPLUNK, ELASTIC, DATADOG, SYSLOG, PRELUDE, WAZUH, OPENSEARCH or WEBHOOK',
  }),
  type: Type.Optional(Type.String()),
  enabled: Type.Boolean(),
  config: Type.Optional(AnyMap),
  credentials: Type.Optional(AnyMap),
  endpoint: Type.Optional(Type.String()),
  eventTypes: Type.Array(Type.String(), {
    description: 'what is forwarded: the given entries, or the default of the platform when none were given',
  }),
  minSeverity: Type.Optional(Type.String()),
  forwardDetections: Type.Optional(Type.Boolean()),
  forwardDlp: Type.Optional(Type.Boolean()),
  secretFields: Type.Array(Type.String(), {
    description: 'secrets that are stored (sealed) and never returned',
  }),
  status: Type.Object({
    circuit: Type.Union([Type.Literal('closed'), Type.Literal('open'), Type.Literal('half_open')]),
    consecutiveFailures: Type.Integer(),
    nextAttemptAt: Nullable(Iso),
    lastError: Nullable(Type.String()),
    lastSuccessAt: Nullable(Iso),
    lastFailureAt: Nullable(Iso),
    queued: Type.Integer({ description: 'events waiting to be sent' }),
    deadLettered: Type.Integer({ description: 'events that will not be retried unless asked' }),
    delivered: Type.Integer(),
    queueLimit: Type.Integer(),
  }),
  createdAt: Iso,
  updatedAt: Iso,
});

const UpdateBody = Type.Object(
  {
    name: Type.Optional(nameText(200)),
    platform: Type.Optional(Type.String()),
    type: Type.Optional(Type.String()),
    enabled: Type.Optional(Type.Boolean()),
    config: Type.Optional(AnyMap),
    credentials: Type.Optional(AnyMap),
    endpoint: Type.Optional(Type.String({ maxLength: 2048 })),
    eventTypes: Type.Optional(Type.Array(SiemEventTypeEntrySchema, { minItems: 1, maxItems: 50 })),
    minSeverity: Type.Optional(Type.String()),
    forwardDetections: Type.Optional(Type.Boolean()),
    forwardDlp: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);

const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
});

export function siemRoutes(siem: SiemService) {
  return async (app: App) => {
    app.post(
      BASE,
      {
        config: { auth: { mode: 'session', roles: MANAGE, feature: 'siem' } },
        schema: {
          operationId: 'createSiemIntegration',
          tags: TAGS,
          summary:
            'Register a SIEM integration (any platform shape of the spec); secrets are sealed and never returned',
          body: SiemIntegrationCreateSchema,
          response: { 201: IntegrationView, ...errorResponses(401, 403, 429) },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await siem.create(callerOf(request).org.id, request.body as IntegrationBody, changeBy(request)),
          ),
    );

    app.get(
      BASE,
      {
        config: { auth: { mode: 'session', feature: 'siem' } },
        schema: {
          operationId: 'listSiemIntegrations',
          tags: TAGS,
          summary: 'List SIEM integrations with their delivery status (breaker, queue, dead letters)',
          response: {
            200: Type.Object({ integrations: Type.Array(IntegrationView) }),
            ...errorResponses(401, 403, 429),
          },
        },
      },
      async (request) => ({
        integrations: (await siem.list(callerOf(request).org.id)).map((i) => shownTo(request, i)),
      }),
    );

    app.get(
      `${BASE}/:id`,
      {
        config: { auth: { mode: 'session', feature: 'siem' } },
        schema: {
          operationId: 'getSiemIntegration',
          tags: TAGS,
          summary: 'Read one SIEM integration and its delivery status',
          params: Params,
          response: { 200: IntegrationView, ...errorResponses(401, 403, 404, 429) },
        },
      },
      async (request) => shownTo(request, await siem.get(callerOf(request).org.id, request.params.id)),
    );

    app.patch(
      `${BASE}/:id`,
      {
        config: { auth: { mode: 'session', roles: MANAGE, feature: 'siem' } },
        schema: {
          operationId: 'updateSiemIntegration',
          tags: TAGS,
          summary:
            'Change an integration; config and credentials merge key by key, so secrets need not be resent',
          params: Params,
          body: UpdateBody,
          response: { 200: IntegrationView, ...errorResponses(401, 403, 404, 429) },
        },
      },
      async (request) =>
        siem.update(
          callerOf(request).org.id,
          request.params.id,
          request.body as Partial<IntegrationBody>,
          changeBy(request),
        ),
    );

    app.delete(
      `${BASE}/:id`,
      {
        config: { auth: { mode: 'session', roles: MANAGE, feature: 'siem' } },
        schema: {
          operationId: 'deleteSiemIntegration',
          tags: TAGS,
          summary: 'Delete an integration and its queue (queued and dead-lettered events are discarded)',
          params: Params,
          response: { 200: Type.Object({ deleted: Type.Boolean() }), ...errorResponses(401, 403, 404, 429) },
        },
      },
      async (request) => {
        await siem.remove(callerOf(request).org.id, request.params.id, changeBy(request));
        return { deleted: true };
      },
    );

    app.post(
      `${BASE}/:id/test`,
      {
        config: { auth: { mode: 'session', roles: MANAGE, feature: 'siem' } },
        schema: {
          operationId: 'testSiemIntegration',
          tags: TAGS,
          summary: 'Send one synthetic event now and report whether the platform accepted it',
          params: Params,
          response: {
            200: Type.Object({
              success: Type.Boolean(),
              responseCode: Nullable(Type.Integer()),
              responseTimeMs: Type.Integer(),
              error: Nullable(Type.String()),
              reason: Nullable(Type.String()),
            }),
            ...errorResponses(401, 403, 404, 429),
          },
        },
      },
      async (request) => siem.test(callerOf(request).org.id, request.params.id),
    );

    app.get(
      `${BASE}/:id/dead-letters`,
      {
        config: { auth: { mode: 'session', feature: 'siem' } },
        schema: {
          operationId: 'listSiemDeadLetters',
          tags: TAGS,
          summary: 'Events this integration will not retry on its own, with the reason, oldest first',
          params: Params,
          querystring: PageQuery,
          response: {
            200: Type.Object({
              deadLetters: Type.Array(
                Type.Object({
                  eventId: Type.String(),
                  eventCreatedAt: Iso,
                  attempts: Type.Integer(),
                  error: Nullable(Type.String()),
                }),
              ),
              pagination: Type.Object({
                total: Type.Integer(),
                page: Type.Integer(),
                perPage: Type.Integer(),
              }),
            }),
            ...errorResponses(401, 403, 404, 429),
          },
        },
      },
      async (request) => {
        const page = await siem.deadLetters(
          callerOf(request).org.id,
          request.params.id,
          request.query.page ?? 1,
          request.query.perPage ?? 20,
        );
        if (manages(request)) return page;
        return { ...page, deadLetters: page.deadLetters.map((d) => ({ ...d, error: maskedError(d.error) })) };
      },
    );

    app.post(
      `${BASE}/:id/dead-letters/retry`,
      {
        config: { auth: { mode: 'session', roles: MANAGE, feature: 'siem' } },
        schema: {
          operationId: 'retrySiemDeadLetters',
          tags: TAGS,
          summary: 'Put every dead-lettered event back in the queue',
          params: Params,
          response: { 202: Type.Object({ requeued: Type.Integer() }), ...errorResponses(401, 403, 404, 429) },
        },
      },
      async (request, reply) =>
        reply
          .status(202)
          .send({ requeued: await siem.retryDeadLetters(callerOf(request).org.id, request.params.id) }),
    );
  };
}
