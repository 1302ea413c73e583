import { isIP } from 'node:net';
import { join } from 'node:path';
import {
  assertRedisAnswers,
  type Cache,
  createMemoryCache,
  createRedisCache,
} from '../platform/cache/index.js';
import { type Clock, systemClock } from '../platform/clock/index.js';
import { type Compute, createCompute } from '../platform/compute/index.js';
import type { Config } from '../platform/config/index.js';
import { type Sealer, createSealer } from '../platform/crypto/index.js';
import { type Logger, createLogger } from '../platform/log/index.js';
import { type AddressPolicy, createAddressPolicy, normalizeHost } from '../platform/net/index.js';
import {
  type Storage,
  createGroupCommit,
  openStorage,
  namedStorageFailure,
  sqliteFileIn,
} from '../platform/storage/index.js';
import { type AuthService, createAuthService } from '../modules/auth/index.js';
import { type DetectionService, createDetectionService } from '../modules/detection/index.js';
import {
  blankPersonalData,
  type DlpService,
  dlpSettingsOf,
  type Vault,
  createDlpService,
  createVault,
} from '../modules/dlp/index.js';
import { type EventPublisher, createEventPublisher } from '../modules/events/index.js';
import { type Gateway, createGateway } from '../modules/gateway/index.js';
import {
  type HallucinationService,
  createHallucinationService,
  createLlmJudge,
} from '../modules/hallucination/index.js';
import {
  type DeviceTokens,
  type KeysService,
  createDeviceTokens,
  createKeysService,
} from '../modules/keys/index.js';
import { type Endpoint, createEndpoint } from '../modules/endpoint/index.js';
import { type Licensing, createLicensing, licenseSecret } from '../modules/licensing/index.js';
import { type LimitsService, createLimitsService } from '../modules/limits/index.js';
import { type OrgsService, createOrgsService } from '../modules/orgs/index.js';
import {
  type ProofsService,
  createDiskStore,
  createProofsService,
  createS3Store,
} from '../modules/proofs/index.js';
import { type ReportsService, createReportsService } from '../modules/reports/index.js';
import { type ShadowAiService, createShadowAiService, loadCatalog } from '../modules/shadow-ai/index.js';
import { loadMasterKey } from './master-key.js';

/** Everything a process needs, built once from the configuration; entrypoints and tests share it. */
/**
 * The address policy of every connection to an LLM provider (the gateway's transport and the network
 * proxy's): PARAPET_ALLOW_PRIVATE_TARGETS, plus the host names of the operator's upstreams
 * (PARAPET_PROVIDER_<ID>_BASE_URL, already checked by the outbound-URL policy at start-up) as exceptions
 * that may resolve to private addresses, as an internal model gateway behind split-horizon DNS does. IP
 * literals get no exception, and no name ever reaches a metadata or unspecified address.
 */
export function providerAddressPolicy(config: Config): AddressPolicy {
  return createAddressPolicy({
    allowPrivate: config.allowPrivateTargets,
    allowHosts: Object.values(config.providerBaseUrls)
      .map((u) => normalizeHost(new URL(u).hostname))
      .filter((host) => isIP(host) === 0),
  });
}

/**
 * A serving process's start once its context exists: when it fails (a port taken, a bad HOST, a missing
 * CA), what it opened (`opened(close)`: servers already listening, workers) is closed, last first, then the
 * context, before the failure is thrown on. Servers, the database pool, the Redis connection and the
 * compute and checkpoint threads would otherwise keep the process alive after the failure was printed:
 * an orchestrator would see it running and never restart it.
 */
export async function startOrClose<T>(
  ctx: Context,
  start: (opened: (close: () => unknown) => void) => Promise<T>,
): Promise<T> {
  const closers: Array<() => unknown> = [];
  try {
    return await start((close) => closers.push(close));
  } catch (err) {
    for (const close of closers.reverse())
      await Promise.resolve()
        .then(close)
        .catch(() => undefined);
    await ctx.close().catch(() => undefined);
    throw err;
  }
}

