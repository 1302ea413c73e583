import { join } from 'node:path';
import {
  assertRedisAnswers,
  type Cache,
  createMemoryCache,
  createRedisCache,
} from '../platform/cache/index.js';
import { type Clock, systemClock } from '../platform/clock/index.js';
import { type Config, ConfigError } from '../platform/config/index.js';
import { createSealer } from '../platform/crypto/index.js';
import { createHttpServer, type App } from '../platform/http/index.js';
import { createLogger, type Logger } from '../platform/log/index.js';
import { createOutbound, type Outbound } from '../platform/net/index.js';
import { openStorage, sqliteFileIn, type Storage, VERIFIER_MIGRATIONS } from '../platform/storage/index.js';
import { createRateWindows, type RateWindows } from '../modules/limits/index.js';
import {
  createLicenceGate,
  installVerifierAuth,
  createPatternUpdater,
  type PatternUpdater,
  startPatternUpdates,
  createVerifierRepo,
  createVerifierService,
  type LicenceGate,
  type LlmModel,
  openCloudTunnel,
  parseModels,
  readRegistration,
  startScheduler,
  type CloudTunnel,
  type VerifierDb,
  type VerifierRepo,
  type VerifierService,
  verifierRoutes,
} from '../modules/verifier/index.js';
import { loadMasterKey } from './master-key.js';
import { listenOn, shownUrl, stopOnSignals } from './signals.js';
import { VERSION } from './version.js';

/** Honest: who we are and where to read about us, on every request the crawler makes (robots.txt too). */
export const VERIFIER_USER_AGENT = `ParapetVerifier/${VERSION} (+https://parapet.dev/docs/verifier)`;

export interface VerifierContext {
  config: Config;
  logger: Logger;
  storage: Storage;
  repo: VerifierRepo;
  service: VerifierService;
  outbound: Outbound;
  licence: LicenceGate;
  patterns: PatternUpdater;
  tunnel: CloudTunnel | null;
  /** The rate-limit windows: in memory, or in Redis when REDIS_URL is set (several verifiers share them). */
  cache: Cache;
  windows: RateWindows;
  close(): Promise<void>;
}

export interface VerifierContextOptions {
  clock?: Clock;
  logger?: Logger;
  /** Replaces PARAPET_VERIFIER_LLMS (tests). */
  models?: LlmModel[];
  /** Open the SSH tunnel when the verifier is registered (serving processes; not the CLI). */
  connectCloud?: boolean;
}

/** The verifier's own store: a SQLite file in its folder, or its own PostgreSQL database. */
export async function openVerifierStorage(config: Config): Promise<Storage> {
  const embedded = !config.verifierDatabaseUrl;
  const storage = await openStorage({
    databaseUrl: config.verifierDatabaseUrl,
    schema: config.databaseSchema,
    ...(embedded ? { sqliteFile: sqliteFileIn(config.verifierDataDir, 'verifier.db') } : {}),
    migrations: VERIFIER_MIGRATIONS,
  });
  try {
    await storage.migrate();
  } catch (err) {
    await storage.close();
    throw err;
  }
  return storage;
}

/** PARAPET_VERIFIER_LLMS read at start: a value that does not parse is a setting to fix, not a crash. */
function modelsOf(json: string) {
  try {
    return parseModels(json);
  } catch (err) {
    throw new ConfigError(`invalid configuration: ${(err as Error).message}`, { cause: err });
  }
}

export const verifierDb = (storage: Storage): VerifierDb => storage.db as unknown as VerifierDb;

