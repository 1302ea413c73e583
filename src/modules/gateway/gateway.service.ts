import type { Clock } from '../../platform/clock/index.js';
import type { Compute } from '../../platform/compute/index.js';
import type { Sealer } from '../../platform/crypto/index.js';
import type { Db } from '../../platform/storage/index.js';
import type { Vault } from '../dlp/index.js';
import { createProtection } from '../protection/index.js';
import type { LimitsService } from '../limits/index.js';
import type { AddressPolicy } from '../../platform/net/index.js';
import {
  createProviders,
  type ProviderId,
  type Providers,
  useProviderAddressPolicy,
} from '../providers/index.js';
import { createChatService, type GatewayPublish } from './chat.service.js';
import { createForceService, type ForcePublish } from './force.service.js';
import { createProviderKeysService, type ProviderKeyPublish } from './provider-keys.service.js';
import { createProxyService } from './proxy.service.js';
import { createUsageRecorder } from './usage.recorder.js';

export interface GatewayDeps {
  db: Db;
  clock: Clock;
  sealer: Sealer;
  vault: Vault;
  limits: LimitsService;
  /** Base URL overrides per provider (config.providerBaseUrls). */
  providerBaseUrls?: Record<string, string>;
  /** Supply adapters directly (tests); otherwise built from providerBaseUrls. */
  providers?: Providers;
  publish: GatewayPublish & ForcePublish & ProviderKeyPublish;
  idleTimeoutMs?: number;
  /** Outbound address policy of every provider connection (organizations supply base URLs). */
  addressPolicy?: AddressPolicy;
  /** Whether private targets are allowed: decides which organization base URLs are accepted. */
  allowPrivateTargets?: boolean;
  /** Runs detection and the DLP pass (large texts in a worker thread under a time budget). */
  compute?: Compute;
  /**
   * Called in the transaction that switches force mode: device configs carry the switch, so the endpoint
   * module bumps its config version there and heartbeats tell every device to fetch the new config.
   */
  onForceSwitch?: (trx: Db, orgId: string) => Promise<unknown>;
}

/** Everything the gateway routes need, built once per process. */
export function createGateway(deps: GatewayDeps) {
  if (deps.addressPolicy) useProviderAddressPolicy(deps.addressPolicy);
  const providers =
    deps.providers ??
    createProviders({ baseUrls: (deps.providerBaseUrls ?? {}) as Partial<Record<ProviderId, string>> });
  const usage = createUsageRecorder({ db: deps.db, clock: deps.clock });
  const force = createForceService({
    db: deps.db,
    clock: deps.clock,
    publish: deps.publish,
    ...(deps.onForceSwitch ? { onSwitch: deps.onForceSwitch } : {}),
  });
  const keys = createProviderKeysService({
    db: deps.db,
    sealer: deps.sealer,
    clock: deps.clock,
    allowPrivateTargets: deps.allowPrivateTargets ?? false,
    publish: deps.publish,
  });
  const protection = createProtection({
    db: deps.db,
    vault: deps.vault,
    publish: deps.publish,
    ...(deps.compute ? { compute: deps.compute } : {}),
  });
  const common = {
    protection,
    providers,
    usage,
    ...(deps.idleTimeoutMs !== undefined ? { idleTimeoutMs: deps.idleTimeoutMs } : {}),
    ...(deps.compute ? { compute: deps.compute } : {}),
  };
  const chat = createChatService({
    ...common,
    db: deps.db,
    vault: deps.vault,
    clock: deps.clock,
    keys,
    limits: deps.limits,
  });
  const proxy = createProxyService({ ...common, force });
  return {
    chat,
    proxy,
    protection,
    force,
    keys,
    usage,
    providers,
    async close(): Promise<void> {
      await usage.close();
    },
  };
}

export type Gateway = ReturnType<typeof createGateway>;
