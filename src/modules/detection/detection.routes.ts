import { type App, errorResponses } from '../../platform/http/index.js';
import { callerOf } from '../auth/index.js';
import type { LimitsService } from '../limits/index.js';
import { UsageStatsSchema } from './detection.schemas.js';

export function detectionRoutes(deps: { limits: LimitsService }) {
  return async (app: App) => {
    app.get(
      '/api/v1/stats',
      {
        config: { auth: { mode: 'apiKey', product: 'detection' } },
        schema: {
          operationId: 'detectionStats',
          tags: ['detection'],
          summary: 'Injection-detection usage of the current quota period',
          response: { 200: UsageStatsSchema, ...errorResponses(401, 403, 429) },
        },
      },
      async (request) => deps.limits.usage(callerOf(request).org, 'detection'),
    );
  };
}
