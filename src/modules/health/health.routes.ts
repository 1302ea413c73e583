import { Type } from 'typebox';
import type { App } from '../../platform/http/index.js';

export interface HealthDeps {
  version: string;
  startedAt: Date;
  database: { dialect: string; ping(): Promise<boolean> };
  cache: { kind: string; ping(): Promise<boolean> };
}

const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  version: Type.String(),
  uptimeSeconds: Type.Integer(),
  database: Type.Object({ reachable: Type.Boolean(), dialect: Type.String() }),
  cache: Type.Object({ reachable: Type.Boolean(), kind: Type.String() }),
});

export function healthRoutes(deps: HealthDeps) {
  return async (app: App) => {
    app.get(
      '/api/health',
      {
        config: { auth: { mode: 'public' } },
        schema: {
          operationId: 'health',
          tags: ['platform'],
          summary: 'Platform health: version, database and cache reachability (public)',
          response: { 200: Health, 503: Health },
        },
      },
      async (_request, reply) => {
        const [db, cache] = await Promise.all([deps.database.ping(), deps.cache.ping()]);
        const ok = db && cache;
        return reply.status(ok ? 200 : 503).send({
          status: ok ? 'ok' : 'degraded',
          version: deps.version,
          uptimeSeconds: Math.floor((Date.now() - deps.startedAt.getTime()) / 1000),
          database: { reachable: db, dialect: deps.database.dialect },
          cache: { reachable: cache, kind: deps.cache.kind },
        });
      },
    );
  };
}