export async function createVerifierContext(
  config: Config,
  options: VerifierContextOptions = {},
): Promise<VerifierContext> {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(config.logLevel);
  // Settings are read before anything is opened: a PARAPET_VERIFIER_LLMS that does not parse, found after
  // the store, the licence gate and the pattern updater were open, left a process that printed the error
  // and never exited.
  const models = options.models ?? modelsOf(config.verifierLlms);
  // Redis is checked first, before anything else is opened: a wrong REDIS_URL stops the start with the
  // API server's message, instead of a server that answers its first counted request 503.
  const cache = config.redisUrl
    ? createRedisCache(config.redisUrl, config.redisPrefix)
    : createMemoryCache(clock);
  try {
    if (config.redisUrl) await assertRedisAnswers(cache, config.redisUrl);
  } catch (err) {
    await cache.close();
    throw err;
  }
  const storage = await openVerifierStorage(config);
  const repo = createVerifierRepo(verifierDb(storage));
  const sealer = createSealer(
    loadMasterKey({
      configured: config.verifierMasterKey,
      dataDir: config.verifierDataDir,
      embedded: !config.verifierDatabaseUrl,
      variable: 'PARAPET_VERIFIER_MASTER_KEY',
    }),
  );
  const outbound = createOutbound({
    allowPrivate: config.allowPrivateTargets,
    timeoutMs: 30_000,
    maxResponseBytes: 20 * 1024 * 1024,
  });
  const registration = await readRegistration(repo, sealer);
  let tunnel: CloudTunnel | null = null;
  if (options.connectCloud && registration) {
    tunnel = await openCloudTunnel(registration, { logger }).catch((err: Error) => {
      logger.warn({ detail: err.message }, 'cloud tunnel could not be opened');
      return null;
    });
  }
  const licence = await createLicenceGate({
    repo,
    clock,
    licenceKey: config.verifierLicense,
    tunnelBase: () => tunnel?.baseUrl ?? null,
  });
  const patterns = createPatternUpdater({
    repo,
    clock,
    licenceKey: config.verifierLicense,
    tunnelBase: () => tunnel?.baseUrl ?? null,
  });
  const service = createVerifierService({
    repo,
    sealer,
    clock,
    outbound,
    allowPrivateTargets: config.allowPrivateTargets,
    uploadDir: join(config.verifierDataDir, 'uploads'),
    dataDir: config.verifierDataDir,
    ...(config.verifierDatabaseUrl
      ? {}
      : { ownFiles: [sqliteFileIn(config.verifierDataDir, 'verifier.db')] }),
    userAgent: VERIFIER_USER_AGENT,
    maxPages: config.verifierMaxPages,
    models,
    llmTimeoutMs: config.verifierLlmTimeoutMs,
    tunnelBase: () => tunnel?.baseUrl ?? null,
    licenceGate: () => licence.assertUsable(),
    detectOptions: () => patterns.detectOptions(),
    onIndexError: (sourceId, err) =>
      logger.warn({ sourceId, detail: (err as Error).message }, 'indexing failed'),
  });
  await service.start();
  return {
    config,
    logger,
    storage,
    repo,
    service,
    outbound,
    licence,
    patterns,
    tunnel,
    cache,
    windows: createRateWindows({ cache, clock }),
    async close() {
      await service.idle();
      await tunnel?.close();
      await outbound.close();
      await cache.close();
      await storage.close();
    },
  };
}

export async function buildVerifierApp(ctx: VerifierContext): Promise<App> {
  const app = await createHttpServer({
    logger: ctx.logger,
    bodyLimit: ctx.config.bodyLimit,
    trustProxy: ctx.config.trustProxy,
    version: VERSION,
    title: 'Parapet verification server',
    description: "Checks LLM answers against the organization's own sources, on its own premises.",
  });
  installVerifierAuth(app, ctx.service, {
    windows: ctx.windows,
    perKey: ctx.config.verifierRatePerMinute,
    perAddress: ctx.config.anonymousPerMinute,
    authFailures: ctx.config.authFailuresPerMinute,
  });
  await app.register(verifierRoutes(ctx.service));
  return app;
}

/** `parapet verifier`: its store, its index, the scheduler, the licence checks and the HTTP server. */
export async function runVerifier(
  config: Config,
  out: (text: string) => void = (t) => process.stdout.write(t),
): Promise<void> {
  const ctx = await createVerifierContext(config, { connectCloud: true });
  const app = await buildVerifierApp(ctx);
  try {
    await listenOn(app, { host: config.host, port: config.verifierPort, portVariable: 'VERIFIER_PORT' });
  } catch (err) {
    // What it opened (the Redis connection of the rate limits, the store, the tunnel) would keep the
    // process alive, listening nowhere.
    await app.close();
    await ctx.close();
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.verifierPort;
  const scheduler = startScheduler(
    () => ctx.service.refreshDue(),
    (err) => ctx.logger.error({ err }, 'scheduled refresh failed'),
  );
  const licenceTimer = ctx.licence.startChecks((err) =>
    ctx.logger.warn({ detail: (err as Error).message }, 'licence check failed'),
  );
  const patternTimer = startPatternUpdates(ctx.patterns, config.verifierLicense !== '', (err) =>
    ctx.logger.warn({ detail: (err as Error).message }, 'pattern update failed'),
  );
  const keys = await ctx.repo.listKeys();
  out(
    `Parapet verification server listening on ${shownUrl(config.host, port)} (${ctx.storage.dialect}, ${ctx.service.indexSize()} passages${ctx.tunnel ? ', cloud tunnel up' : ''})\n`,
  );
  if (keys.length === 0)
    out('No API key yet: run `parapet verifier init` to create the administrator key.\n');
  stopOnSignals(async (signal) => {
    ctx.logger.info({ signal }, 'stopping');
    scheduler.stop();
    licenceTimer.stop();
    patternTimer.stop();
    await app.close();
    await ctx.close();
  }, 10_000);
}
