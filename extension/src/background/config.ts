import type { EndpointConfig } from '../shared/policy.js';
import { call } from './api.js';
import { applyPolicy } from './local.js';
import { read, update } from './store.js';

// The organization's config (policy, catalog decisions, settings): fetched at enrollment, on the options
// page's sync and whenever a heartbeat's config version or force mode differs from the one held.

/**
 * Fetches the config (If-None-Match with the ETag held) and applies it; answers it, or undefined on 304 and
 * when the device enrolled again while the request was out (the answer is the previous enrollment's: its
 * organization's policy must not replace the new one's).
 */
export async function fetchConfig(): Promise<EndpointConfig | undefined> {
  const s = await read();
  const res = await call('/api/v1/endpoint/config', { headers: s.etag ? { 'if-none-match': s.etag } : {} });
  if (res.status === 304) return undefined;
  const config = res.body as EndpointConfig;
  let current = true;
  await update(async (cur) => {
    // Checked in the same update as the write, so no enrollment lands between the check and the write.
    if (cur.deviceToken !== res.token) {
      current = false;
      return {};
    }
    const failed = await applyPolicy(config, cur.serverUrl);
    return {
      config,
      configVersion: config.configVersion,
      etag: res.headers.get('etag') ?? undefined,
      forceMode: config.forceMode?.enabled ?? false,
      ...(config.settings?.heartbeatIntervalSeconds
        ? { heartbeatIntervalSeconds: config.settings.heartbeatIntervalSeconds }
        : {}),
      ...failed,
    };
  });
  return current ? config : undefined;
}
