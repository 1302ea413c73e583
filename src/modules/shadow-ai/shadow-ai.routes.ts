import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../platform/errors/index.js';
import { type App, bodyCheckedAs, callerOf, errorResponses } from '../../platform/http/index.js';
import {
  CatalogEntryView,
  CatalogQuery,
  CatalogStatusBody,
  CatalogView,
  IdParams,
  OwnEntryBody,
  ReportBody,
  ReportEnvelope,
  ReportPartialReply,
  ReportReply,
  ServiceList,
  ServiceListQuery,
  ServiceView,
  StatsQuery,
  StatsView,
  StatusBody,
} from './shadow-ai.schemas.js';
import type { ShadowAiService } from './shadow-ai.service.js';

const DEVICE_TAGS = ['endpoint-devices'];
const TAGS = ['shadow-ai'];
// Every plan reaches the radar; the FREE plan sees a limited number of services (docs/shadow-ai.md).
const DEVICE = { mode: 'endpoint', accept: ['device'] } as const;
const READ = { mode: 'session' } as const;
const MANAGE = { mode: 'session', roles: ['owner', 'admin'] } as const;
const E = (...s: number[]) => errorResponses(401, 403, 429, ...s);

function deviceOf(request: FastifyRequest) {
  const c = callerOf(request);
  if (!c.device) throw new AppError('forbidden', 'This operation needs a device token.');
  return { org: c.org, deviceId: c.device.deviceId };
}
const who = (request: FastifyRequest) => ({ userId: callerOf(request).user?.id ?? null });

/** The extension's detection report and the shadow-AI administration (docs/shadow-ai.md). */
export function shadowAiRoutes(service: ShadowAiService) {
  return async (app: App) => {
    app.post(
      '/api/v1/endpoint/shadow-ai/report',
      {
        config: { auth: DEVICE },
        // Only the envelope is validated with the request; each detection is checked on its own.
        validatorCompiler: bodyCheckedAs(ReportEnvelope),
        schema: {
          operationId: 'reportShadowAi',
          tags: DEVICE_TAGS,
          summary: 'Batched shadow-AI detections of the calling device; idempotent per reportId',
          description:
            'Each detection is checked on its own. 200: every detection was taken. 207: some were refused and ' +
            'are listed in `rejected` (index, error, message); the others were applied. 400 with `rejected`: ' +
            'none could be applied (the report id stays unused). A refused detection is refused for good.',
          body: ReportBody,
          response: { 200: ReportReply, 207: ReportPartialReply, ...E(404) },
        },
      },
      async (request, reply) => {
        const d = deviceOf(request);
        // The body was validated as its envelope (above), not as the documented ReportBody.
        const out = await service.report(d.org, d.deviceId, request.body as unknown as ReportEnvelope);
        return reply.status('rejected' in out ? 207 : 200).send(out);
      },
    );

    app.get(
      '/api/dashboard/shadow-ai/services',
      {
        config: { auth: READ },
        schema: {
          operationId: 'listShadowAiServices',
          tags: TAGS,
          summary: 'Detected AI services with status and stats; filter by status, category, risk, search',
          querystring: ServiceListQuery,
          response: { 200: ServiceList, ...E() },
        },
      },
      async (request) => service.list(callerOf(request).org, request.query),
    );

    app.patch(
      '/api/dashboard/shadow-ai/services/:id',
      {
        config: { auth: MANAGE },
        schema: {
          operationId: 'setShadowAiServiceStatus',
          tags: TAGS,
          summary:
            'Change a service status to approved, blocked or monitored (audited; devices told at once)',
          params: IdParams,
          body: StatusBody,
          response: { 200: Type.Object({ service: ServiceView }), ...E(404) },
        },
      },
      async (request) => ({
        service: await service.setStatus(
          callerOf(request).org,
          request.params.id,
          request.body.status,
          who(request),
        ),
      }),
    );

    app.get(
      '/api/dashboard/shadow-ai/stats',
      {
        config: { auth: READ },
        schema: {
          operationId: 'shadowAiStats',
          tags: TAGS,
          summary: 'Usage per day, per service and per user, and new discoveries (last `days` days)',
          querystring: StatsQuery,
          response: { 200: StatsView, ...E() },
        },
      },
      async (request) => service.stats(callerOf(request).org, request.query.days ?? 30),
    );

    app.get(
      '/api/dashboard/shadow-ai/catalog',
      {
        config: { auth: READ },
        schema: {
          operationId: 'shadowAiCatalog',
          tags: TAGS,
          summary: "The AI service catalog (version, entries) with the organization's statuses and entries",
          querystring: CatalogQuery,
          response: { 200: CatalogView, ...E() },
        },
      },
      async (request) => service.catalog(callerOf(request).org.id, request.query),
    );

    app.post(
      '/api/dashboard/shadow-ai/catalog',
      {
        config: { auth: MANAGE },
        schema: {
          operationId: 'createShadowAiCatalogEntry',
          tags: TAGS,
          summary: 'Add an entry of the organization to its catalog',
          body: OwnEntryBody,
          response: { 201: Type.Object({ entry: CatalogEntryView }), ...E(409) },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send({ entry: await service.createEntry(callerOf(request).org, request.body, who(request)) }),
    );

    app.patch(
      '/api/dashboard/shadow-ai/catalog/:id',
      {
        config: { auth: MANAGE },
        schema: {
          operationId: 'setShadowAiCatalogStatus',
          tags: TAGS,
          summary: "Set the organization's status of a catalog entry (approved, review, blocked)",
          params: IdParams,
          body: CatalogStatusBody,
          response: { 200: Type.Object({ entry: CatalogEntryView }), ...E(404) },
        },
      },
      async (request) => ({
        entry: await service.setCatalogStatus(
          callerOf(request).org,
          request.params.id,
          request.body.status,
          who(request),
        ),
      }),
    );

    app.delete(
      '/api/dashboard/shadow-ai/catalog/:id',
      {
        config: { auth: MANAGE },
        schema: {
          operationId: 'deleteShadowAiCatalogEntry',
          tags: TAGS,
          summary: 'Delete an own entry, or return a shipped entry to its shipped status',
          params: IdParams,
          response: { 200: Type.Object({ deleted: Type.Boolean(), id: Type.String() }), ...E(404) },
        },
      },
      async (request) => service.deleteEntry(callerOf(request).org, request.params.id, who(request)),
    );
  };
}
