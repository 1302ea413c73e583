import { loadConfig } from '../platform/config/index.js';
import { buildApi } from './api.js';
import { checkDataFolders } from './data-folders.js';
import { bootstrapIfEmpty, formatBootstrap } from './bootstrap.js';
import { isClusterWorker, servePrimary, serveWorker } from './cluster.js';
import { createContext, startOrClose } from './context.js';
import { listenOn, shownUrl, stopOnSignals } from './signals.js';
import { type EventWorkers, startEventWorkers } from './worker.js';
import { startMaintenance } from './maintenance.js';
import { listenProxy } from './proxy.js';

/** `parapet serve`: migrations, first-start bootstrap, the API server, and a clean stop on SIGTERM/SIGINT. */
export async function serve(out: (text: string) => void = (t) => process.stdout.write(t)): Promise<void> {
  const config = loadConfig();
  if (config.httpWorkers > 1) {
    return isClusterWorker() ? serveWorker(config) : servePrimary(config, out);
  }
  const ctx = await createContext(config, { serving: true });
  const { app, proxy, workers, maintenance } = await startOrClose(ctx, async (opened) => {
    checkDataFolders(config);
    const app = await buildApi(ctx);
    opened(() => app.close());
    await listenOn(app, { host: config.host, port: config.port, portVariable: 'PORT' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const apiUrl = shownUrl(config.host, port);
    // The embedded default serves the network proxy from the same process, on its own port.
    const proxy = await listenProxy(ctx);
    opened(() => proxy.app.close());
    const boot = await bootstrapIfEmpty(ctx);
    const workers: EventWorkers | null = config.runWorkers ? await startEventWorkers(ctx) : null;
    opened(() => workers?.close());
    if (boot) out(formatBootstrap(boot, apiUrl));
    const maintenance = config.runWorkers ? startMaintenance(ctx) : null;
    out(
      `Parapet API listening on ${apiUrl} (dashboard at ${apiUrl}/, docs at ${apiUrl}/api/docs, ${ctx.storage.dialect}, ${ctx.cache.kind} cache)\n`,
    );
    out(`Parapet network proxy listening on ${proxy.url}/proxy/<provider>/\n`);
    return { app, proxy, workers, maintenance };
  });

  stopOnSignals(async (signal) => {
    ctx.logger.info({ signal }, 'stopping');
    maintenance?.stop();
    await proxy.app.close();
    await app.close();
    await workers?.close();
    await ctx.close();
  }, config.stopGraceSeconds * 1000);
}
