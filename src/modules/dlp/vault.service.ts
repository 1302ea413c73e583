import {
  type Entity,
  type TokenMap,
  createTokenMap,
  detectEntities,
  rehydrate,
  tokenizeEntities,
} from '../../engines/dlp/index.js';
import type { Cache } from '../../platform/cache/index.js';
import type { Clock } from '../../platform/clock/index.js';
import { type Sealer, newId, secureRandomBytes } from '../../platform/crypto/index.js';
import { AppError } from '../../platform/errors/index.js';
import { createGroupCommit, type Db, type GroupCommit } from '../../platform/storage/index.js';
import { createDlpRepo } from './dlp.repo.js';
import { dlpPreview } from './dlp.events.js';
import { DEFAULT_SESSION_TTL_HOURS, type DlpSettings, detectOptionsOf } from './dlp.settings.js';

export const SESSION_ID = /^sess_[0-9A-Za-z]{22}$/;

export interface VaultSession {
  id: string;
  orgId: string;
  key: Uint8Array;
  map: TokenMap;
  expiresAt: string;
}

export interface TokenizeOutcome {
  sessionId: string;
  tokenized: string;
  tokens: Array<{ token: string; type: string; domain: string }>;
  entities: Entity[];
  session: VaultSession;
}

/** One text of a request (a message, a tool-call argument) and, when already run, what detection found in it. */
export interface TextPart {
  text: string;
  entities?: Entity[];
}

export interface TokenizeOptions {
  sessionId?: string;
  settings?: DlpSettings;
  /**
   * False for a new session that this process will not look up by id (the provider proxy's: one per
   * request, rehydrated from the outcome's session). A cached one holds its originals, and the request
   * texts they were cut from, until 2,000 newer sessions push it out: with personal data at 500 proxied
   * requests/s that was 7 of the 55 MB live heap that every full collection marks. A later lookup by id
   * (the DLP API's rehydrate) reads it from the database.
   */
  cache?: boolean;
  /** Runs inside the vault's transaction, for events that must commit with the mappings. */
  within?: (trx: Db, outcome: { entities: Entity[]; preview: string }) => Promise<void>;
  /**
   * Resolve as soon as the tokenized texts are ready and commit in the background: the outcome's `stored`
   * settles with the commit. The proxies send the tokenized request upstream meanwhile (it holds no
   * original) and await `stored` before anything reaches their client, so the round trip to the provider
   * hides the commit (a few tenths of a millisecond before every first token) and no answer names a
   * session that is not stored.
   */
  deferCommit?: boolean;
}

const CACHE_LIMIT = 2_000;
/** How stale a cached session may be before this process checks it still exists (erased elsewhere). */
export const REVALIDATE_MS = 2_000;

/**
 * The token vault: sessions of token ↔ original per organization, originals sealed with AES-256-GCM (bound
 * to their organization and session), a sliding TTL, and an in-process cache of open sessions. A cached
 * session may miss tokens another process added; rehydration reloads it from the database when it meets a
 * token it does not know.
 */
