import { ConfigError, loadConfig } from '../platform/config/index.js';
import { createDnsForwarder } from '../modules/endpoint/index.js';
import { createContext, startOrClose } from './context.js';
import { listenOrExplain, stopOnSignals } from './signals.js';

const RELOAD_MS = 5_000;
const FLUSH_MS = 10_000;
/** The statistics source of queries blocked by the forwarder (devices use their device id). */
const DNS_SOURCE = 'dns';

/**
 * `parapet dns`: the filtering DNS forwarder for one organization's DNS configuration. It reads the
 * configuration from the database (a change shows within RELOAD_MS) and adds the queries it blocked to
 * the endpoint statistics as unapproved_service blocks.
 */
export async function runDns(orgArg?: string, out: (t: string) => void = (t) => process.stdout.write(t)) {
  const config = loadConfig();
  const orgId = orgArg ?? config.dnsOrg;
  if (!orgId) throw new Error('parapet dns needs the organization: --org ID or PARAPET_DNS_ORG');
  const ctx = await createContext(config, { serving: true });
  const { forwarder, timers, flush } = await startOrClose(ctx, async (opened) => {
    const org = await ctx.orgs.getOrg(orgId);
    if (!org) throw new ConfigError(`organization ${orgId} does not exist (--org or PARAPET_DNS_ORG)`);
    const pending = new Map<string, number>();
    const forwarder = createDnsForwarder({
      host: config.host,
      port: config.dnsPort,
      blockAddress: config.dnsBlockAddress,
      upstreamTimeoutMs: config.dnsUpstreamTimeoutMs,
      onBlocked: (base) => pending.set(base, (pending.get(base) ?? 0) + 1),
      onError: (err) => ctx.logger.warn({ err }, 'dns socket error'),
    });
    let version = -1;
    const reload = async () => {
      const st = await ctx.endpoint.state.get(orgId);
      if (st.version !== version) {
        version = st.version;
        forwarder.setConfig(st.dns);
        ctx.logger.info({ version, blocked: st.dns?.blockedDomains.length ?? 0 }, 'dns configuration loaded');
      }
    };
    const flush = async () => {
      if (pending.size === 0) return;
      const hour = ctx.clock.now().toISOString().slice(0, 13);
      const deltas = [...pending].map(([domain, n]) => ({
        sourceId: DNS_SOURCE,
        hour,
        domain,
        interactions: 0,
        unapproved: n,
        dlp: 0,
        policy: 0,
      }));
      pending.clear();
      await ctx.endpoint.activity.addExternalStats(orgId, deltas);
    };
    await reload();
    opened(() => forwarder.close());
    const { port } = await listenOrExplain(() => forwarder.start(), {
      host: config.host,
      port: config.dnsPort,
      portVariable: 'PARAPET_DNS_PORT',
    });
    const quietly = (fn: () => Promise<void>, what: string) => () =>
      void fn().catch((err: unknown) => ctx.logger.warn({ err }, `${what} failed; it runs again`));
    const timers = [
      setInterval(quietly(reload, 'dns configuration reload'), RELOAD_MS),
      setInterval(quietly(flush, 'dns statistics flush'), FLUSH_MS),
    ];
    out(
      `Parapet DNS forwarder listening on ${config.host}:${port} (UDP and TCP) for organization ${orgId}\n`,
    );
    return { forwarder, timers, flush };
  });
  stopOnSignals(async () => {
    for (const t of timers) clearInterval(t);
    await forwarder.close();
    await flush();
    await ctx.close();
  }, 5_000);
}
