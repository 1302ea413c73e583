import type { Clock } from '../../platform/clock/index.js';
import { AppError } from '../../platform/errors/index.js';
import type { VerifierRepo } from './verifier.repo.js';

/** How long verification goes on after the licence expired or was revoked: time to renew, not to notice. */
export const LICENCE_GRACE_MS = 7 * 24 * 60 * 60 * 1000;
const CHECK_EVERY_MS = 6 * 60 * 60 * 1000;
const SETTING = 'licence_state';

export interface LicenceState {
  status: 'valid' | 'expired' | 'revoked' | 'invalid' | 'unchecked';
  expiresAt: string | null;
  /** When the cloud first said it is no longer valid: the grace period counts from here. */
  invalidSince: string | null;
  checkedAt: string | null;
}

export interface LicenceGate {
  /** Throws 403 forbidden once the licence is expired or revoked and the grace period is over. */
  assertUsable(): void;
  /** Asks the cloud (through the tunnel) about the licence; the answer is kept in the store. */
  check(): Promise<LicenceState>;
  state(): LicenceState;
  startChecks(onError: (err: unknown) => void): { stop(): void };
}

export interface LicenceGateOptions {
  repo: VerifierRepo;
  clock: Clock;
  /** Empty: no licence configured, the verifier runs without the cloud and without checks. */
  licenceKey: string;
  tunnelBase: () => string | null;
  fetch?: typeof fetch;
}

/**
 * The licence key is HMAC-signed by the cloud, which alone holds the secret; so the verifier does not
 * verify it locally but asks the cloud's /api/v1/license/validate through the tunnel, sending the licence
 * key and nothing else. The last answer is stored, so a restart does not reset the grace period.
 */
export async function createLicenceGate(opts: LicenceGateOptions): Promise<LicenceGate> {
  const doFetch = opts.fetch ?? fetch;
  const stored = await opts.repo.getSetting(SETTING);
  let current: LicenceState = stored
    ? (JSON.parse(stored) as LicenceState)
    : { status: 'unchecked', expiresAt: null, invalidSince: null, checkedAt: null };

  const graceOver = (since: string | null): boolean =>
    since !== null && opts.clock.now().getTime() - new Date(since).getTime() > LICENCE_GRACE_MS;

  const gate: LicenceGate = {
    assertUsable() {
      if (!opts.licenceKey) return;
      const expiredLocally = current.expiresAt !== null && graceOver(current.expiresAt);
      if (
        (current.status !== 'valid' && current.status !== 'unchecked' && graceOver(current.invalidSince)) ||
        expiredLocally
      )
        throw new AppError(
          'forbidden',
          `The verifier's licence is ${current.status === 'valid' ? 'expired' : current.status} and its ${LICENCE_GRACE_MS / 86_400_000}-day grace period is over: verification is stopped until a valid licence is installed (PARAPET_VERIFIER_LICENSE).`,
        );
    },
    async check() {
      if (!opts.licenceKey) return current;
      const base = opts.tunnelBase();
      if (!base) throw new Error('no cloud tunnel: run `parapet verifier register` first');
      const res = await doFetch(`${base}/api/v1/license/validate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ licenseKey: opts.licenceKey }),
        signal: AbortSignal.timeout(30_000),
      });
      // Only an answer about the licence changes its state: a refused request (400, 429) or a server error
      // says nothing about it, and must not start the grace period.
      if (res.status !== 200) throw new Error(`licence check answered HTTP ${res.status}`);
      const body = (await res.json().catch(() => ({}))) as {
        valid?: boolean;
        reason?: string;
        license?: { expiresAt?: string; status?: string } | null;
      };
      const now = opts.clock.now().toISOString();
      const status: LicenceState['status'] =
        body.valid === true
          ? 'valid'
          : body.reason === 'revoked'
            ? 'revoked'
            : body.reason === 'expired'
              ? 'expired'
              : 'invalid';
      current = {
        status,
        expiresAt: typeof body.license?.expiresAt === 'string' ? body.license.expiresAt : null,
        invalidSince: status === 'valid' ? null : (current.invalidSince ?? now),
        checkedAt: now,
      };
      await opts.repo.setSetting(SETTING, JSON.stringify(current), now);
      return current;
    },
    state: () => current,
    startChecks(onError) {
      if (!opts.licenceKey) return { stop() {} };
      const run = () => void gate.check().catch(onError);
      run();
      const timer = setInterval(run, CHECK_EVERY_MS);
      timer.unref();
      return { stop: () => clearInterval(timer) };
    },
  };
  return gate;
}
