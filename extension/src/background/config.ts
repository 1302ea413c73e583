import type { EndpointConfig } from '../shared/policy.js';
import { call } from './api.js';
import { applyRules } from './dnr.js';
import { applySites } from './local.js';
import { read, update } from './store.js';

// The organization's config (policy, catalog decisions, settings): fetched at enrollment, on the options
// page's sync and whenever a heartbeat's config version or force mode differs from the one held.

/** Fetches the config (If-None-Match with the ETag held) and applies it; answers it, or undefined on 304. */
export async function fetchConfig(): Promise<EndpointConfig | undefined> {
  const s = await read();
  const res = await call('/api/v1/endpoint/config', { headers: s.etag ? { 'if-none-match': s.etag } : {} });
  if (res.status === 304) return undefined;
  const config = res.body as EndpointConfig;
  await update(() => ({
    config,
    configVersion: config.configVersion,
    etag: res.headers.get('etag') ?? undefined,
    forceMode: config.forceMode?.enabled ?? false,
    ...(config.settings?.heartbeatIntervalSeconds
      ? { heartbeatIntervalSeconds: config.settings.heartbeatIntervalSeconds }
      : {}),
  }));
  await applyRules(config, s.serverUrl);
  await applySites(config);
  return config;
}
