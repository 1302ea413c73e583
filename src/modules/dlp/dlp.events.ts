import type { Entity } from '../../engines/dlp/index.js';
import { riskScore } from '../../engines/risk/index.js';

export type DlpSeverity = 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL';

export function severityOf(score: number): DlpSeverity {
  if (score >= 75) return 'CRITICAL';
  if (score >= 50) return 'HIGH';
  if (score >= 25) return 'MEDIUM';
  return 'LOW';
}

const PREVIEW_CHARS = 160;

/**
 * The spec's DLP event data. The preview is cut from the tokenized text, so it carries tokens, never
 * originals; `type` and `domain` are those of the riskiest finding.
 */
export function dlpEventData(
  entities: Entity[],
  tokenizedText: string,
  who: { sourceIp?: string; userId?: string | null; action: 'REDACTED' | 'BLOCKED'; sessionId?: string },
): Record<string, unknown> {
  const risk = riskScore(entities.map((e) => e.type));
  const top = [...risk.breakdown.types].sort((a, b) => b.weight - a.weight)[0];
  const topEntity = entities.find((e) => e.type === top?.type) ?? entities[0];
  return {
    domain: topEntity?.domain ?? 'PERSONAL',
    type: topEntity?.type ?? 'UNKNOWN',
    severity: severityOf(risk.score),
    action: who.action,
    findingsCount: entities.length,
    types: [...new Set(entities.map((e) => e.type))],
    riskScore: risk.score,
    redactedPreview:
      tokenizedText.length > PREVIEW_CHARS ? `${tokenizedText.slice(0, PREVIEW_CHARS)}…` : tokenizedText,
    sourceIp: who.sourceIp ?? null,
    userId: who.userId ?? null,
    ...(who.sessionId ? { sessionId: who.sessionId } : {}),
  };
}
