import { Type } from 'typebox';
import { type App, errorResponses, callerOf } from '../../platform/http/index.js';
import { invalid } from '../../platform/errors/index.js';
import { addressOrigin } from '../../platform/net/index.js';
import { callerRole } from '../auth/index.js';
import type { EventType } from './event-types.js';
import {
  AttemptView,
  CreatedWebhook,
  CreateWebhookBody,
  DeliveriesPagination,
  DeliveriesQuery,
  DeliveryParams,
  DeliveryView,
  RecoverBody,
  RotateSecretBody,
  TestBody,
  TestResult,
  UpdateWebhookBody,
  WebhookParams,
  WebhookView,
} from './webhooks.schemas.js';
import type { WebhookChange, WebhooksService, WebhookView as Webhook } from './webhooks.service.js';

const MANAGE = ['owner', 'admin'] as const;

/** The organization and the actor of a change, for its audit event. */
function changeBy(request: Parameters<typeof callerOf>[0]): WebhookChange {
  const { org, user, key } = callerOf(request);
  return { org, actor: { userId: user?.id ?? null, apiKeyId: key?.id ?? null } };
}
const TAGS = ['webhooks'];

/**
 * What a member or viewer sees of an endpoint's address: its origin only (addressOrigin: the path and
 * query of a chat or automation webhook are its credential).
 */
function shownTo(request: Parameters<typeof callerOf>[0], view: Webhook): Webhook {
  const role = callerRole(callerOf(request));
  if (role && (MANAGE as readonly string[]).includes(role)) return view;
  return { ...view, url: addressOrigin(view.url) };
}

