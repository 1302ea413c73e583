import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { LookupFunction } from 'node:net';
import { join } from 'node:path';
import type { SecureContext } from 'node:tls';
import { createAuthenticator } from '../modules/auth/index.js';
import { healthRoutes } from '../modules/health/index.js';
import {
  type CaFiles,
  caFilesProblem,
  createBatchSessions,
  createCa,
  createLeafIssuer,
  createNetProxy,
  createNetworkDirectory,
  createUpstreamLookup,
  describeCa,
  interceptRoutes,
  type LeafIssuer,
  type NetProxy,
  netproxyRoutes,
  providerOfHost,
} from '../modules/netproxy/index.js';
import { type Config, loadConfig } from '../platform/config/index.js';
import { AppError } from '../platform/errors/index.js';
import { type App, createHttpServer, installAuthHook } from '../platform/http/index.js';
import { authDepsOf } from './api.js';
import { type Context, createContext, providerAddressPolicy, startOrClose } from './context.js';
import { listenOn, shownUrl, stopOnSignals } from './signals.js';
import { VERSION } from './version.js';

/**
 * The network proxy server: /proxy/:provider/* over the context's services, with the same authentication,
 * rate limits and quota hooks as the API (product `netproxy`). Stateless: vault sessions, counters and
 * events live in the database and the cache, so any number of proxies run side by side.
 */
export async function buildProxy(
  ctx: Context,
  options: { idleTimeoutMs?: number; lookup?: LookupFunction } = {},
): Promise<{ app: App; proxy: NetProxy }> {
  const app = await createHttpServer({
    logger: ctx.logger,
    bodyLimit: ctx.config.bodyLimit,
    trustProxy: ctx.config.trustProxy,
    version: VERSION,
    title: 'Parapet network proxy',
  });
  await installAuthHook(app, createAuthenticator(authDepsOf(ctx)));
  // What a load balancer or an orchestrator probes: the same answer as the API's, from this process, so a
  // proxy that lost its database or Redis is taken out of rotation.
  await app.register(
    healthRoutes({ version: VERSION, startedAt: new Date(), database: ctx.storage, cache: ctx.cache }),
  );
  const proxy = createNetProxy({
    protection: ctx.gateway.protection,
    assertAllowed: (orgId) => ctx.gateway.force.assertProxyAllowed(orgId),
    recordUsage: (row) => ctx.gateway.usage.record(row),
    baseUrls: ctx.config.providerBaseUrls,
    addressPolicy: providerAddressPolicy(ctx.config),
    bodyLimit: ctx.config.bodyLimit,
    batches: createBatchSessions({
      db: ctx.storage.db,
      vault: ctx.vault,
      clock: ctx.clock,
      warn: (err) =>
        ctx.logger.warn({ err }, 'network proxy: a batch was not recorded; its results stay tokens'),
    }),
    ...(options.idleTimeoutMs !== undefined ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
    ...(options.lookup ? { lookup: options.lookup } : {}),
  });
  await app.register(netproxyRoutes(proxy, { bodyLimit: ctx.config.bodyLimit }));
  app.addHook('onClose', async () => proxy.close());
  return { app, proxy };
}

/**
 * Transparent mode: HTTPS for the providers' own host names, each answered with a leaf certificate from
 * the CA, over the same proxy. The TLS handshake of any other name fails (no certificate is offered), and
 * the organization is the key's or the one whose client networks hold the caller's address.
 */
export async function buildIntercept(ctx: Context, proxy: NetProxy, issuer: LeafIssuer): Promise<App> {
  const app = await createHttpServer({
    logger: ctx.logger,
    bodyLimit: ctx.config.bodyLimit,
    trustProxy: false,
    version: VERSION,
    title: 'Parapet transparent network proxy',
    https: {
      minVersion: 'TLSv1.2',
      ALPNProtocols: ['http/1.1'],
      SNICallback: (servername: string, cb: (err: Error | null, ctx?: SecureContext) => void) => {
        if (!providerOfHost(servername)) {
          cb(new Error(`not an intercepted host: ${servername.slice(0, 100)}`));
          return;
        }
        issuer.contextFor(servername.toLowerCase().replace(/\.$/, '')).then(
          (context) => cb(null, context),
          (err: Error) => cb(err),
        );
      },
    },
  });
  const directory = createNetworkDirectory({
    listOrgs: () => ctx.orgs.listOrgs(),
    now: () => ctx.clock.now().getTime(),
  });
  await installAuthHook(
    app,
    createAuthenticator({ ...authDepsOf(ctx), orgByNetwork: (ip) => directory.orgIdFor(ip) }),
  );
  await app.register(interceptRoutes(proxy, { bodyLimit: ctx.config.bodyLimit }));
  return app;
}

const CA_CERT = 'ca.pem';
const CA_KEY = 'ca-key.pem';

/** A file of the CA folder, or an error naming what is missing and how to make it. */
function readCaFile(config: Pick<Config, 'proxyCaDir'>, name: string): string {
  const path = join(config.proxyCaDir, name);
  if (!existsSync(path)) {
    throw new AppError(
      'not_found',
      `no ${name} in ${config.proxyCaDir}: run \`parapet proxy ca init\` first (PARAPET_PROXY_CA_DIR)`,
    );
  }
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new AppError(
      'invalid_request',
      `${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}): the proxy must run as the user that owns it (PARAPET_PROXY_CA_DIR)`,
    );
  }
}

