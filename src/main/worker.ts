import { loadConfig } from '../platform/config/index.js';
import type { App } from '../platform/http/index.js';
import { createOutbound, type Outbound } from '../platform/net/index.js';
import {
  createWebhookDispatcher,
  createWebhooksService,
  createWorkLoop,
  WEBHOOK_TIMEOUT_MS,
  type WebhookDispatcher,
  webhooksRoutes,
} from '../modules/events/index.js';
import {
  createSiemForwarder,
  createSiemService,
  type SiemForwarder,
  siemRoutes,
} from '../modules/siem/index.js';
import { type Context, createContext, startOrClose } from './context.js';
import { stopOnSignals } from './signals.js';

/** Pause of an idle delivery loop; new events wake the loops at once, so this only bounds retry lateness. */
const IDLE_MS = 250;

function outboundFor(ctx: Context): Outbound {
  return createOutbound({
    allowPrivate: ctx.config.allowPrivateTargets,
    timeoutMs: WEBHOOK_TIMEOUT_MS,
    maxSocketsPerHost: 64,
  });
}

export interface Deliverers {
  outbound: Outbound;
  dispatcher: WebhookDispatcher;
  forwarder: SiemForwarder;
  close(): Promise<void>;
}

/** What the delivery pools call when a send or drain ends: its slot is free for new due work. */
interface Wake {
  webhooks?: () => void;
  siem?: () => void;
}

export function createDeliverers(
  ctx: Context,
  outbound: Outbound = outboundFor(ctx),
  wake: Wake = {},
): Deliverers {
  const base = {
    db: ctx.storage.db,
    dialect: ctx.storage.dialect,
    clock: ctx.clock,
    sealer: ctx.sealer,
    outbound,
  };
  const onError = (what: string) => (err: unknown) =>
    ctx.logger.error({ err: err instanceof Error ? err.message : String(err) }, `${what} failed`);
  const dispatcher = createWebhookDispatcher({
    ...base,
    onSlotFree: () => wake.webhooks?.(),
    onError: onError('webhook delivery'),
  });
  const forwarder = createSiemForwarder({
    ...base,
    allowPrivate: ctx.config.allowPrivateTargets,
    onSlotFree: () => wake.siem?.(),
    onError: onError('SIEM forwarding'),
  });
  return {
    outbound,
    dispatcher,
    forwarder,
    async close() {
      // Sends in flight end (at most their 10 s timeout) and their outcomes are written before the
      // connections close: nothing is left leased by a clean stop.
      await Promise.all([dispatcher.close(), forwarder.close()]);
      await outbound.close();
    },
  };
}

/** Registers the webhook and SIEM management routes; their test buttons send through their own client. */
export async function registerEventsOut(app: App, ctx: Context): Promise<void> {
  const d = createDeliverers(ctx);
  const webhooks = createWebhooksService({
    db: ctx.storage.db,
    clock: ctx.clock,
    sealer: ctx.sealer,
    allowPrivateTargets: ctx.config.allowPrivateTargets,
    dispatcher: d.dispatcher,
    publish: ctx.events.publish,
  });
  const siem = createSiemService({
    db: ctx.storage.db,
    clock: ctx.clock,
    sealer: ctx.sealer,
    outbound: d.outbound,
    allowPrivateTargets: ctx.config.allowPrivateTargets,
    forwarder: d.forwarder,
    publish: ctx.events.publish,
  });
  await app.register(webhooksRoutes(webhooks));
  await app.register(siemRoutes(siem));
  app.addHook('onClose', async () => d.close());
}

export interface EventWorkers extends Deliverers {
  /** One round of both workers; tests call it instead of waiting for the loops. */
  runDue(): Promise<{ webhooks: number; siem: number }>;
  /** Starts the background loops (after releasing orphaned leases on SQLite). */
  start(): Promise<void>;
  /** Wakes the loops now: events were published in another process. */
  kick(): void;
  /** Stops the loops, waits for the round in flight, closes connections. */
  close(): Promise<void>;
}

export function createEventWorkers(ctx: Context, outbound?: Outbound): EventWorkers {
  const wake: Wake = {};
  const d = createDeliverers(ctx, outbound, wake);
  const onError = (what: string) => (err: unknown) =>
    ctx.logger.error({ err: err instanceof Error ? err.message : String(err) }, `${what} round failed`);
  // A round only fills the free slots and returns; the sends go on in the pools, and each one that ends
  // wakes its loop to fill its slot with the next due work (a due retry included).
  const hooks = createWorkLoop({
    run: () => d.dispatcher.fill(),
    idleMs: IDLE_MS,
    onError: onError('webhook delivery'),
  });
  const siem = createWorkLoop({
    run: () => d.forwarder.fill(),
    idleMs: IDLE_MS,
    onError: onError('SIEM forwarding'),
  });
  wake.webhooks = () => hooks.kick();
  wake.siem = () => siem.kick();
  let unsubscribe: (() => void) | null = null;
  const kick = () => {
    hooks.kick();
    siem.kick();
  };
  return {
    ...d,
    async runDue() {
      return { webhooks: await d.dispatcher.runDue(), siem: await d.forwarder.runDue() };
    },
    async start() {
      if (ctx.storage.dialect === 'sqlite') {
        // One process owns an SQLite file: whatever is leased now was in flight when the last one died.
        await d.dispatcher.releaseAllLeases();
        await d.forwarder.releaseAllLeases();
      }
      unsubscribe = ctx.events.onQueued(kick);
      hooks.start();
      siem.start();
    },
    kick,
    async close() {
      unsubscribe?.();
      await Promise.all([hooks.close(), siem.close()]);
      await d.close();
    },
  };
}

/** Starts the workers inside an already running process (`parapet serve` when config.runWorkers). */
export async function startEventWorkers(ctx: Context): Promise<EventWorkers> {
  const w = createEventWorkers(ctx);
  await w.start();
  return w;
}

/** `parapet worker`: event delivery alone, for deployments that run it apart from the API servers. */
export async function runWorker(out: (text: string) => void = (t) => process.stdout.write(t)): Promise<void> {
  const ctx = await createContext(loadConfig(), { serving: true });
  const workers = await startOrClose(ctx, async () => startEventWorkers(ctx));
  // The loops' timers are unref'd; this keeps the process alive until a signal arrives.
  const alive = setInterval(() => undefined, 1 << 30);
  out(`Parapet worker delivering events (${ctx.storage.dialect})\n`);
  stopOnSignals(async (signal) => {
    ctx.logger.info({ signal }, 'stopping worker');
    await workers.close();
    await ctx.close();
    clearInterval(alive);
  }, 15_000);
}
