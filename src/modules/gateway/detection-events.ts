import type { AnalysisResult } from '../../engines/detection/index.js';
import { newId } from '../../platform/crypto/index.js';
import type { DlpSettings } from '../dlp/index.js';
import { redactedPreview } from './protect.js';

export interface DetectionSettings {
  thresholds?: { log?: number; warn?: number; block?: number };
  allowPhrases?: string[];
}

/** The organization's detection settings, kept under `detection` in its settings. */
export function detectionSettingsOf(settings: Record<string, unknown>): DetectionSettings {
  const s = settings['detection'];
  if (!s || typeof s !== 'object') return {};
  const d = s as Record<string, unknown>;
  const out: DetectionSettings = {};
  if (d['thresholds'] && typeof d['thresholds'] === 'object')
    out.thresholds = d['thresholds'] as DetectionSettings['thresholds'] & object;
  if (Array.isArray(d['allowPhrases']))
    out.allowPhrases = d['allowPhrases'].filter((p): p is string => typeof p === 'string');
  return out;
}

/**
 * The spec's detection event data. The preview and the matched fragments pass through the DLP engine
 * first, so an event never carries personal data from the prompt.
 */
export function detectionEventData(
  analysis: AnalysisResult,
  input: string,
  ctx: {
    blocked: boolean;
    endpoint: string;
    sourceIp: string | null;
    userId: string | null;
    apiKeyId: string | null;
    processingTimeMs: number;
    dlp: DlpSettings;
  },
): Record<string, unknown> {
  const top = [...analysis.matches].sort((a, b) => b.weight - a.weight)[0];
  return {
    id: newId('det'),
    riskScore: analysis.score,
    severity: analysis.severity.toUpperCase(),
    category: (top?.category ?? analysis.categories[0] ?? 'unknown').toUpperCase(),
    patterns: analysis.matches.slice(0, 20).map((m) => ({
      type: m.category,
      match: redactedPreview(m.match, ctx.dlp, 80),
      score: m.weight,
    })),
    action: ctx.blocked ? 'BLOCKED' : 'FLAGGED',
    blocked: ctx.blocked,
    inputLength: input.length,
    inputPreview: redactedPreview(input, ctx.dlp),
    endpoint: ctx.endpoint,
    sourceIp: ctx.sourceIp,
    userId: ctx.userId,
    apiKeyId: ctx.apiKeyId,
    processingTimeMs: ctx.processingTimeMs,
  };
}
