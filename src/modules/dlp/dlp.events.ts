import { type CustomPattern, detectEntities, type Entity } from '../../engines/dlp/index.js';
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
  who: {
    sourceIp?: string;
    userId?: string | null;
    apiKeyId?: string | null;
    action: 'REDACTED' | 'BLOCKED';
    sessionId?: string;
  },
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
    // A user's id or null, as in the detection events; the key that made the call is named apart.
    userId: who.userId ?? null,
    apiKeyId: who.apiKeyId ?? null,
    ...(who.sessionId ? { sessionId: who.sessionId } : {}),
  };
}

/**
 * Personal data of a text, found once, for the parts of it that go into events (previews, matched
 * fragments). Every type is looked for, whatever the organization tokenizes, plus its own patterns: an
 * event leaves the service (webhooks, SIEMs), so it carries `[TYPE]` in place of a value. A fragment cut
 * through a value has the overlapping part replaced too, which a fresh detection on the fragment alone
 * would miss (half an e-mail address is no e-mail address).
 */
export class EventRedactor {
  private readonly entities: Entity[];

  constructor(
    private readonly text: string,
    settings: { customPatterns?: CustomPattern[]; allowValues?: string[] },
  ) {
    this.entities = detectEntities(text, {
      ...(settings.customPatterns ? { customPatterns: settings.customPatterns } : {}),
      ...(settings.allowValues ? { allowValues: settings.allowValues } : {}),
    });
  }

  /** text[from, to) with personal data replaced by its type, cut to `max` characters (an ellipsis marks a cut). */
  slice(from: number, to: number, max: number): string {
    let out = '';
    let at = from;
    for (const e of this.entities) {
      if (e.end <= at || e.start >= to) continue;
      out += this.text.slice(at, Math.max(at, e.start));
      out += `[${e.type}]`;
      at = Math.min(to, e.end);
    }
    out += this.text.slice(at, to);
    return out.length > max ? `${out.slice(0, max)}…` : out;
  }
}
