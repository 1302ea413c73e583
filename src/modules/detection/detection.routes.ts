import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { patternCategories, patternCount } from '../../engines/detection/index.js';
import { type App, errorResponses } from '../../platform/http/index.js';
import { callerOf } from '../auth/index.js';
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

const ERRORS = errorResponses(401, 403, 413, 429);
const AUTH = { auth: { mode: 'apiKey', product: 'detection' } } as const;

function info(request: FastifyRequest): RequestInfo {
  const ua = request.headers['user-agent'];
  return {
    endpoint: request.routeOptions.url ?? request.url,
    sourceIp: request.ip,
    userAgent: ua?.slice(0, 200),
  };
}

export function detectionRoutes(deps: { limits: LimitsService; detection: DetectionService }) {
  const { detection } = deps;
  return async (app: App) => {
    app.post(
      '/api/v1/analyze',
      {
        config: AUTH,
        schema: {
          operationId: 'analyze',
          tags: ['detection'],
          summary: 'Full analysis: risk score, severity, recommended action, categories and matched spans',
          body: TextBody,
          response: { 200: AnalysisSchema, ...ERRORS },
        },
      },
      async (request) => {
        const r = await detection.analyze(
          callerOf(request),
          request.body.text,
          request.body.context,
          info(request),
        );
        return { ...r, matches: r.matches.map(({ match: _m, ...rest }) => rest) };
      },
    );

    app.post(
      '/api/v1/detect',
      {
        config: AUTH,
        schema: {
          operationId: 'detect',
          tags: ['detection'],
          summary: 'Boolean verdict: is this an injection or jailbreak?',
          body: TextBody,
          response: { 200: DetectionSchema, ...ERRORS },
        },
      },
      async (request) =>
        detection.detect(callerOf(request), request.body.text, request.body.context, info(request)),
    );

    app.post(
      '/api/v1/sanitize',
      {
        config: AUTH,
        schema: {
          operationId: 'sanitize',
          tags: ['detection'],
          summary: 'The text without its malicious parts; benign text comes back unchanged',
          body: TextBody,
          response: { 200: SanitizationSchema, ...ERRORS },
        },
      },
      async (request) =>
        detection.sanitize(callerOf(request), request.body.text, request.body.context, info(request)),
    );

    app.get(
      '/api/v1/stats',
      {
        config: AUTH,
        schema: {
          operationId: 'detectionStats',
          tags: ['detection'],
          summary: 'Injection-detection usage of the current quota period',
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
      async (request) => detection.updateSettings(callerOf(request).org, request.body),
    );
  };
}
