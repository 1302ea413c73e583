import { checkCode, INVALID_CODE, serverOrigin } from '../shared/enrollment.js';
import { DEFAULT_CONFIG } from '../shared/policy.js';
import { ApiError, raw } from './api.js';
import { applyPolicy } from './local.js';
import { type State, read, update } from './store.js';
import { MANAGED_REFUSAL, managedEnrollmentSet } from './unenroll.js';

// Enrolling the device (by hand from the options page, or from the managed configuration), the guard of a
// device its organization's deployment enrolls, and the start-up that restores the policy before the
// managed enrollment. The config fetch and the first heartbeat that follow an enrollment are the worker's
// (index.ts).

export function platformInfo(): { os: string; browser: string } {
  const ua = navigator.userAgent;
  const browser = /Edg\/([\d.]+)/.exec(ua)
    ? `Edge ${/Edg\/([\d.]+)/.exec(ua)![1]}`
    : /Firefox\/([\d.]+)/.exec(ua)
      ? `Firefox ${/Firefox\/([\d.]+)/.exec(ua)![1]}`
      : `Chromium ${/Chrom(?:e|ium)\/([\d.]+)/.exec(ua)?.[1] ?? ''}`.trim();
  const os = /Windows/.test(ua)
    ? 'Windows'
    : /Mac OS X/.test(ua)
      ? 'macOS'
      : /Linux/.test(ua)
        ? 'Linux'
        : 'other';
  return { os, browser };
}

/**
 * Enrollment by hand (the options page): refused wherever the organization's deployment enrolls the device
 * (managed configuration with a server and a code), whether or not it holds a token now. Holding none there
 * is a managed enrollment still to come (the server was out of reach at start, a revocation just reset the
 * device): a hand enrollment then would put the device in whatever organization the person chose, and the
 * managed one, which enrolls only a device without a token, would never take it back.
 */
export async function enrollByHand(serverUrl: string, code: string, name?: string): Promise<void> {
  if (await managedEnrollmentSet()) throw new Error(MANAGED_REFUSAL);
  await enroll(serverUrl, code, name);
}

/** The enrollment that lost a race to another one (a second options page, the managed configuration). */
export const ENROLLED_MEANWHILE =
  'Another enrollment of this device (another options page, or the deployment) finished first and stays: this one was withdrawn.';

export async function enroll(serverUrl: string, code: string, name?: string): Promise<void> {
  // The options page checks the address and the code too; a managed configuration reaches here unchecked.
  const base = serverOrigin(serverUrl);
  const { os, browser } = platformInfo();
  const previous = await read();
  // On the same server the enrollment itself retires the one it replaces (when both are of one
  // organization), in its own transaction: enrolling again then needs no free seat of the licence.
  const replacing = previous.deviceToken && previous.serverUrl === base ? previous.deviceToken : undefined;
  let res: Awaited<ReturnType<typeof raw>>;
  try {
    res = await raw(base, '/api/v1/endpoint/enroll', {
      body: {
        code: checkCode(code),
        name: name || `${browser} on ${os}`,
        os,
        browser,
        extensionVersion: chrome.runtime.getManifest().version,
        ...(replacing ? { previousDeviceToken: replacing } : {}),
      },
    });
  } catch (err) {
    // A code the server's schema refuses is a wrong code to the person typing it, not a body field.
    if (err instanceof ApiError && err.status === 400) throw new Error(INVALID_CODE);
    throw err;
  }
  const b = res.body as {
    deviceId: string;
    deviceToken: string;
    organizationId: string;
    heartbeatIntervalSeconds: number;
    replacedDeviceId?: string;
  };
  const retired =
    b.replacedDeviceId !== undefined && b.replacedDeviceId === previous.deviceId
      ? undefined
      : await retirePrevious(previous, { serverUrl: base, ...b });
  // Written only over the enrollment read at the start (compare-and-set on its token): another enrollment
  // that landed meanwhile stays, as last-writer-wins would leave its device active on the server with no
  // browser behind it. A token dropped meanwhile (a revocation's reset, an unenroll of the previous one)
  // concerns the previous enrollment only, and this one is written.
  let winner: State | undefined;
  await update((cur) => {
    if (cur.deviceToken !== undefined && cur.deviceToken !== previous.deviceToken) {
      winner = cur;
      return {};
    }
    return {
      // Counters of another organization (unsent when the device unenrolled) are not this one's.
      ...(cur.enrolledOrg !== undefined && cur.enrolledOrg !== b.organizationId ? { stats: undefined } : {}),
      enrolledOrg: b.organizationId,
      serverUrl: base,
      deviceId: b.deviceId,
      deviceToken: b.deviceToken,
      organizationId: b.organizationId,
      heartbeatIntervalSeconds: b.heartbeatIntervalSeconds,
      configVersion: undefined,
      etag: undefined,
      lastError: retired,
    };
  });
  if (winner) throw new Error(await withdraw({ serverUrl: base, ...b }, winner));
}

