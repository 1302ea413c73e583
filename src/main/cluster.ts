import cluster, { type Worker } from 'node:cluster';
import { createIpcCacheClient, type IpcChannel, serveIpcCache } from '../platform/cache/index.js';
import type { Config } from '../platform/config/index.js';
import type { App } from '../platform/http/index.js';
import { buildApi } from './api.js';
import { checkDataFolders } from './data-folders.js';
import { bootstrapIfEmpty, formatBootstrap } from './bootstrap.js';
import { createContext } from './context.js';
import { startMaintenance } from './maintenance.js';
import { listenProxy } from './proxy.js';
import { listenOn, shownUrl, stopOnSignals } from './signals.js';
import { startEventWorkers } from './worker.js';

/**
 * PARAPET_HTTP_WORKERS above 1: one primary process and that many API processes sharing the port (Node's
 * cluster hands them connections in turn). The primary migrates, bootstraps, keeps the in-memory counters
 * (rate limits, quotas) for all of them when there is no Redis, and runs the event workers and retention
 * jobs, so that exactly one process owns the outbox leases of an SQLite file. See docs/adr/0004.
 */
export const isClusterWorker = () => cluster.isWorker;

interface StopMessage {
  parapet: 'stop';
}
interface WakeMessage {
  parapet: 'wake';
}
/** An API process listens: on the API's port and on the network proxy's. */
interface ReadyMessage {
  parapet: 'ready';
  apiPort: number;
  proxyPort: number;
}
const isReady = (m: unknown): m is ReadyMessage =>
  typeof m === 'object' && m !== null && (m as ReadyMessage).parapet === 'ready';
const isWake = (m: unknown): m is WakeMessage =>
  typeof m === 'object' && m !== null && (m as WakeMessage).parapet === 'wake';
const isStop = (m: unknown): m is StopMessage =>
  typeof m === 'object' && m !== null && (m as StopMessage).parapet === 'stop';

/**
 * Sends without throwing: a worker that just died has no channel left, and its exit is handled apart.
 * `onError` hears of a message that did not go out.
 */
function sendQuietly(
  target: Worker | NodeJS.Process,
  message: unknown,
  onError?: (err: Error) => void,
): void {
  const connected = 'isConnected' in target ? target.isConnected() : target.connected;
  if (!connected) {
    onError?.(new Error('the other process is gone'));
    return;
  }
  target.send?.(message as never, undefined, (err: Error | null) => {
    if (err) onError?.(err);
  });
}

function channelTo(worker: Worker): IpcChannel {
  return {
    send: (m, onError) => sendQuietly(worker, m, onError),
    listen(handler) {
      worker.on('message', handler);
      return () => worker.off('message', handler);
    },
  };
}

const RESTART_DELAY_MS = 1_000;
const MAX_RESTART_DELAY_MS = 60_000;
/** A process that served this long before dying is not crash-looping: the delay starts over. */
const STABLE_AFTER_MS = 60_000;

/** Asks an API process to finish its requests and close; kills it if it has not exited after the grace. */
function stopWorker(w: Worker, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    if (w.isDead()) return resolve();
    const kill = setTimeout(() => w.kill('SIGKILL'), graceMs);
    w.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    sendQuietly(w, { parapet: 'stop' } satisfies StopMessage);
  });
}

