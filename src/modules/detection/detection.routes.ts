import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { patternCategories, patternCount } from '../../engines/detection/index.js';
import { type App, errorResponses, type Caller, callerOf } from '../../platform/http/index.js';
import type { LimitsService } from '../limits/index.js';
import {
  AnalysisSchema,
  DetectionSchema,
  DetectionSettingsSchema,
  SanitizationSchema,
  TextBody,
  UsageStatsSchema,
} from './detection.schemas.js';
import type { DetectionService, RequestInfo } from './detection.service.js';

const ERRORS = errorResponses(401, 403, 413, 422, 429, 503);
type TextInput = { text: string; context?: string | undefined };
const AUTH = { auth: { mode: 'apiKey', product: 'detection' } } as const;
// A read-out of the usage, not a use of the product: it counts against the rate limit only, so it spends
// no detection request and still answers once the quota is gone (docs/auth.md).
const READ_OUT = { auth: { mode: 'apiKeyOrSession' } } as const;

function info(request: FastifyRequest): RequestInfo {
  // Whole: the event's builder redacts and cuts it (eventUserAgent), and needs what the cut goes through.
  return {
    endpoint: request.routeOptions.url ?? request.url,
    sourceIp: request.ip,
    userAgent: request.headers['user-agent'],
  };
}

export function detectionRoutes(deps: { limits: LimitsService; detection: DetectionService }) {
  const { detection } = deps;
  return async (app: App) => {
    const textRoutes = [
      {
        path: '/api/v1/analyze',
        operationId: 'analyze',
        summary: 'Full analysis: risk score, severity, recommended action, categories and matched spans',
        response: AnalysisSchema,
        run: async (caller: Caller, body: TextInput, i: RequestInfo) => {
          const r = await detection.analyze(caller, body.text, body.context, i);
          // The matched text itself stays out of the response: offsets point into the caller's own text.
          return { ...r, matches: r.matches.map(({ match: _m, ...rest }) => rest) };
        },
      },
      {
        path: '/api/v1/detect',
        operationId: 'detect',
        summary: 'Boolean verdict: is this an injection or jailbreak?',
        response: DetectionSchema,
        run: (caller: Caller, body: TextInput, i: RequestInfo) =>
          detection.detect(caller, body.text, body.context, i),
      },
      {
        path: '/api/v1/sanitize',
        operationId: 'sanitize',
        summary: 'The text without its malicious parts; benign text comes back unchanged',
        response: SanitizationSchema,
        run: (caller: Caller, body: TextInput, i: RequestInfo) =>
          detection.sanitize(caller, body.text, body.context, i),
      },
    ];
    for (const r of textRoutes) {
      app.post(
        r.path,
        {
          config: AUTH,
          schema: {
            operationId: r.operationId,
            tags: ['detection'],
            summary: r.summary,
            body: TextBody,
            response: { 200: r.response, ...ERRORS },
          },
        },
        async (request) => r.run(callerOf(request), request.body, info(request)),
      );
    }

    app.get(
      '/api/v1/stats',
      {
        config: READ_OUT,
        schema: {
          operationId: 'detectionStats',
          tags: ['detection'],
          summary:
            'Injection-detection usage of the current quota period (rate limit only: reading spends no quota)',
          response: { 200: UsageStatsSchema, ...errorResponses(401, 403, 429) },
        },
      },
      async (request) => deps.limits.usage(callerOf(request).org, 'detection'),
    );

    app.get(
      '/api/patterns/count',
      {
        config: { auth: { mode: 'public' } },
        schema: {
          operationId: 'patternCount',
          tags: ['detection'],
          summary: 'Total number of detection patterns (public)',
          response: { 200: Type.Object({ count: Type.Integer(), categories: Type.Array(Type.String()) }) },
        },
      },
      async () => ({ count: patternCount(), categories: patternCategories() }),
    );

    app.get(
      '/api/dashboard/detection/settings',
      {
        config: { auth: { mode: 'session' } },
        schema: {
          operationId: 'getDetectionSettings',
          tags: ['detection'],
          summary: 'Detection thresholds and allowed phrases of the organization',
          response: { 200: DetectionSettingsSchema, ...errorResponses(401, 429) },
        },
      },
      async (request) => detection.settings(callerOf(request).org),
    );

    app.put(
      '/api/dashboard/detection/settings',
      {
        config: { auth: { mode: 'session', roles: ['owner', 'admin'] } },
        schema: {
          operationId: 'putDetectionSettings',
          tags: ['detection'],
          summary: 'Replace the thresholds (log ≤ warn ≤ block) and the allowed phrases',
          body: DetectionSettingsSchema,
          response: { 200: DetectionSettingsSchema, ...errorResponses(401, 403, 429) },
        },
      },
      async (request) =>
        detection.updateSettings(callerOf(request).org, request.body, {
          userId: callerOf(request).user?.id ?? null,
        }),
    );
  };
}
