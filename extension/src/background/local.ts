import { DEFAULT_CONFIG, type EndpointConfig } from '../shared/policy.js';
import { syncAiSiteScripts } from './ai-sites.js';
import { applyRules } from './dnr.js';
import { type State, update } from './store.js';

// The way back to the built-in local state (protection with default settings, nothing blocked, no force
// mode, the shipped catalog's sites), taken when the user unenrolls and when the server says the device
// token is gone (revoked in the dashboard, rotated elsewhere: 401 with reenroll). One function for both, so a
// revoked device does not keep enforcing an organization's policy it no longer belongs to.

/** The content scripts follow the config's AI sites; a failure is shown in the popup, not thrown. */
export async function applySites(config: EndpointConfig): Promise<void> {
  await syncAiSiteScripts(config).catch(async (err) => {
    await update(() => ({ lastError: `site scripts: ${err instanceof Error ? err.message : err}` }));
  });
}

/**
 * Drops the enrollment (token, device, organization) and the organization's config, then puts the block
 * rules and the AI-site scripts back to the built-in ones. `extra` is set in the same write (the reason
 * shown in the popup). The server address, the queue and the counters stay: they belong to the
 * organization and reach it if the device enrolls there again (docs/extension.md, "Uploads"). With
 * `only.ifToken`, nothing is reset unless that is still the device's token; answers whether it reset.
 */
export async function resetToLocal(extra: Partial<State> = {}, only?: { ifToken: string }): Promise<boolean> {
  let reset = true;
  await update((s) => {
    // A refusal of a token the device no longer holds says nothing of the enrollment it holds now: a
    // request sent with the previous token (an upload in flight while the device enrolled again, whose
    // enrollment retired that token) must not drop the new enrollment.
    if (only && s.deviceToken !== only.ifToken) {
      reset = false;
      return {};
    }
    return {
      deviceToken: undefined,
      deviceId: undefined,
      organizationId: undefined,
      config: undefined,
      configVersion: undefined,
      etag: undefined,
      forceMode: undefined,
      ...extra,
    };
  });
  if (!reset) return false;
  await applyRules(DEFAULT_CONFIG, undefined);
  await applySites(DEFAULT_CONFIG);
  return true;
}