export async function servePrimary(config: Config, out: (text: string) => void): Promise<void> {
  const ctx = await createContext(config, { serving: true });
  const boot = await bootstrapIfEmpty(ctx);
  const events = config.runWorkers ? await startEventWorkers(ctx) : null;
  const maintenance = config.runWorkers ? startMaintenance(ctx) : null;
  const sharesCounters = !config.redisUrl;
  // Installed first: a signal during start-up must still stop the API processes forked so far.
  const lifecycle = stopOnSignals(
    async (signal) => {
      ctx.logger.info({ signal }, 'stopping');
      const live = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
      await Promise.all(live.map((w) => stopWorker(w, config.stopGraceSeconds * 1000)));
      maintenance?.stop();
      await events?.close();
      await ctx.close();
    },
    config.stopGraceSeconds * 1000 + 5_000,
  );

  // A process that dies soon after it started (a bad deployment, a port taken) would otherwise be
  // restarted every second forever: the delay doubles up to a minute while they keep dying young.
  let restartDelayMs = RESTART_DELAY_MS;
  const fork = (): Worker => {
    const worker = cluster.fork();
    const forkedAt = Date.now();
    if (sharesCounters) serveIpcCache(ctx.cache, channelTo(worker));
    worker.on('message', (m) => {
      if (isWake(m)) events?.kick();
    });
    worker.on('exit', (code, signal) => {
      // Before all processes listen, a death fails the start instead (below).
      if (lifecycle.stopping || !ready) return;
      if (Date.now() - forkedAt >= STABLE_AFTER_MS) restartDelayMs = RESTART_DELAY_MS;
      const delayMs = restartDelayMs;
      restartDelayMs = Math.min(restartDelayMs * 2, MAX_RESTART_DELAY_MS);
      ctx.logger.error({ code, signal, restartInMs: delayMs }, 'an API process stopped; starting another');
      setTimeout(() => {
        if (!lifecycle.stopping) fork();
      }, delayMs).unref();
    });
    return worker;
  };

  let ready = false;
  // Each process serves the API and the network proxy (the embedded default, several times over); it says
  // so once both listen. Port 0 gives all processes the same ephemeral port of each server.
  const starting = new Promise<ReadyMessage>((resolve, reject) => {
    let listening = 0;
    for (let i = 0; i < config.httpWorkers; i++) {
      const worker = fork();
      const onReady = (m: unknown) => {
        if (!isReady(m)) return;
        worker.off('message', onReady);
        if (++listening === config.httpWorkers) resolve(m);
      };
      worker.on('message', onReady);
      worker.once('exit', (code) => {
        if (listening < config.httpWorkers)
          reject(new Error(`an API process exited on start (code ${code})`));
      });
    }
  });

  let first: ReadyMessage;
  try {
    first = await starting;
    ready = true;
  } catch (err) {
    for (const w of Object.values(cluster.workers ?? {})) w?.kill('SIGKILL');
    // A signal during start-up is already closing everything; closing twice would report a false failure.
    if (lifecycle.stopping) return;
    maintenance?.stop();
    await events?.close();
    await ctx.close();
    throw err;
  }

  const apiUrl = shownUrl(config.host, first.apiPort);
  if (boot) out(formatBootstrap(boot, apiUrl));
  out(
    `Parapet API listening on ${apiUrl} (dashboard at ${apiUrl}/, docs at ${apiUrl}/api/docs, ${ctx.storage.dialect}, ${ctx.cache.kind} cache, ${config.httpWorkers} processes)\n`,
  );
  out(`Parapet network proxy listening on ${shownUrl(config.host, first.proxyPort)}/proxy/<provider>/\n`);
}

export async function serveWorker(config: Config): Promise<void> {
  const toPrimary: IpcChannel = {
    send: (m, onError) => sendQuietly(process, m, onError),
    listen(handler) {
      process.on('message', handler);
      return () => process.off('message', handler);
    },
  };
  // Installed first: the primary may ask to stop while this process is still starting.
  let started: Promise<{ close(): Promise<void> }> | null = null;
  const lifecycle = stopOnSignals(async () => {
    await (await started?.catch(() => null))?.close();
  }, config.stopGraceSeconds * 1000);
  process.on('message', (m) => {
    if (isStop(m)) lifecycle.stop('primary');
  });
  // Ctrl-C reaches every process of the group (handled above); a primary that died leaves us disconnected.
  process.on('disconnect', () => lifecycle.stop('disconnect'));

  started = (async () => {
    const ctx = await createContext(config, {
      migrate: false,
      serving: true,
      ...(config.redisUrl ? {} : { cache: createIpcCacheClient(toPrimary) }),
    });
    // The primary's delivery loops learn of queued deliveries at once instead of at their next idle poll.
    let wakePending = false;
    ctx.events.onQueued(() => {
      if (wakePending) return;
      wakePending = true;
      setImmediate(() => {
        wakePending = false;
        toPrimary.send({ parapet: 'wake' } satisfies WakeMessage);
      });
    });
    checkDataFolders(config);
    const app = await buildApi(ctx);
    await listenOn(app, { host: config.host, port: config.port, portVariable: 'PORT' });
    const proxy = await listenProxy(ctx);
    const portOf = (a: App) => {
      const address = a.server.address();
      return typeof address === 'object' && address ? address.port : 0;
    };
    toPrimary.send({
      parapet: 'ready',
      apiPort: portOf(app),
      proxyPort: portOf(proxy.app),
    } satisfies ReadyMessage);
    return {
      async close() {
        await proxy.app.close();
        await app.close();
        await ctx.close();
      },
    };
  })();
  try {
    await started;
  } catch (err) {
    // The IPC channel would keep this process alive, listening nowhere, while the primary waits for it.
    process.stderr.write(`parapet: API process ${process.pid} failed to start: ${(err as Error).message}\n`);
    process.exit(1);
  }
}
