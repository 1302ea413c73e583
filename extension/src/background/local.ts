import { DEFAULT_CONFIG, type EndpointConfig } from '../shared/policy.js';
import { syncAiSiteScripts } from './ai-sites.js';
import { applyRules } from './dnr.js';
import { type State, update } from './store.js';

// The way back to the built-in local state (protection with default settings, nothing blocked, no force
// mode, the shipped catalog's sites), taken when the user unenrolls and when the server says the device
// token is gone (revoked in the dashboard, rotated elsewhere: 401 with reenroll). One function for both, so a
// revoked device does not keep enforcing an organization's policy it no longer belongs to.

/**
 * Puts the block rules and the AI-site scripts in step with `config`. Called inside the store's update
 * that writes the state `config` belongs to, before the write: applied after that update, a write landing
 * in between (another enrollment, a reset) had its rules replaced by those of the state it replaced. A
 * failure of the site scripts is answered as the popup's last error, for the caller to write with its
 * state (a write from here would wait for the update it runs in); the block rules' failure is thrown, and
 * the state is then not written either.
 */
export async function applyPolicy(
  config: EndpointConfig,
  serverUrl: string | undefined,
): Promise<Partial<State>> {
  await applyRules(config, serverUrl);
  return syncAiSiteScripts(config).then(
    () => ({}),
    (err) => ({ lastError: `site scripts: ${err instanceof Error ? err.message : err}` }),
  );
}

/**
 * Drops the enrollment (token, device, organization) and the organization's config, and puts the block
 * rules and the AI-site scripts back to the built-in ones in the same update. `extra` is set in the same
 * write (the reason shown in the popup). The server address, the queue and the counters stay: they belong
 * to the organization and reach it if the device enrolls there again (docs/extension.md, "Uploads"). With
 * `only.ifToken`, nothing is reset unless that is still the device's token (undefined: unless the device
 * still holds none); answers whether it reset.
 */
export async function resetToLocal(
  extra: Partial<State> = {},
  only?: { ifToken: string | undefined },
): Promise<boolean> {
  let reset = true;
  await update(async (s) => {
    // A refusal of a token the device no longer holds says nothing of the enrollment it holds now: a
    // request sent with the previous token (an upload in flight while the device enrolled again, whose
    // enrollment retired that token) must not drop the new enrollment.
    if (only && s.deviceToken !== only.ifToken) {
      reset = false;
      return {};
    }
    const failed = await applyPolicy(DEFAULT_CONFIG, undefined);
    return {
      deviceToken: undefined,
      deviceId: undefined,
      organizationId: undefined,
      config: undefined,
      configVersion: undefined,
      etag: undefined,
      forceMode: undefined,
      ...extra,
      ...failed,
    };
  });
  return reset;
}