export interface Context {
  config: Config;
  logger: Logger;
  clock: Clock;
  storage: Storage;
  cache: Cache;
  /** Engine runs of large inputs in worker threads under a time budget (docs/hardening.md). */
  compute: Compute;
  sealer: Sealer;
  events: EventPublisher;
  orgs: OrgsService;
  keys: KeysService;
  limits: LimitsService;
  auth: AuthService;
  vault: Vault;
  dlp: DlpService;
  gateway: Gateway;
  hallucination: HallucinationService;
  detection: DetectionService;
  reports: ReportsService;
  deviceTokens: DeviceTokens;
  endpoint: Endpoint;
  licensing: Licensing;
  shadowAi: ShadowAiService;
  proofs: ProofsService;
  close(): Promise<void>;
}

export interface ContextOptions {
  clock?: Clock;
  logger?: Logger;
  migrate?: boolean;
  /** Counters kept elsewhere (the primary process of PARAPET_HTTP_WORKERS) instead of this process. */
  cache?: Cache;
  /** A serving process (API, worker): SQLite checkpoints run in a background thread (ADR 5). */
  serving?: boolean;
}

export async function createContext(config: Config, options: ContextOptions = {}): Promise<Context> {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(config.logLevel);
  const embedded = !config.databaseUrl;
  // A database that cannot be reached is the operator's setting to fix: say which one, and where it points.
  const named = (err: unknown): unknown => namedStorageFailure(err, config.databaseUrl);
  // A missing or malformed key is a setting to fix whatever the database's state: it is checked before the
  // database is opened, so the operator hears about the key, not about an unrelated connection failure.
  // (The embedded default without a configured key creates its key file in the data directory later.)
  const earlyKey =
    !embedded || config.masterKey
      ? loadMasterKey({ configured: config.masterKey, dataDir: config.dataDir, embedded })
      : undefined;
  const storage = await openStorage({
    databaseUrl: config.databaseUrl,
    schema: config.databaseSchema,
    ...(embedded ? { sqliteFile: sqliteFileIn(config.dataDir) } : {}),
    backgroundCheckpoints: options.serving === true,
  }).catch((err: unknown) => {
    throw named(err);
  });
  let compute: Compute | undefined;
  let opened: Cache | undefined;
  try {
    if (options.migrate !== false)
      await storage.migrate().catch((err: unknown) => Promise.reject(named(err)));
    const masterKey =
      earlyKey ?? loadMasterKey({ configured: config.masterKey, dataDir: config.dataDir, embedded });
    const sealer = createSealer(masterKey);
    const cache =
      options.cache ??
      (config.redisUrl ? createRedisCache(config.redisUrl, config.redisPrefix) : createMemoryCache(clock));
    opened = options.cache ? undefined : cache;
    // A serving process without its Redis would answer every request 503: it stops at start instead, and
    // says which setting points where (never the URL's password).
    if (options.serving && config.redisUrl && !options.cache)
      await assertRedisAnswers(cache, config.redisUrl);
    const events = createEventPublisher({ clock });
    const pool = createCompute({
      threads: config.computeThreads,
      budgetMs: config.computeBudgetMs,
      queueWaitMs: config.computeQueueWaitMs,
      minChars: config.computeMinChars,
      // A serving process starts a thread up front, so its first large request does not wait for one.
      warm: options.serving === true,
    });
    compute = pool;
    const keys = createKeysService({
      db: storage.db,
      clock,
      emit: events.publishFor,
    });
    const orgs = createOrgsService({
      db: storage.db,
      clock,
      publish: events.publish,
      sessionTtlHours: config.sessionTtlHours,
      dialect: storage.dialect,
      revokeAdminKeysBy: keys.revokeAdminKeysBy,
    });
    const limits = createLimitsService({
      db: storage.db,
      cache,
      clock,
      emit: (org, type, data) => events.publish(storage.db, org, type, data),
    });
    const deviceTokens = createDeviceTokens({ db: storage.db, clock });
    const auth = createAuthService({ keys, orgs, clock, deviceTokens });
    const licensing = createLicensing({
      db: storage.db,
      clock,
      secret: licenseSecret(config.licenseSecret, masterKey),
    });
    const endpoint = createEndpoint({
      db: storage.db,
      dialect: storage.dialect,
      clock,
      tokens: deviceTokens,
      publish: events.publish,
      seats: (orgId) => licensing.endpointSeats(orgId),
      compute: pool,
      // Ids and counts only: the rows are kept in memory and tried again at the next flush.
      onRecorderError: (err, info) =>
        logger.error({ err, ...info }, 'endpoint heartbeats of an organization could not be written'),
    });
    const vault = createVault({
      db: storage.db,
      sealer,
      clock,
      shared: cache,
      // SQLite has one writer; PostgreSQL commits a few batches side by side on its pool.
      commit: createGroupCommit(storage.db, { concurrency: storage.dialect === 'sqlite' ? 1 : 4 }),
    });
    const dlp = createDlpService({
      vault,
      orgs,
      limits,
      clock,
      publish: events.publish,
      forgetOrg: (id) => auth.forgetOrg(id),
      compute: pool,
    });
    const detection = createDetectionService({
      db: storage.db,
      limits,
      orgs,
      publish: events.publish,
      forgetOrg: (id) => auth.forgetOrg(id),
      compute: pool,
    });
    const gateway = createGateway({
      db: storage.db,
      clock,
      sealer,
      vault,
      limits,
      providerBaseUrls: config.providerBaseUrls,
      publish: events.publish,
      allowPrivateTargets: config.allowPrivateTargets,
      addressPolicy: providerAddressPolicy(config),
      compute: pool,
      onForceSwitch: (trx, orgId) => endpoint.bumpConfigVersion(trx, orgId),
    });
    // A removed user leaves no binding behind in the endpoint product (docs/endpoint.md, "Removing a user").
    orgs.onUserRemoved((trx, org, user, by) => endpoint.forgetUser(trx, org, user, by));
    // Force mode as the extension needs it (it redirects users to the protected chat while enabled).
    // Read from the database, not through the proxy's 1-second cache: a config built in that second after a
    // switch on another process would carry the old state under the new version, and be answered 304 after.
    endpoint.config.registerSection('forceMode', async ({ orgId }) => ({
      enabled: (await gateway.force.status(orgId)).enabled,
    }));
    const shadowAi = createShadowAiService({
      db: storage.db,
      clock,
      catalog: loadCatalog(),
      publish: events.publish,
      deviceUser: (orgId, deviceId) => endpoint.deviceUser(orgId, deviceId),
      bumpConfigVersion: (trx, orgId) => endpoint.bumpConfigVersion(trx, orgId),
    });
    // The catalog version and the organization's allow/block decisions, which the extension enforces.
    endpoint.config.registerSection('shadowAi', ({ orgId }) => shadowAi.configSection(orgId));
    const proofs = createProofsService({
      db: storage.db,
      clock,
      store: config.proofStore
        ? await createS3Store({
            url: config.proofStore,
            endpoint: config.proofS3Endpoint,
            region: config.proofS3Region,
            accessKeyId: config.proofS3AccessKeyId,
            secretAccessKey: config.proofS3SecretAccessKey,
          })
        : createDiskStore(join(config.dataDir, 'proofs')),
      publish: events.publish,
      deviceUser: (orgId, deviceId) => endpoint.deviceUser(orgId, deviceId),
      deviceExists: (orgId, deviceId) => endpoint.deviceExists(orgId, deviceId),
      blank: (settings, texts) => blankPersonalData(pool, texts, dlpSettingsOf(settings)),
    });
    const hallucination = createHallucinationService({
      db: storage.db,
      clock,
      limits,
      compute: pool,
      orgs,
      forgetOrg: (id) => auth.forgetOrg(id),
      judge: createLlmJudge({ keys: gateway.keys, providers: gateway.providers }),
    });
    const reports = createReportsService({ db: storage.db, clock, flushUsage: limits.flush });
    return {
      config,
      logger,
      clock,
      storage,
      cache,
      compute: pool,
      sealer,
      events,
      orgs,
      keys,
      limits,
      auth,
      vault,
      dlp,
      gateway,
      hallucination,
      detection,
      reports,
      deviceTokens,
      endpoint,
      licensing,
      shadowAi,
      proofs,
      async close() {
        await reports.close();
        await endpoint.close();
        await gateway.close();
        await pool.close();
        await limits.close();
        await cache.close();
        await storage.close();
      },
    };
  } catch (err) {
    await compute?.close();
    await opened?.close();
    await storage.close();
    throw err;
  }
}
