import { installAuth } from '../modules/auth/index.js';
import { createNetProxy, type NetProxy, netproxyRoutes } from '../modules/netproxy/index.js';
import { loadConfig } from '../platform/config/index.js';
import { type App, createHttpServer } from '../platform/http/index.js';
import { authDepsOf } from './api.js';
import { type Context, createContext, providerAddressPolicy } from './context.js';
import { shownUrl, stopOnSignals } from './signals.js';
import { VERSION } from './version.js';

/**
 * The network proxy server: /proxy/:provider/* over the context's services, with the same authentication,
 * rate limits and quota hooks as the API (product `netproxy`). Stateless: vault sessions, counters and
 * events live in the database and the cache, so any number of proxies run side by side.
 */
export async function buildProxy(
  ctx: Context,
  options: { idleTimeoutMs?: number } = {},
): Promise<{ app: App; proxy: NetProxy }> {
  const app = await createHttpServer({
    logger: ctx.logger,
    bodyLimit: ctx.config.bodyLimit,
    trustProxy: ctx.config.trustProxy,
    version: VERSION,
    title: 'Parapet network proxy',
  });
  await installAuth(app, authDepsOf(ctx));
  const proxy = createNetProxy({
    protection: ctx.gateway.protection,
    assertAllowed: (orgId) => ctx.gateway.force.assertProxyAllowed(orgId),
    recordUsage: (row) => ctx.gateway.usage.record(row),
    baseUrls: ctx.config.providerBaseUrls,
    addressPolicy: providerAddressPolicy(ctx.config),
    bodyLimit: ctx.config.bodyLimit,
    ...(options.idleTimeoutMs !== undefined ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
  });
  await app.register(netproxyRoutes(proxy, { bodyLimit: ctx.config.bodyLimit }));
  app.addHook('onClose', async () => proxy.close());
  return { app, proxy };
}

/** Starts the network proxy on PROXY_PORT; returns its address. */
export async function listenProxy(ctx: Context): Promise<{ app: App; url: string }> {
  const { app } = await buildProxy(ctx);
  await app.listen({ port: ctx.config.proxyPort, host: ctx.config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : ctx.config.proxyPort;
  return { app, url: shownUrl(ctx.config.host, port) };
}

/** `parapet proxy`: the network proxy alone, for deployments that scale it apart from the API. */
export async function runProxy(out: (text: string) => void = (t) => process.stdout.write(t)): Promise<void> {
  const config = loadConfig();
  const ctx = await createContext(config, { serving: true });
  const { app, url } = await listenProxy(ctx);
  out(
    `Parapet network proxy listening on ${url}/proxy/<provider>/ (${ctx.storage.dialect}, ${ctx.cache.kind} cache)\n`,
  );
  stopOnSignals(async (signal) => {
    ctx.logger.info({ signal }, 'stopping');
    await app.close();
    await ctx.close();
  }, 10_000);
}
