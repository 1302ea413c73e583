import { listEntityTypes } from '../../engines/dlp/index.js';
import { AppError } from '../../platform/errors/index.js';
import { type App, errorResponses, callerOf } from '../../platform/http/index.js';
import type { DlpService } from './dlp.service.js';
import {
  AnalyzeBody,
  AnalyzeResponse,
  DlpSettingsSchema,
  RehydrateBody,
  RehydrateResponse,
} from './dlp.schemas.js';
import { Type } from 'typebox';

export function dlpRoutes(dlp: DlpService) {
  return async (app: App) => {
    app.post(
      '/api/v1/dlp/analyze',
      {
        config: { auth: { mode: 'apiKey', product: 'tokenization' } },
        schema: {
          operationId: 'dlpAnalyze',
          tags: ['dlp'],
          summary:
            'Replace personal data with tokens; the mapping is kept in a vault session for rehydration',
          body: AnalyzeBody,
          response: { 200: AnalyzeResponse, ...errorResponses(401, 403, 404, 413, 422, 429, 503) },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        if (request.body.organizationId !== undefined && request.body.organizationId !== caller.org.id) {
          throw new AppError(
            'forbidden',
            "The field 'organizationId' is not the organization of the API key.",
          );
        }
        return dlp.analyze(caller, request.body.text, {
          ...(request.body.sessionId !== undefined ? { sessionId: request.body.sessionId } : {}),
          sourceIp: request.ip,
        });
      },
    );

    app.post(
      '/api/v1/dlp/rehydrate',
      {
        config: { auth: { mode: 'apiKey', product: 'tokenization' } },
        schema: {
          operationId: 'dlpRehydrate',
          tags: ['dlp'],
          summary: "Put the originals back in place of a session's tokens",
          body: RehydrateBody,
          response: { 200: RehydrateResponse, ...errorResponses(401, 403, 404, 413, 429) },
        },
      },
      async (request) => {
        const out = await dlp.rehydrate(callerOf(request).org.id, request.body.sessionId, request.body.text);
        return { rehydrated: out.text, count: out.restored, unknownTokens: out.unknown };
      },
    );

    app.get(
      '/api/v1/dlp/types',
      {
        // The list of types is a read-out, not a tokenization: rate limit only, no quota (docs/auth.md).
        config: { auth: { mode: 'apiKey', product: 'tokenization', readOut: true } },
        schema: {
          operationId: 'dlpTypes',
          tags: ['dlp'],
          summary: 'The entity types the detectors know, with their DLP domain',
          response: {
            200: Type.Object({
              types: Type.Array(
                Type.Object({ type: Type.String(), domain: Type.String(), description: Type.String() }),
              ),
            }),
            ...errorResponses(401, 403, 429),
          },
        },
      },
      async () => ({ types: listEntityTypes() }),
    );

    app.get(
      '/api/dashboard/dlp/settings',
      {
        config: { auth: { mode: 'session' } },
        schema: {
          operationId: 'getDlpSettings',
          tags: ['dlp'],
          summary: 'DLP settings of the organization',
          response: { 200: DlpSettingsSchema, ...errorResponses(401, 429) },
        },
      },
      async (request) => dlp.settings(callerOf(request).org),
    );

    app.put(
      '/api/dashboard/dlp/settings',
      {
        config: { auth: { mode: 'session', roles: ['owner', 'admin'] } },
        schema: {
          operationId: 'putDlpSettings',
          tags: ['dlp'],
          summary:
            'Replace the DLP settings: types, ignored types, allowed values, custom patterns, blocked types, TTL',
          body: DlpSettingsSchema,
          response: { 200: DlpSettingsSchema, ...errorResponses(401, 403, 429) },
        },
      },
      async (request) =>
        dlp.updateSettings(callerOf(request).org, request.body, {
          userId: callerOf(request).user?.id ?? null,
        }),
    );
  };
}