export function createVault(deps: {
  db: Db;
  sealer: Sealer;
  clock: Clock;
  shared?: Cache;
  /** Shares one transaction among the writes of concurrent requests (one per write when absent). */
  commit?: GroupCommit;
}) {
  const { db, sealer, clock } = deps;
  const commit = deps.commit ?? createGroupCommit(db, { maxBatch: 1 });
  // Redis (when configured) holds the sealed rows of recently used sessions, so a process that has not seen
  // a session yet skips the database. Values stay sealed there; writes invalidate the entry.
  const shared = deps.shared?.kind === 'redis' ? deps.shared : undefined;
  const sharedKey = (id: string) => `vault:${id}`;
  // Left in Redis by an erasure for as long as any copy could live, so a copy that another process read
  // from the database just before the erasure and writes back just after cannot resurrect the session:
  // copies are only ever added with set-if-absent, and a tombstone answers "not found".
  const ERASED = 'erased';
  const SHARED_TTL_MS = 10 * 60_000;
  const repo = createDlpRepo(db);
  const cache = new Map<string, VaultSession>();
  const aad = (orgId: string, sessionId: string) => `${orgId}:${sessionId}`;

  // When each cached session was last known to exist in the database: another process may have erased it.
  const checkedAt = new Map<string, number>();

  function remember(s: VaultSession): VaultSession {
    cache.delete(s.id);
    cache.set(s.id, s);
    checkedAt.set(s.id, clock.now().getTime());
    if (cache.size > CACHE_LIMIT) {
      const oldest = cache.keys().next().value as string;
      cache.delete(oldest);
      checkedAt.delete(oldest);
    }
    return s;
  }

  function evict(id: string): void {
    cache.delete(id);
    checkedAt.delete(id);
  }

  /** A cached session older than REVALIDATE_MS is confirmed (one indexed read) before it is used. */
  async function stillStored(s: VaultSession): Promise<boolean> {
    const nowMs = clock.now().getTime();
    if (nowMs - (checkedAt.get(s.id) ?? 0) < REVALIDATE_MS) return true;
    const row = await repo.getSession(s.orgId, s.id);
    if (!row) return false;
    s.expiresAt = row.expires_at > s.expiresAt ? row.expires_at : s.expiresAt;
    checkedAt.set(s.id, nowMs);
    return true;
  }

  interface SealedSession {
    orgId: string;
    keySealed: string;
    expiresAt: string;
    tokens: Array<{ token: string; type: string; value_sealed: string }>;
  }

  async function readSealed(orgId: string, id: string, fresh: boolean): Promise<SealedSession | undefined> {
    if (shared && !fresh) {
      const hit = await shared.get(sharedKey(id)).catch(() => null);
      if (hit === ERASED) return undefined;
      if (hit) {
        const parsed = JSON.parse(hit) as SealedSession;
        if (parsed.orgId === orgId) return parsed;
      }
    }
    const row = await repo.getSession(orgId, id);
    if (!row) return undefined;
    const sealed: SealedSession = {
      orgId,
      keySealed: row.key_sealed,
      expiresAt: row.expires_at,
      tokens: await repo.tokens(orgId, id),
    };
    if (shared) {
      await shared.setIfAbsent(sharedKey(id), JSON.stringify(sealed), SHARED_TTL_MS).catch(() => false);
    }
    return sealed;
  }

  async function load(orgId: string, id: string, fresh = false): Promise<VaultSession | undefined> {
    const row = await readSealed(orgId, id, fresh);
    if (!row || row.expiresAt <= clock.now().toISOString()) return undefined;
    const key = Buffer.from(sealer.open(row.keySealed, aad(orgId, id)), 'base64');
    const rows = row.tokens;
    const map = createTokenMap(
      rows.map((r) => ({ token: r.token, type: r.type, value: sealer.open(r.value_sealed, aad(orgId, id)) })),
    );
    return remember({ id, orgId, key, map, expiresAt: row.expiresAt });
  }

  async function session(orgId: string, id: string, fresh = false): Promise<VaultSession> {
    if (!SESSION_ID.test(id)) {
      throw new AppError(
        'invalid_request',
        "The body field 'sessionId' must be sess_ followed by 22 letters or digits.",
      );
    }
    const cached = cache.get(id);
    const now = clock.now().toISOString();
    if (!fresh && cached && cached.orgId === orgId && cached.expiresAt > now) {
      if (await stillStored(cached)) return cached;
      // Erased elsewhere: no copy (Redis included) may answer for it any more.
      evict(id);
      throw new AppError('not_found', 'DLP session was not found or has expired.');
    }
    const loaded = await load(orgId, id, fresh);
    if (!loaded) {
      evict(id);
      throw new AppError('not_found', 'DLP session was not found or has expired.');
    }
    return loaded;
  }

  /**
   * Tokenizes the parts of one request into a new or existing session (a value gets the same token in
   * every part) and stores the new mappings in one transaction. `within` sees what was found and the
   * parts' event preview (`dlpPreview`: types in brackets, never the tokens).
   */
  async function tokenizeParts(
    orgId: string,
    parts: TextPart[],
    opts: TokenizeOptions = {},
  ): Promise<Omit<TokenizeOutcome, 'tokenized'> & { tokenized: string[]; stored?: Promise<void> }> {
    const settings = opts.settings ?? {};
    const ttlMs = (settings.sessionTtlHours ?? DEFAULT_SESSION_TTL_HOURS) * 3600_000;
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + ttlMs).toISOString();
    let s: VaultSession;
    let isNewSession = false;
    if (opts.sessionId) s = await session(orgId, opts.sessionId);
    else {
      isNewSession = true;
      s = { id: newId('sess'), orgId, key: secureRandomBytes(32), map: createTokenMap(), expiresAt };
    }
    // Work on a copy so a failed write leaves the cached session as the database has it.
    const map = createTokenMap(
      [...s.map.byToken.entries()].map(([token, e]) => ({ token, type: e.type, value: e.value })),
    );
    const results = parts.map((p) =>
      tokenizeEntities(p.text, p.entities ?? detectEntities(p.text, detectOptionsOf(settings)), map, s.key),
    );
    const tokens = results.flatMap((r) => r.tokens);
    const entities = results.flatMap((r) => r.entities);
    const tokenized = results.map((r) => r.tokenized);
    const newTokens = new Map(tokens.filter((t) => t.isNew).map((t) => [t.token, t]));
    // Before the write, not in it: where the settings narrow the types it detects again, which would
    // hold the transaction (and, on SQLite, every other writer) meanwhile.
    // Only when something was found: nothing is published otherwise (both callers return on no finding).
    const preview = opts.within
      ? entities.length === 0
        ? ''
        : dlpPreview(
            parts.map((p) => p.text),
            results.map((r) => r.entities),
            settings,
          )
      : undefined;
    const write = commit.run(async (trx) => {
      // Sealed here, in the write, rather than before it: with deferCommit the tokenized request is on its
      // way upstream by now, so the AES-GCM seals (one per new token and one for a new session's key,
      // about a tenth of a millisecond a request) no longer delay it.
      const rows = [...newTokens.values()].map((t) => ({
        token: t.token,
        type: map.byToken.get(t.token)?.type ?? t.type,
        value_sealed: sealer.seal(map.byToken.get(t.token)?.value ?? '', aad(orgId, s.id)),
      }));
      const r = createDlpRepo(trx);
      if (isNewSession) {
        await r.insertSession({
          id: s.id,
          org_id: orgId,
          key_sealed: sealer.seal(Buffer.from(s.key).toString('base64'), aad(orgId, s.id)),
          created_at: now.toISOString(),
          expires_at: expiresAt,
        });
      } else await r.extendSession(orgId, s.id, expiresAt);
      await r.insertTokens(orgId, s.id, rows, now.toISOString());
      if (opts.within && preview !== undefined) await opts.within(trx, { entities, preview });
    });
    const updated = { ...s, map, expiresAt };
    // After the commit: the shared copy is dropped and the session cached only once the database has it.
    const settle = async (): Promise<VaultSession> => {
      await write;
      if (shared && !isNewSession) await shared.del(sharedKey(s.id)).catch(() => {});
      return opts.cache === false && isNewSession ? updated : remember(updated);
    };
    const out = {
      sessionId: s.id,
      tokenized,
      tokens: tokens.map((t) => ({ token: t.token, type: t.type, domain: t.domain })),
      entities,
    };
    if (opts.deferCommit) {
      const stored = settle().then(() => undefined);
      // Awaited by the caller; this only keeps a failure seen before then from counting as unhandled.
      stored.catch(() => {});
      return { ...out, session: updated, stored };
    }
    return { ...out, session: await settle() };
  }

  return {
    session,

    /**
     * Erases a session with its sealed originals, in one transaction with `within` (the caller's rows that
     * refer to it), then drops it from this process's cache and leaves a tombstone in Redis in place of
     * the shared copy. Writing the tombstone is not allowed to fail quietly: a stale copy would let other
     * processes rehydrate erased data. Other processes' caches notice within REVALIDATE_MS.
     */
    async erase(orgId: string, id: string, within?: (trx: Db) => Promise<void>): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await within?.(trx);
        await createDlpRepo(trx).deleteSessions(orgId, [id]);
      });
      evict(id);
      if (shared) await shared.set(sharedKey(id), ERASED, SHARED_TTL_MS);
    },

    tokenizeParts,

    /** One text: tokenizeParts with a single part. */
    async tokenize(orgId: string, text: string, opts: TokenizeOptions = {}): Promise<TokenizeOutcome> {
      const out = await tokenizeParts(orgId, [{ text }], opts);
      return { ...out, tokenized: out.tokenized[0] ?? '' };
    },

    async rehydrate(orgId: string, sessionId: string, text: string, opts: { json?: boolean } = {}) {
      let s = await session(orgId, sessionId);
      let out = rehydrate(text, s.map, opts);
      if (out.unknown.length > 0) {
        s = await session(orgId, sessionId, true);
        out = rehydrate(text, s.map, opts);
      }
      return out;
    },

    async purgeExpired(limit = 1_000): Promise<number> {
      const n = await repo.deleteExpired(clock.now().toISOString(), limit);
      if (n > 0) {
        const now = clock.now().toISOString();
        for (const [id, s] of cache) if (s.expiresAt <= now) evict(id);
      }
      return n;
    },
  };
}

export type Vault = ReturnType<typeof createVault>;
