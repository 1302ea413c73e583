import type { Clock } from '../../platform/clock/index.js';
import { newId, randomBase62, sha256Hex } from '../../platform/crypto/index.js';
import type { Db } from '../../platform/storage/index.js';

/**
 * Device tokens: the credential of one enrolled device (browser extension, MDM agent). Their own prefix
 * (`dt_live_`), so a token pasted in the wrong place is recognisable and never taken for an API key; stored
 * as SHA-256 hashes only and shown once. A rotation revokes the old token and issues a new one in the same
 * transaction; revoking a device revokes all its tokens.
 */
export const DEVICE_TOKEN_PREFIX = 'dt_live_';
const SECRET_CHARS = 43;
const TOKEN_FORMAT = /^dt_live_[0-9A-Za-z]{43}$/;
const VISIBLE_PREFIX_CHARS = 12;
const CACHE_MS = 5_000;

export interface DeviceIdentity {
  tokenId: string;
  orgId: string;
  deviceId: string;
}

export function isDeviceTokenShape(secret: string): boolean {
  return secret.startsWith(DEVICE_TOKEN_PREFIX);
}

export function createDeviceTokens(deps: { db: Db; clock: Clock }) {
  const cache = new Map<string, { id: DeviceIdentity | null; until: number }>();

  return {
    /** Whether a secret has the device token prefix (so a caller knows which verifier to ask). */
    owns: isDeviceTokenShape,

    /** Issues a token for a device inside the caller's transaction; the secret is returned once. */
    async issue(trx: Db, orgId: string, deviceId: string): Promise<{ tokenId: string; secret: string }> {
      const secret = `${DEVICE_TOKEN_PREFIX}${randomBase62(SECRET_CHARS)}`;
      const tokenId = newId('dtk');
      await trx
        .insertInto('device_tokens')
        .values({
          id: tokenId,
          org_id: orgId,
          device_id: deviceId,
          prefix: secret.slice(0, VISIBLE_PREFIX_CHARS),
          hash: sha256Hex(secret),
          created_at: deps.clock.now().toISOString(),
          revoked_at: null,
        })
        .execute();
      return { tokenId, secret };
    },

    /** Revokes every live token of a device (device revoked, or rotation); returns how many. */
    async revokeDevice(trx: Db, orgId: string, deviceId: string): Promise<number> {
      const r = await trx
        .updateTable('device_tokens')
        .set({ revoked_at: deps.clock.now().toISOString() })
        .where('org_id', '=', orgId)
        .where('device_id', '=', deviceId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      cache.clear();
      return Number(r.numUpdatedRows);
    },

    /**
     * The device a secret stands for if the token is live, read in the caller's transaction and never from
     * the cache: a token whose device is being retired in that transaction must be judged as stored.
     */
    async liveIn(trx: Db, secret: string): Promise<DeviceIdentity | null> {
      if (!TOKEN_FORMAT.test(secret)) return null;
      const row = await trx
        .selectFrom('device_tokens')
        .select(['id', 'org_id', 'device_id'])
        .where('hash', '=', sha256Hex(secret))
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return row ? { tokenId: row.id, orgId: row.org_id, deviceId: row.device_id } : null;
    },

    /**
     * The device a secret stands for, if the token is live; null otherwise. Cached a few seconds per
     * process like API keys: heartbeats of thousands of devices cost one hash and a map lookup each, and a
     * revocation made on another server takes effect within CACHE_MS.
     */
    async verify(secret: string): Promise<DeviceIdentity | null> {
      if (!TOKEN_FORMAT.test(secret)) return null;
      const hash = sha256Hex(secret);
      const now = deps.clock.now().getTime();
      const hit = cache.get(hash);
      if (hit && hit.until > now) return hit.id;
      const row = await deps.db
        .selectFrom('device_tokens')
        .select(['id', 'org_id', 'device_id', 'revoked_at'])
        .where('hash', '=', hash)
        .executeTakeFirst();
      const id =
        row && !row.revoked_at ? { tokenId: row.id, orgId: row.org_id, deviceId: row.device_id } : null;
      if (cache.size > 50_000) cache.clear();
      cache.set(hash, { id, until: now + CACHE_MS });
      return id;
    },
  };
}

export type DeviceTokens = ReturnType<typeof createDeviceTokens>;
