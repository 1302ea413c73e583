import type { Context } from './context.js';

const EVERY_MS = 60_000;

/** Retention jobs: expired DLP vault sessions and dashboard sessions are deleted every minute. */
export function startMaintenance(ctx: Context): { stop(): void; runOnce(): Promise<void> } {
  const runOnce = async () => {
    try {
      await ctx.vault.purgeExpired();
      await ctx.orgs.purgeExpiredSessions();
    } catch (err) {
      ctx.logger.warn({ err }, 'retention job failed; it runs again in a minute');
    }
  };
  const timer = setInterval(() => void runOnce(), EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer), runOnce };
}
