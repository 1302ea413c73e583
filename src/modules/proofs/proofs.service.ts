import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { riskScore } from '../../engines/risk/index.js';
import type { Clock } from '../../platform/clock/index.js';
import { newId } from '../../platform/crypto/index.js';
import { AppError, notFound } from '../../platform/errors/index.js';
import { type Db, isUniqueViolation } from '../../platform/storage/index.js';
import { checkPdf } from './pdf-check.js';
import type { ProofStore } from './proof-store.js';
import { type ProofPublish, proofDeletedEvent, riskMismatchEvent } from './proofs.events.js';
import { createProofsRepo, type ProofRow } from './proofs.repo.js';
import { type ListQuery, type ProofMetadata, RETENTION_DAYS } from './proofs.schemas.js';

export interface OrgRef {
  id: string;
  plan: string;
  settings: Record<string, unknown>;
}

/** A file part spooled to a local temporary file, hashed on the way. */
export interface SpooledFile {
  path: string;
  size: number;
  sha256: string;
}

const DAY_MS = 86_400_000;
const SWEEP_BATCH = 500;

/** The metadata fields a proof keeps; anything else the client sent is dropped. */
function storedMetadata(meta: ProofMetadata): ProofMetadata {
  return {
    hash: meta.hash,
    timestamp: meta.timestamp,
    platform: meta.platform,
    tokenCount: meta.tokenCount,
    riskScore: meta.riskScore,
    epsVersion: meta.epsVersion,
    tier: meta.tier,
    ...(meta.tokenTypes ? { tokenTypes: meta.tokenTypes } : {}),
  };
}

function view(r: ProofRow) {
  const meta = JSON.parse(r.metadata) as ProofMetadata;
  return {
    id: r.id,
    deviceId: r.device_id,
    userId: r.user_id,
    hash: `sha256:${r.sha256}`,
    sizeBytes: r.size_bytes,
    metadata: storedMetadata(meta),
    computedRiskScore: r.computed_risk_score,
    riskScoreMismatch: r.risk_score_mismatch === 1,
    uploadedAt: r.uploaded_at,
    expiresAt: r.expires_at,
    retentionDays: RETENTION_DAYS,
  };
}

/** What an upload answers: the stored proof, and whether this upload stored it (201) or found it stored (200). */
function uploadReply(r: ProofRow) {
  return {
    id: r.id,
    uploadedAt: r.uploaded_at,
    retentionDays: RETENTION_DAYS,
    expiresAt: r.expires_at,
    riskScoreMismatch: r.risk_score_mismatch === 1,
  };
}

/** The metadata as stored, with the hash's hex in lower case, to compare two uploads of the same content. */
function sameMetadata(stored: string, meta: ProofMetadata): boolean {
  const a = JSON.parse(stored) as ProofMetadata;
  const norm = (m: ProofMetadata) => JSON.stringify(storedMetadata({ ...m, hash: m.hash.toLowerCase() }));
  return norm(a) === norm(meta);
}

/**
 * The answer to an upload whose content the organization already has (docs/proofs.md): a retry (same device,
 * same metadata) gets the stored proof back, and nothing new is stored or published; the same bytes with other
 * metadata, or from another device, are a conflict, not something to merge into the record or drop silently.
 */
function existingProof(r: ProofRow, deviceId: string, meta: ProofMetadata) {
  if (r.device_id !== deviceId || !sameMetadata(r.metadata, meta)) {
    throw new AppError(
      'conflict',
      'A proof with this content (the same SHA-256) is already stored for this organization, from another device or with other metadata; nothing was stored. Do not retry this upload.',
    );
  }
  return { created: false, proof: uploadReply(r) };
}