/** The CA certificate alone (`parapet proxy ca export`: a machine without the key may export it). */
export function readCaCert(config: Pick<Config, 'proxyCaDir'>): string {
  return readCaFile(config, CA_CERT);
}

/**
 * Reads the CA from PARAPET_PROXY_CA_DIR and checks that it can issue (caFilesProblem); a clear error when
 * `parapet proxy ca init` was not run, a file cannot be read, or the two files do not make one valid CA.
 */
export function readCa(config: Pick<Config, 'proxyCaDir'>, now = new Date()): CaFiles {
  const files = { certPem: readCaFile(config, CA_CERT), keyPem: readCaFile(config, CA_KEY) };
  const problem = caFilesProblem(files, now);
  if (problem) {
    throw new AppError(
      'invalid_request',
      `the network proxy CA in ${config.proxyCaDir} cannot be used: ${problem} (PARAPET_PROXY_CA_DIR; \`parapet proxy ca init --force\` makes a new one, which every device must then install)`,
    );
  }
  return files;
}

/** `parapet proxy ca init`: a new CA, its key readable by the owner only; refuses to replace one unless forced. */
export async function initCa(
  config: Pick<Config, 'proxyCaDir'>,
  options: { name?: string; force?: boolean; now?: Date },
): Promise<{ certPath: string; keyPath: string; subject: string; fingerprint256: string }> {
  const certPath = join(config.proxyCaDir, CA_CERT);
  const keyPath = join(config.proxyCaDir, CA_KEY);
  if (!options.force && (existsSync(certPath) || existsSync(keyPath))) {
    throw new AppError(
      'conflict',
      `a network proxy CA already exists in ${config.proxyCaDir}; devices trust it. Use --force to replace it (every device must then install the new certificate).`,
    );
  }
  const files = await createCa(options.name ?? 'Parapet network proxy CA', options.now ?? new Date());
  mkdirSync(config.proxyCaDir, { recursive: true, mode: 0o700 });
  // mkdir's mode applies to a folder it creates only (and through the umask): one made beforehand, e.g.
  // by a deployment script, kept its 0755 and let anyone list the key's folder.
  chmodSync(config.proxyCaDir, 0o700);
  writeFileSync(keyPath, files.keyPem, { mode: 0o600 });
  chmodSync(keyPath, 0o600); // an existing file keeps its mode on write
  writeFileSync(certPath, files.certPem, { mode: 0o644 });
  return { certPath, keyPath, ...describeCa(files.certPem) };
}

/** Starts the network proxy on PROXY_PORT; returns its address. */
export async function listenProxy(
  ctx: Context,
  options: { lookup?: LookupFunction } = {},
): Promise<{ app: App; proxy: NetProxy; url: string }> {
  const { app, proxy } = await buildProxy(ctx, options);
  try {
    await listenOn(app, { host: ctx.config.host, port: ctx.config.proxyPort, portVariable: 'PROXY_PORT' });
  } catch (err) {
    await app.close();
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : ctx.config.proxyPort;
  return { app, proxy, url: shownUrl(ctx.config.host, port) };
}

/**
 * `parapet proxy [--intercept]`: the network proxy alone, for deployments that scale it apart from the
 * API; with --intercept also the transparent TLS listener on PARAPET_INTERCEPT_PORT.
 */
export async function runProxy(
  options: { intercept?: boolean } = {},
  out: (text: string) => void = (t) => process.stdout.write(t),
): Promise<void> {
  const config = loadConfig();
  // Read before anything starts, so a missing CA is a clear error and not a half-started proxy.
  const ca = options.intercept ? readCa(config) : undefined;
  const ctx = await createContext(config, { serving: true });
  const { app, intercept } = await startOrClose(ctx, async (opened) => {
    const lookup = ca ? createUpstreamLookup(config.interceptDns) : undefined;
    const { app, proxy, url } = await listenProxy(ctx, lookup ? { lookup } : {});
    opened(() => app.close());
    out(
      `Parapet network proxy listening on ${url}/proxy/<provider>/ (${ctx.storage.dialect}, ${ctx.cache.kind} cache)\n`,
    );
    if (!ca) return { app, intercept: undefined };
    const issuer = await createLeafIssuer(ca, () => ctx.clock.now());
    const intercept = await buildIntercept(ctx, proxy, issuer);
    opened(() => intercept.close());
    await listenOn(intercept, {
      host: config.host,
      port: config.interceptPort,
      portVariable: 'PARAPET_INTERCEPT_PORT',
    });
    const address = intercept.server.address();
    const port = typeof address === 'object' && address ? address.port : config.interceptPort;
    out(
      `Parapet transparent proxy listening on ${config.host}:${port} (TLS for the providers' host names; CA ${describeCa(ca.certPem).fingerprint256})\n`,
    );
    return { app, intercept };
  });
  stopOnSignals(async (signal) => {
    ctx.logger.info({ signal }, 'stopping');
    await intercept?.close();
    await app.close();
    await ctx.close();
  }, config.stopGraceSeconds * 1000);
}
