import type { Db } from '../../platform/storage/index.js';
import type { ProofRow } from './proofs.repo.js';

export type ProofEventType = 'proof.risk_mismatch' | 'audit.proof_deleted';

export type ProofPublish = (
  db: Db,
  org: { id: string; plan: string },
  type: ProofEventType,
  data: Record<string, unknown>,
) => Promise<unknown>;

/**
 * A proof whose declared risk score is not the one its token types give: a modified or faulty extension.
 * Types and scores only; the proof's content (the prompt) never goes into an event.
 */
export function riskMismatchEvent(
  p: ProofRow,
  meta: { riskScore: number; tokenTypes: string[]; epsVersion: string; platform: string },
): Record<string, unknown> {
  return {
    proofId: p.id,
    deviceId: p.device_id,
    declaredRiskScore: meta.riskScore,
    computedRiskScore: p.computed_risk_score,
    tokenTypes: [...new Set(meta.tokenTypes.map((t) => t.toUpperCase()))].sort(),
    epsVersion: meta.epsVersion,
    platform: meta.platform,
    severity: 'HIGH',
  };
}

/** An administrator deleted a proof before its retention ended (AUDIT). */
export function proofDeletedEvent(
  p: ProofRow,
  by: { userId: string | null; apiKeyId: string | null },
): Record<string, unknown> {
  return {
    action: 'deleted',
    targetType: 'proof',
    targetId: p.id,
    deviceId: p.device_id,
    hash: `sha256:${p.sha256}`,
    uploadedAt: p.uploaded_at,
    actor: by,
    severity: 'MEDIUM',
  };
}
