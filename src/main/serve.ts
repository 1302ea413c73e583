import { loadConfig } from '../platform/config/index.js';
import { buildApi } from './api.js';
import { bootstrapIfEmpty, formatBootstrap } from './bootstrap.js';
import { createContext } from './context.js';
import { type EventWorkers, startEventWorkers } from './worker.js';
import { startMaintenance } from './maintenance.js';

/** `parapet serve`: migrations, first-start bootstrap, the API server, and a clean stop on SIGTERM/SIGINT. */
export async function serve(out: (text: string) => void = (t) => process.stdout.write(t)): Promise<void> {
  const config = loadConfig();
  const ctx = await createContext(config);
  const app = await buildApi(ctx);
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const apiUrl = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;
  const boot = await bootstrapIfEmpty(ctx);
  const workers: EventWorkers | null = config.runWorkers ? await startEventWorkers(ctx) : null;
  if (boot) out(formatBootstrap(boot, apiUrl));
  const maintenance = config.runWorkers ? startMaintenance(ctx) : null;
  out(
    `Parapet API listening on ${apiUrl} (docs at ${apiUrl}/api/docs, ${ctx.storage.dialect}, ${ctx.cache.kind} cache)\n`,
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    ctx.logger.info({ signal }, 'stopping');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      maintenance?.stop();
      await app.close();
      await workers?.close();
      await ctx.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
