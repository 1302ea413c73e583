import { type App, errorResponses, callerOf } from '../../platform/http/index.js';
import { OverviewQuery, OverviewSchema } from './overview.schemas.js';
import type { OverviewService } from './overview.service.js';

export function overviewRoutes(overview: OverviewService) {
  return async (app: App) => {
    app.get(
      '/api/dashboard/overview',
      {
        config: { auth: { mode: 'session' } },
        schema: {
          operationId: 'dashboardOverview',
          tags: ['dashboard'],
          summary: 'Events per day and type, quota use and the newest high-severity events of a period',
          querystring: OverviewQuery,
          response: { 200: OverviewSchema, ...errorResponses(400, 401, 429) },
        },
      },
      async (request) => overview.overview(callerOf(request).org, request.query),
    );
  };
}
