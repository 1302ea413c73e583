import { createGatewayHistory } from '../modules/gateway/index.js';
import type { Context } from './context.js';

const EVERY_MS = 60_000;

/**
 * Retention jobs, every minute: expired DLP vault sessions, then the chat conversations whose session
 * went with them (a conversation must not outlive the vault that can read it), dashboard sessions, endpoint activity logs past their policy's retentionDays, shadow-AI report ids
 * past their idempotence window, and proof documents past their 90 days (file and row).
 */
export function startMaintenance(ctx: Context): { stop(): void; runOnce(): Promise<void> } {
  const history = createGatewayHistory(ctx);
  const runOnce = async () => {
    try {
      await ctx.vault.purgeExpired();
      await history.purgeOrphans();
      await ctx.orgs.purgeExpiredSessions();
      await ctx.endpoint.activity.purgeLogs();
      await ctx.shadowAi.purgeReportIds();
      await ctx.proofs.purgeExpired();
    } catch (err) {
      ctx.logger.warn({ err }, 'retention job failed; it runs again in a minute');
    }
  };
  const timer = setInterval(() => void runOnce(), EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer), runOnce };
}
