import type { Clock } from '../../platform/clock/index.js';
import { newId, randomBase62, sha256Hex } from '../../platform/crypto/index.js';
import { AppError } from '../../platform/errors/index.js';
import type { Db } from '../../platform/storage/index.js';
import { createKeysRepo, type KeyRow } from './keys.repo.js';

export const KEY_KINDS = ['al', 'sw'] as const;
export type KeyKind = (typeof KEY_KINDS)[number];
/**
 * What a key may do besides calling the products of its kind: `products` keys call products only; `admin`
 * keys also manage the organization's integrations by API, as an admin of the dashboard may (docs/auth.md).
 */
export const KEY_SCOPES = ['products', 'admin'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/** 43 base62 characters carry 256 bits, above the 32 random bytes the design asks for. */
const SECRET_CHARS = 43;
const KEY_FORMAT = /^(al|sw)_live_[0-9A-Za-z]{43}$/;
// Anywhere in a text (a header value, "Bearer <key>"): a service key or device token, by its prefix and length.
const SECRET_INSIDE = /(?:^|[^0-9A-Za-z_])(?:al|sw|dt)_live_[0-9A-Za-z]{43}(?![0-9A-Za-z])/;

/**
 * Whether a text holds one of this service's own secrets (an API key or a device token): what a transport
 * that passes a client's headers on to a third party must never send (the network proxy refuses it).
 */
export function holdsServiceSecret(text: string): boolean {
  return text.includes('_live_') && SECRET_INSIDE.test(text);
}
const VISIBLE_PREFIX_CHARS = 12;

export interface ApiKey {
  id: string;
  orgId: string;
  kind: KeyKind;
  scope: KeyScope;
  name: string;
  prefix: string;
  createdBy: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  status: 'active' | 'revoked' | 'expired';
}

export type KeyEventFn = (
  db: Db,
  orgId: string,
  type: 'api_key.created' | 'api_key.revoked',
  data: Record<string, unknown>,
) => Promise<unknown>;

function toApiKey(row: KeyRow, now: string): ApiKey {
  const status = row.revoked_at ? 'revoked' : row.expires_at && row.expires_at <= now ? 'expired' : 'active';
  return {
    id: row.id,
    orgId: row.org_id,
    kind: row.kind as KeyKind,
    scope: row.scope === 'admin' ? 'admin' : 'products',
    name: row.name,
    prefix: row.prefix,
    createdBy: row.created_by,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    status,
  };
}

const CACHE_MS = 5_000;
const TOUCH_EVERY_MS = 60_000;

/**
 * Keys are stored only as SHA-256 hashes. Verified keys are cached for a few seconds in this process, so
 * the hot path does one hash and a map lookup; a revocation made elsewhere takes effect within CACHE_MS.
 */
export function createKeysService(deps: { db: Db; clock: Clock; emit: KeyEventFn }) {
  const { db, clock } = deps;
  const repo = createKeysRepo(db);
  const cache = new Map<string, { row: KeyRow | null; until: number }>();
  const touched = new Map<string, number>();

  /** Revokes one key in `trx` with its `api_key.revoked` event; false when it was revoked already. */
  async function revokeIn(
    trx: Db,
    key: KeyRow,
    at: string,
    why: { revokedBy: string | null; reason?: string },
  ): Promise<boolean> {
    if (!(await createKeysRepo(trx).revoke(key.org_id, key.id, at))) return false;
    await deps.emit(trx, key.org_id, 'api_key.revoked', {
      keyId: key.id,
      name: key.name,
      prefix: key.prefix,
      ...why,
    });
    return true;
  }

  return {
    async create(input: {
      orgId: string;
      kind: KeyKind;
      name: string;
      scope?: KeyScope;
      expiresAt?: string | null;
      createdBy?: string | null;
    }): Promise<{ key: ApiKey; secret: string }> {
      const now = clock.now().toISOString();
      if (input.expiresAt && input.expiresAt <= now) {
        throw new AppError('invalid_request', 'The expiry date must be in the future.');
      }
      const secret = `${input.kind}_live_${randomBase62(SECRET_CHARS)}`;
      const row: KeyRow = {
        id: newId('key'),
        org_id: input.orgId,
        kind: input.kind,
        name: input.name.trim() || 'API key',
        prefix: secret.slice(0, VISIBLE_PREFIX_CHARS),
        hash: sha256Hex(secret),
        created_by: input.createdBy ?? null,
        created_at: now,
        last_used_at: null,
        expires_at: input.expiresAt ?? null,
        revoked_at: null,
        scope: input.scope ?? 'products',
      };
      await db.transaction().execute(async (trx) => {
        await createKeysRepo(trx).insert(row);
        await deps.emit(trx, input.orgId, 'api_key.created', {
          keyId: row.id,
          name: row.name,
          kind: row.kind,
          scope: row.scope,
          prefix: row.prefix,
          createdBy: row.created_by,
        });
      });
      return { key: toApiKey(row, now), secret };
    },

    async list(orgId: string): Promise<ApiKey[]> {
      const now = clock.now().toISOString();
      return (await repo.list(orgId)).map((r) => toApiKey(r, now));
    },

    async get(orgId: string, id: string): Promise<ApiKey | undefined> {
      const row = await repo.get(orgId, id);
      return row && toApiKey(row, clock.now().toISOString());
    },

    async revoke(orgId: string, id: string, by: string | null): Promise<ApiKey> {
      const now = clock.now().toISOString();
      const row = await db.transaction().execute(async (trx) => {
        const r = createKeysRepo(trx);
        const existing = await r.get(orgId, id);
        if (!existing) return undefined;
        await revokeIn(trx, existing, now, { revokedBy: by });
        return (await r.get(orgId, id)) ?? existing;
      });
      if (!row) throw new AppError('not_found', 'API key was not found.');
      cache.delete(row.hash);
      return toApiKey(row, now);
    },

    /**
     * Revokes, inside the caller's transaction, the admin-scope keys a user created: such a key stands for an
     * admin (docs/auth.md), so it must not outlive its creator's admin role (a demotion to member or viewer,
     * or the removal of the user). Each revocation is an `api_key.revoked` event. Returns a function to call
     * once the transaction has committed, which drops the keys from this process's cache.
     */
    async revokeAdminKeysBy(trx: Db, orgId: string, userId: string, by: string | null): Promise<() => void> {
      const r = createKeysRepo(trx);
      const now = clock.now().toISOString();
      const hashes: string[] = [];
      for (const key of await r.activeAdminKeysBy(orgId, userId)) {
        if (await revokeIn(trx, key, now, { revokedBy: by, reason: 'creator_no_longer_admin' }))
          hashes.push(key.hash);
      }
      return () => {
        for (const h of hashes) cache.delete(h);
      };
    },

    /** The key a secret stands for, if it is active; null for unknown, revoked or expired secrets. */
    async verify(secret: string): Promise<ApiKey | null> {
      if (!KEY_FORMAT.test(secret)) return null;
      const hash = sha256Hex(secret);
      const nowMs = clock.now().getTime();
      let entry = cache.get(hash);
      if (!entry || entry.until <= nowMs) {
        const row = (await repo.findByHash(hash)) ?? null;
        entry = { row, until: nowMs + CACHE_MS };
        if (cache.size > 10_000) cache.clear();
        cache.set(hash, entry);
      }
      const row = entry.row;
      if (!row) return null;
      const now = new Date(nowMs).toISOString();
      const key = toApiKey(row, now);
      if (key.status !== 'active') return null;
      if ((touched.get(row.id) ?? 0) + TOUCH_EVERY_MS <= nowMs) {
        touched.set(row.id, nowMs);
        // last_used_at is informative; a failed write must not fail the request.
        repo.touch(row.id, now).catch(() => {});
      }
      return key;
    },
  };
}

export type KeysService = ReturnType<typeof createKeysService>;
