import { type App, errorResponses, callerOf } from '../../platform/http/index.js';
import {
  CHECK_BODY_LIMIT,
  CheckBody,
  CheckResponse,
  CorrectBody,
  CorrectionSchema,
  DEFAULT_PER_PAGE,
  DeleteResponse,
  HallucinationSettingsSchema,
  IdParams,
  ListQuery,
  ListResponse,
} from './hallucination.schemas.js';
import type { CheckMode, HallucinationService } from './hallucination.service.js';

const AUTH = { auth: { mode: 'apiKey', product: 'hallucination' } } as const;
/** Reading the corrections back is no claim check: rate limit only, no quota (docs/auth.md). */
const READ_OUT = { auth: { mode: 'apiKey', product: 'hallucination', readOut: true } } as const;
const TAGS = ['hallucination'];

export function hallucinationRoutes(service: HallucinationService, options: { bodyLimit: number }) {
  return async (app: App) => {
    app.post(
      '/api/v1/hallucination',
      {
        config: AUTH,
        // Never below the server-wide limit, so a deployment that raised it keeps its setting here.
        bodyLimit: Math.max(options.bodyLimit, CHECK_BODY_LIMIT),
        schema: {
          operationId: 'hallucinationCheck',
          tags: TAGS,
          summary: "Check a claim against source documents and the organization's corrections",
          body: CheckBody,
          response: { 200: CheckResponse, ...errorResponses(401, 403, 413, 422, 429, 503) },
        },
      },
      async (request) => {
        const { claim, sources, mode, model } = request.body;
        return service.check(callerOf(request).org, claim, sources, {
          ...(mode ? { mode: mode as CheckMode } : {}),
          ...(model ? { model } : {}),
        });
      },
    );

    app.get(
      '/api/dashboard/hallucination/settings',
      {
        config: { auth: { mode: 'session' } },
        schema: {
          operationId: 'getHallucinationSettings',
          tags: TAGS,
          summary: 'Claim-checking settings of the organization (default mode, judge model)',
          response: { 200: HallucinationSettingsSchema, ...errorResponses(401, 429) },
        },
      },
      async (request) => service.settings(callerOf(request).org),
    );

    app.put(
      '/api/dashboard/hallucination/settings',
      {
        config: { auth: { mode: 'session', roles: ['owner', 'admin'] } },
        schema: {
          operationId: 'putHallucinationSettings',
          tags: TAGS,
          summary: 'Replace the claim-checking settings: default mode (local or llm) and judge model',
          body: HallucinationSettingsSchema,
          response: { 200: HallucinationSettingsSchema, ...errorResponses(401, 403, 429) },
        },
      },
      async (request) => {
        const { mode, model } = request.body;
        return service.updateSettings(
          callerOf(request).org,
          { mode: mode as CheckMode, ...(model ? { model } : {}) },
          { userId: callerOf(request).user?.id ?? null },
        );
      },
    );

    app.post(
      '/api/v1/hallucination/correct',
      {
        config: AUTH,
        schema: {
          operationId: 'hallucinationCorrect',
          tags: TAGS,
          summary: 'Store a correction: later checks treat restatements of originalClaim as contradicted',
          body: CorrectBody,
          response: { 201: CorrectionSchema, ...errorResponses(401, 403, 409, 413, 429) },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const stored = await service.correct(caller.org.id, request.body, caller.key?.id);
        return reply.code(201).send(stored);
      },
    );

    app.get(
      '/api/v1/hallucination/corrections',
      {
        config: READ_OUT,
        schema: {
          operationId: 'hallucinationListCorrections',
          tags: TAGS,
          summary: "The organization's corrections, newest first",
          querystring: ListQuery,
          response: { 200: ListResponse, ...errorResponses(401, 403, 429) },
        },
      },
      async (request) =>
        service.list(
          callerOf(request).org.id,
          request.query.page ?? 1,
          request.query.perPage ?? DEFAULT_PER_PAGE,
        ),
    );

    app.delete(
      '/api/v1/hallucination/corrections/:id',
      {
        config: AUTH,
        schema: {
          operationId: 'hallucinationDeleteCorrection',
          tags: TAGS,
          summary: 'Delete a correction; later checks no longer use it',
          params: IdParams,
          response: { 200: DeleteResponse, ...errorResponses(401, 403, 404, 429) },
        },
      },
      async (request) => {
        await service.remove(callerOf(request).org.id, request.params.id);
        return { deleted: true, id: request.params.id };
      },
    );
  };
}
