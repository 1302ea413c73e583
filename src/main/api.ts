import { join } from 'node:path';
import { createHttpServer, type App, installAuthHook } from '../platform/http/index.js';
import { type AuthDeps, authRoutes, createAuthenticator } from '../modules/auth/index.js';
import { detectionRoutes } from '../modules/detection/index.js';
import { dlpRoutes, patternBundleOf } from '../modules/dlp/index.js';
import { createGatewayHistory, gatewayHistoryRoutes, gatewayRoutes } from '../modules/gateway/index.js';
import { hallucinationRoutes } from '../modules/hallucination/index.js';
import { healthRoutes } from '../modules/health/index.js';
import { keysRoutes } from '../modules/keys/index.js';
import { endpointAdminRoutes, endpointRoutes } from '../modules/endpoint/index.js';
import { licensingRoutes } from '../modules/licensing/index.js';
import { createNetproxySettings, netproxySettingsRoutes } from '../modules/netproxy/index.js';
import { orgsRoutes } from '../modules/orgs/index.js';
import { reportsRoutes } from '../modules/reports/index.js';
import { shadowAiRoutes } from '../modules/shadow-ai/index.js';
import { proofsRoutes } from '../modules/proofs/index.js';
import { createOverviewRepo, createOverviewService, overviewRoutes } from '../modules/overview/index.js';
import { webRoutes } from '../modules/web/index.js';
import type { Context } from './context.js';
import { sha256Hex } from '../platform/crypto/index.js';
import { VERSION } from './version.js';
import { registerEventsOut } from './worker.js';

/** The API server: every /api route, wired to the services of the context. */
export async function buildApi(ctx: Context): Promise<App> {
  const app = await createHttpServer({
    logger: ctx.logger,
    bodyLimit: ctx.config.bodyLimit,
    trustProxy: ctx.config.trustProxy,
    version: VERSION,
  });
  const authDeps = authDepsOf(ctx);
  await installAuthHook(app, createAuthenticator(authDeps));
  await app.register(authRoutes(authDeps));
  await app.register(
    healthRoutes({ version: VERSION, startedAt: new Date(), database: ctx.storage, cache: ctx.cache }),
  );
  await app.register(orgsRoutes(ctx.orgs, { forgetOrg: (id) => ctx.auth.forgetOrg(id) }));
  await app.register(keysRoutes(ctx.keys));
  await app.register(detectionRoutes({ limits: ctx.limits, detection: ctx.detection }));
  await app.register(dlpRoutes(ctx.dlp));
  await app.register(gatewayRoutes(ctx.gateway));
  await app.register(gatewayHistoryRoutes(createGatewayHistory(ctx)));
  await app.register(hallucinationRoutes(ctx.hallucination, { bodyLimit: ctx.config.bodyLimit }));
  await app.register(reportsRoutes(ctx.reports));
  await app.register(
    netproxySettingsRoutes(
      createNetproxySettings({
        getOrg: (id) => ctx.orgs.getOrg(id),
        listOrgs: () => ctx.orgs.listOrgs(),
        setSettingsSection: (orgId, section, value, by) =>
          ctx.orgs.setSettingsSection(orgId, section, value, by),
        forgetOrg: (id) => ctx.auth.forgetOrg(id),
      }),
    ),
  );
  await app.register(
    endpointRoutes({
      endpoint: ctx.endpoint,
      limits: ctx.limits,
      loadOrg: (id) => ctx.auth.loadOrg(id),
      forceEnabled: (orgId) => ctx.gateway.force.isEnabled(orgId),
    }),
  );
  await app.register(
    endpointAdminRoutes({
      endpoint: ctx.endpoint,
      licenses: (orgId) => ctx.licensing.list(orgId),
      blockAddress: ctx.config.dnsBlockAddress,
    }),
  );
  await app.register(shadowAiRoutes(ctx.shadowAi));
  await app.register(
    proofsRoutes(ctx.proofs, {
      maxBytes: ctx.config.proofMaxBytes,
      readTimeoutMs: ctx.config.proofReadTimeoutMs,
      // Uploads are checked in a spool beside the data, so a disk store takes them by rename.
      spoolDir: join(ctx.config.dataDir, 'proofs-spool'),
    }),
  );
  await app.register(
    licensingRoutes({
      licensing: ctx.licensing,
      limits: ctx.limits,
      patterns: async (orgId) => {
        const org = await ctx.orgs.getOrg(orgId);
        return org ? patternBundleOf(org.settings, VERSION, sha256Hex) : null;
      },
    }),
  );
  await app.register(
    overviewRoutes(
      createOverviewService({
        repo: createOverviewRepo(ctx.storage.db, ctx.storage.dialect),
        limits: ctx.limits,
        clock: ctx.clock,
      }),
    ),
  );
  await registerEventsOut(app, ctx);
  await app.register(webRoutes());
  return app;
}

/** What the authentication hook needs from the context; the API and the network proxy install the same. */
export function authDepsOf(ctx: Context): AuthDeps {
  return {
    auth: ctx.auth,
    orgs: ctx.orgs,
    limits: ctx.limits,
    authFailuresPerMinute: ctx.config.authFailuresPerMinute,
    anonymousPerMinute: ctx.config.anonymousPerMinute,
    cookieSecure: ctx.config.cookieSecure,
    sessionTtlHours: ctx.config.sessionTtlHours,
    deviceRatePerMinute: ctx.config.deviceRatePerMinute,
  };
}