export function webhooksRoutes(webhooks: WebhooksService) {
  return async (app: App) => {
    app.post(
      '/api/webhooks',
      {
        config: { auth: { mode: 'session', roles: MANAGE } },
        schema: {
          operationId: 'createWebhook',
          tags: TAGS,
          summary: 'Register a webhook endpoint; the signing secret is in this response only',
          body: CreateWebhookBody,
          response: { 201: CreatedWebhook, ...errorResponses(401, 403, 429) },
        },
      },
      async (request, reply) => {
        const created = await webhooks.create(callerOf(request).org.id, request.body, changeBy(request));
        reply.header('cache-control', 'no-store');
        return reply.status(201).send(created);
      },
    );

    app.get(
      '/api/webhooks',
      {
        config: { auth: { mode: 'session' } },
        schema: {
          operationId: 'listWebhooks',
          tags: TAGS,
          summary: 'List the webhook endpoints of the organization (never their secrets)',
          response: { 200: Type.Object({ webhooks: Type.Array(WebhookView) }), ...errorResponses(401, 429) },
        },
      },
      async (request) => ({
        webhooks: (await webhooks.list(callerOf(request).org.id)).map((w) => shownTo(request, w)),
      }),
    );

    app.get(
      '/api/webhooks/:id',
      {
        config: { auth: { mode: 'session' } },
        schema: {
          operationId: 'getWebhook',
          tags: TAGS,
          summary: 'Read one webhook endpoint',
          params: WebhookParams,
          response: { 200: WebhookView, ...errorResponses(401, 404, 429) },
        },
      },
      async (request) => shownTo(request, await webhooks.get(callerOf(request).org.id, request.params.id)),
    );

    app.patch(
      '/api/webhooks/:id',
      {
        config: { auth: { mode: 'session', roles: MANAGE } },
        schema: {
          operationId: 'updateWebhook',
          tags: TAGS,
          summary: 'Change the URL, event types, metadata or enabled flag (enabling clears a 410 disable)',
          params: WebhookParams,
          body: UpdateWebhookBody,
          response: { 200: WebhookView, ...errorResponses(401, 403, 404, 429) },
        },
        // After authentication and the role check (onRequest), before the schema: the schema would say
        // only that 'secret' is not allowed, and the caller needs to know where a secret is changed.
        preValidation: async (request) => {
          const body = request.body;
          if (body !== null && typeof body === 'object' && Object.hasOwn(body, 'secret')) {
            throw invalid(
              "The body field 'secret' cannot be changed here: rotate it with POST /api/webhooks/{id}/rotate-secret (the old secret keeps signing for a grace period).",
            );
          }
        },
      },
      async (request) =>
        webhooks.update(callerOf(request).org.id, request.params.id, request.body, changeBy(request)),
    );

    app.delete(
      '/api/webhooks/:id',
      {
        config: { auth: { mode: 'session', roles: MANAGE } },
        schema: {
          operationId: 'deleteWebhook',
          tags: TAGS,
          summary: 'Delete a webhook endpoint with its delivery history; pending deliveries are dropped',
          params: WebhookParams,
          response: { 200: Type.Object({ deleted: Type.Boolean() }), ...errorResponses(401, 403, 404, 429) },
        },
      },
      async (request) => {
        await webhooks.remove(callerOf(request).org.id, request.params.id, changeBy(request));
        return { deleted: true };
      },
    );

    app.post(
      '/api/webhooks/:id/rotate-secret',
      {
        config: { auth: { mode: 'session', roles: MANAGE } },
        schema: {
          operationId: 'rotateWebhookSecret',
          tags: TAGS,
          summary: 'Replace the signing secret; the old one keeps signing during the grace period',
          params: WebhookParams,
          body: RotateSecretBody,
          response: {
            200: Type.Object({
              secret: Type.String({ description: 'shown in this response only' }),
              previousSecretExpiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
            }),
            ...errorResponses(401, 403, 404, 429),
          },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return webhooks.rotateSecret(
          callerOf(request).org.id,
          request.params.id,
          request.body ?? {},
          changeBy(request),
        );
      },
    );

    app.post(
      '/api/webhooks/:id/test',
      {
        config: { auth: { mode: 'session', roles: MANAGE } },
        schema: {
          operationId: 'testWebhook',
          tags: TAGS,
          summary: 'Send a test event of the given type now (one attempt) and report the answer',
          params: WebhookParams,
          body: TestBody,
          response: { 200: TestResult, ...errorResponses(401, 403, 404, 429) },
        },
      },
      async (request) =>
        webhooks.test(callerOf(request).org.id, request.params.id, request.body.eventType as EventType),
    );

    app.get(
      '/api/webhooks/:id/deliveries',
      {
        config: { auth: { mode: 'session' } },
        schema: {
          operationId: 'listWebhookDeliveries',
          tags: TAGS,
          summary: 'Delivery history of a webhook, newest first',
          params: WebhookParams,
          querystring: DeliveriesQuery,
          response: {
            200: Type.Object({
              deliveries: Type.Array(DeliveryView),
              pagination: DeliveriesPagination,
            }),
            ...errorResponses(401, 404, 429),
          },
        },
      },
      async (request) =>
        webhooks.deliveries(callerOf(request).org.id, request.params.id, {
          ...request.query,
          page: request.query.page ?? 1,
          perPage: request.query.perPage ?? 20,
        }),
    );

    app.get(
      '/api/webhooks/:id/deliveries/:deliveryId',
      {
        config: { auth: { mode: 'session' } },
        schema: {
          operationId: 'getWebhookDelivery',
          tags: TAGS,
          summary: 'One delivery with every attempt (status, latency, error class)',
          params: DeliveryParams,
          response: {
            200: Type.Object({ delivery: DeliveryView, attempts: Type.Array(AttemptView) }),
            ...errorResponses(401, 404, 429),
          },
        },
      },
      async (request) =>
        webhooks.delivery(callerOf(request).org.id, request.params.id, request.params.deliveryId),
    );

    app.post(
      '/api/webhooks/:id/deliveries/:deliveryId/redeliver',
      {
        config: { auth: { mode: 'session', roles: MANAGE } },
        schema: {
          operationId: 'redeliverWebhookDelivery',
          tags: TAGS,
          summary: 'Queue a finished delivery again for a new round of attempts',
          params: DeliveryParams,
          response: {
            202: Type.Object({ delivery: DeliveryView }),
            ...errorResponses(401, 403, 404, 409, 429),
          },
        },
      },
      async (request, reply) => {
        const delivery = await webhooks.redeliver(
          callerOf(request).org.id,
          request.params.id,
          request.params.deliveryId,
        );
        return reply.status(202).send({ delivery });
      },
    );

    app.post(
      '/api/webhooks/:id/recover',
      {
        config: { auth: { mode: 'session', roles: MANAGE } },
        schema: {
          operationId: 'recoverWebhookDeliveries',
          tags: TAGS,
          summary: 'Queue again every failed delivery created since a time (and before `until`)',
          params: WebhookParams,
          body: RecoverBody,
          response: {
            202: Type.Object({ recovered: Type.Integer() }),
            ...errorResponses(401, 403, 404, 429),
          },
        },
      },
      async (request, reply) => {
        const since = new Date(request.body.since).toISOString();
        const until = request.body.until ? new Date(request.body.until).toISOString() : undefined;
        // An empty window would answer "0 recovered", which reads as "nothing failed": say it instead.
        if (until !== undefined && until <= since)
          throw invalid(`The body field 'until' (${until}) must be later than 'since' (${since}).`);
        const recovered = await webhooks.recover(callerOf(request).org.id, request.params.id, since, until);
        return reply.status(202).send({ recovered });
      },
    );
  };
}