/**
 * The device an enrollment created and then lost to another one is retired on the server with its own
 * token (reason `replaced` naming the winner when both are of one organization on one server, else `user`),
 * so it holds no seat. Answers the caller's message; one the server could not be told of says so.
 */
async function withdraw(
  lost: { serverUrl: string; deviceId: string; deviceToken: string; organizationId: string },
  winner: State,
): Promise<string> {
  const sameOrg = winner.serverUrl === lost.serverUrl && winner.organizationId === lost.organizationId;
  try {
    await raw(lost.serverUrl, '/api/v1/endpoint/unenroll', {
      token: lost.deviceToken,
      body:
        sameOrg && winner.deviceId ? { reason: 'replaced', replacedBy: winner.deviceId } : { reason: 'user' },
      keepOnReenroll: true,
    });
    return ENROLLED_MEANWHILE;
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 404)) return ENROLLED_MEANWHILE;
    return `${ENROLLED_MEANWHILE} The server could not be told (device ${lost.deviceId} stays listed until an administrator removes it): ${err instanceof Error ? err.message : err}`;
  }
}

/**
 * Enrolling again replaces the device: unless the enrollment retired it already (above), the server is told
 * the previous one is gone (unenroll, reason `replaced`, naming the new device when both are of one
 * organization on one server), so it stops counting as an active device and a seat. Done once the new enrollment has succeeded: a failed one keeps the
 * device as it was. A server that cannot be reached is not retried (the old device then only turns
 * offline): the message, for the popup's last error, says so.
 */
async function retirePrevious(
  previous: State,
  next: { serverUrl: string; deviceId: string; organizationId: string },
): Promise<string | undefined> {
  if (!previous.deviceToken || !previous.serverUrl) return undefined;
  const sameOrg = previous.serverUrl === next.serverUrl && previous.organizationId === next.organizationId;
  try {
    await raw(previous.serverUrl, '/api/v1/endpoint/unenroll', {
      token: previous.deviceToken,
      body: { reason: 'replaced', ...(sameOrg ? { replacedBy: next.deviceId } : {}) },
      keepOnReenroll: true,
    });
    return undefined;
  } catch (err) {
    // 401/404: the previous device is already revoked; nothing left to retire.
    if (err instanceof ApiError && (err.status === 401 || err.status === 404)) return undefined;
    return `the previous enrollment (${previous.deviceId ?? 'device'}) could not be retired: ${err instanceof Error ? err.message : err}`;
  }
}

/**
 * Start-up (install, browser start): the policy held is applied again, then `enrollManaged` runs.
 * Registered scripts persist across sessions; this puts them in step after an update of the extension.
 * Read and applied in one update, so an enrollment or a reset meanwhile is not undone with older rules.
 */
export async function startUp(enrollManaged: () => Promise<void>): Promise<void> {
  // A refusal of the block rules (a quota, a browser error) is the popup's last error; it must not stop
  // the managed enrollment that follows, or a deployed device would start unenrolled until the next event.
  await update((cur) => applyPolicy(cur.config ?? DEFAULT_CONFIG, cur.serverUrl)).catch(async (err) => {
    await update(() => ({ lastError: `block rules: ${err instanceof Error ? err.message : err}` }));
  });
  await enrollManaged();
}