/** Proof documents: checked uploads, retrieval, listing, deletion and the 90-day retention (docs/proofs.md). */
export function createProofsService(deps: {
  db: Db;
  clock: Clock;
  store: ProofStore;
  publish: ProofPublish;
  /** The user a device is bound to (null: none), undefined when the device is unknown or revoked. */
  deviceUser: (orgId: string, deviceId: string) => Promise<string | null | undefined>;
  deviceExists: (orgId: string, deviceId: string) => Promise<boolean>;
  /**
   * The texts with personal data replaced by its type (`[EMAIL]`), every type plus the organization's own
   * patterns: the DLP module's event redaction, as endpoint alerts and logs get it.
   */
  blank: (settings: Record<string, unknown>, texts: string[]) => Promise<string[]>;
}) {
  const { db, clock, store } = deps;

  return {
    storeKind: store.kind,

    /**
     * Stores a proof after every check passed: the file's SHA-256 equals `metadata.hash`, it is a PDF, and
     * `tokenTypes` agree with `tokenCount`. A declared risk score that differs from the one the token types
     * give is stored with `riskScoreMismatch` and a `proof.risk_mismatch` event. Content the organization
     * already has is not stored again (existingProof): a retry of an upload whose answer was lost gets the
     * stored proof, `created: false`. Two identical uploads at once both pass the look-up; the unique index on
     * (org_id, sha256_unique) fails the second insert, whose file and event go with it, and it answers
     * with the first. The spool file is gone afterwards, whatever happened.
     */
    async upload(org: OrgRef, deviceId: string, file: SpooledFile, sent: ProofMetadata, bytes: Uint8Array) {
      try {
        // `platform` and `tier` are free text a device writes: stored, shown and published (platform, in
        // proof.risk_mismatch) with personal data and secrets replaced by their type, as endpoint alerts'
        // previews are (audit: an e-mail address in `platform` reached the SIEM). The comparison with a
        // stored proof's metadata (existingProof) sees both blanked alike.
        const [platform = '', tier = ''] = await deps.blank(org.settings, [sent.platform, sent.tier]);
        const meta: ProofMetadata = { ...sent, platform, tier };
        const declared = meta.hash.slice('sha256:'.length).toLowerCase();
        if (declared !== file.sha256) {
          throw new AppError(
            'invalid_request',
            'metadata.hash does not match the SHA-256 of the uploaded file; nothing was stored.',
          );
        }
        if (meta.tokenTypes && meta.tokenTypes.length !== meta.tokenCount) {
          throw new AppError(
            'invalid_request',
            `metadata.tokenTypes has ${meta.tokenTypes.length} entries but metadata.tokenCount is ${meta.tokenCount}.`,
          );
        }
        await checkPdf(bytes);
        const userId = await deps.deviceUser(org.id, deviceId);
        if (userId === undefined) throw notFound('Device');
        const repo = createProofsRepo(db);
        const stored = await repo.byContent(org.id, file.sha256);
        if (stored) return existingProof(stored, deviceId, meta);

        // With no token declared the score can only be 0; otherwise the types say what it must be.
        const types = meta.tokenTypes ?? (meta.tokenCount === 0 ? [] : undefined);
        const computed = types ? riskScore(types).score : null;
        const now = clock.now();
        const id = newId('proof');
        const row: ProofRow = {
          id,
          org_id: org.id,
          device_id: deviceId,
          user_id: userId,
          sha256: file.sha256,
          sha256_unique: file.sha256,
          size_bytes: file.size,
          store_key: `${org.id}/${id}.pdf`,
          metadata: JSON.stringify(storedMetadata(meta)),
          risk_score: meta.riskScore,
          computed_risk_score: computed,
          risk_score_mismatch: computed !== null && computed !== meta.riskScore ? 1 : 0,
          uploaded_at: now.toISOString(),
          expires_at: new Date(now.getTime() + RETENTION_DAYS * DAY_MS).toISOString(),
        };
        await store.put(row.store_key, file.path, file.size);
        try {
          await db.transaction().execute(async (trx) => {
            await createProofsRepo(trx).insert(row);
            if (row.risk_score_mismatch) {
              await deps.publish(
                trx,
                org,
                'proof.risk_mismatch',
                riskMismatchEvent(row, { ...meta, tokenTypes: types ?? [] }),
              );
            }
          });
        } catch (err) {
          await store.delete(row.store_key);
          if (isUniqueViolation(err)) {
            // Another upload of the same content committed between the look-up and this insert.
            const winner = await repo.byContent(org.id, file.sha256);
            if (winner) return existingProof(winner, deviceId, meta);
          }
          throw err;
        }
        return { created: true, proof: uploadReply(row) };
      } finally {
        await rm(file.path, { force: true });
      }
    },

    async get(orgId: string, id: string) {
      const r = await createProofsRepo(db).get(orgId, id);
      if (!r) throw notFound('Proof');
      return view(r);
    },

    /** The PDF itself, streamed from the store. */
    async download(orgId: string, id: string): Promise<{ stream: Readable; size: number; id: string }> {
      const r = await createProofsRepo(db).get(orgId, id);
      if (!r) throw notFound('Proof');
      const stream = await store.get(r.store_key);
      if (!stream) throw notFound('Proof file');
      return { stream, size: r.size_bytes, id: r.id };
    },

    async list(orgId: string, q: ListQuery) {
      const page = q.page ?? 1;
      const perPage = q.perPage ?? 20;
      if (q.deviceId && !(await deps.deviceExists(orgId, q.deviceId))) throw notFound('Device');
      const { rows, total } = await createProofsRepo(db).list(orgId, q.deviceId, page, perPage);
      return { proofs: rows.map(view), pagination: { total, page, perPage } };
    },

    /**
     * Deletes the file first (idempotent), then the row with its audit event: a failure between the two
     * leaves a row whose download answers 404, and deleting it again finishes the job.
     */
    async remove(org: OrgRef, id: string, by: { userId: string | null; apiKeyId: string | null }) {
      const r = await createProofsRepo(db).get(org.id, id);
      if (!r) throw notFound('Proof');
      await store.delete(r.store_key);
      await db.transaction().execute(async (trx) => {
        if (!(await createProofsRepo(trx).delete(org.id, id))) throw notFound('Proof');
        await deps.publish(trx, org, 'audit.proof_deleted', proofDeletedEvent(r, by));
      });
      return { deleted: true, id };
    },

    /** Retention job: proofs past expiresAt go, file and row, in batches. */
    async purgeExpired(): Promise<number> {
      const repo = createProofsRepo(db);
      let removed = 0;
      for (;;) {
        const due = await repo.expired(clock.now().toISOString(), SWEEP_BATCH);
        for (const r of due) {
          await store.delete(r.store_key);
          if (await repo.delete(r.org_id, r.id)) removed++;
        }
        if (due.length < SWEEP_BATCH) return removed;
      }
    },
  };
}

export type ProofsService = ReturnType<typeof createProofsService>;
