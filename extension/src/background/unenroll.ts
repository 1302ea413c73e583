import { ApiError, raw } from './api.js';
import { resetToLocal } from './local.js';
import { read } from './store.js';

// Leaving the organization by hand, and the guard of a device its organization's deployment enrolled.

export const MANAGED_REFUSAL =
  "This device was enrolled by your organization's deployment: only an administrator can remove or change its enrollment.";

interface Managed {
  serverUrl?: string;
  enrollmentCode?: string;
  deviceName?: string;
}

/** The managed configuration (enterprise policy); empty where the extension was not deployed by policy. */
export async function managedConfig(): Promise<Managed> {
  try {
    return (await chrome.storage.managed.get(null)) as Managed;
  } catch {
    return {}; // no managed storage (not deployed by policy)
  }
}

/** Whether the device was enrolled by the organization's deployment (managed storage), not by hand. */
export async function managedEnrollmentSet(): Promise<boolean> {
  const m = await managedConfig();
  return Boolean(m.serverUrl && m.enrollmentCode);
}

/** The device enrolled again while the server was told it leaves: that answer is for the previous token. */
export const ENROLLED_AGAIN =
  'Still enrolled: the device enrolled again while it was leaving, and the new enrollment stays. Forget it too to leave that organization.';

/**
 * Leaving the organization's policy (the options page's "Forget this enrollment", after a confirmation).
 * Refused on a device deployed by policy: it would enroll itself again anyway, and only an administrator
 * removes it. Otherwise the server is told first (unenroll, reason `user`: the device is revoked and an
 * `audit.endpoint_device` event with action `unenrolled` reaches the administrators), and the policy is
 * dropped only once it has answered. A server out of reach or refusing (a 5xx, a 429, a 403) keeps the
 * device enrolled with the message why: dropping the policy silently is what an employee evading it would
 * want, and a notice queued for later would never leave a device kept offline. A 403 is the organization's
 * refusal (users may not unenroll there) and shows its message. 401 with reenroll (already revoked) and 404
 * (the device is gone) end the enrollment as well.
 */
export async function unenroll(): Promise<void> {
  const s = await read();
  const token = s.deviceToken;
  if (token) {
    if (await managedEnrollmentSet()) throw new Error(MANAGED_REFUSAL);
    try {
      if (!s.serverUrl) throw new ApiError(401, { message: 'not enrolled' });
      // keepOnReenroll: a 401 is handled here with the other answers, as an answer for the token sent.
      await raw(s.serverUrl, '/api/v1/endpoint/unenroll', {
        token,
        body: { reason: 'user' },
        keepOnReenroll: true,
      });
    } catch (err) {
      const gone =
        err instanceof ApiError && ((err.status === 401 && err.body?.reenroll) || err.status === 404);
      if (!gone) throw stillEnrolled(err);
    }
  }
  // Every answer above is about `token`: an enrollment made while the request was out (or, with no token,
  // since the state was read) is not the one the person chose to leave, and a server that revoked or no
  // longer knows the previous token says nothing of it.
  if (!(await resetToLocal({}, { ifToken: token }))) throw new Error(ENROLLED_AGAIN);
}

function stillEnrolled(err: unknown): Error {
  // The organization refuses (its allowUserUnenroll setting is off): its own words, which say whom to ask,
  // not a hint to try again once the server can be reached.
  if (err instanceof ApiError && err.status === 403 && err.body?.message) {
    return new Error(`Still enrolled: ${err.body.message}`);
  }
  const why = err instanceof Error ? err.message : String(err);
  return new Error(
    `Still enrolled: the server must be told before this device leaves the organization's policy (${why}). Try again when the server can be reached.`,
  );
}
