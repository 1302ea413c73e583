import { type DetectOptions, detectEntities, type Entity } from '../../engines/dlp/index.js';
import { riskiestFinding, riskScore } from '../../engines/risk/index.js';
import type { Compute } from '../../platform/compute/index.js';
import type { DlpSettings } from './dlp.settings.js';

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
  const topEntity = riskiestFinding(entities);
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
 * What is looked for in a text that leaves the service (events, endpoint alerts and logs): every type,
 * whatever the organization tokenizes, plus its own patterns; its allowed values stay, and its phone
 * region reads national numbers.
 */
export function eventDetectOptions(settings: DlpSettings): DetectOptions {
  return {
    ...(settings.customPatterns ? { customPatterns: settings.customPatterns } : {}),
    ...(settings.allowValues ? { allowValues: settings.allowValues } : {}),
    ...(settings.phoneRegion ? { phoneRegion: settings.phoneRegion } : {}),
  };
}

/**
 * Personal data of a text, found once, for the parts of it that go into events (previews, matched
 * fragments). An event leaves the service (webhooks, SIEMs), so it carries `[TYPE]` in place of a value
 * (the types of `eventDetectOptions`). A fragment cut through a value has the overlapping part replaced
 * too, which a fresh detection on the fragment alone would miss (half an e-mail address is no e-mail
 * address).
 */
export class EventRedactor {
  private readonly entities: readonly Entity[];

  /** Detects in `text` with the organization's settings, or takes the entities already found in it. */
  constructor(
    private readonly text: string,
    source: DlpSettings | readonly Entity[],
  ) {
    this.entities = Array.isArray(source)
      ? source
      : detectEntities(text, eventDetectOptions(source as DlpSettings));
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

/**
 * Each text whole with its personal data replaced by `[TYPE]` (`[EMAIL]`, `[AVS]`, `[PHONE]`, `[CARD]`, …),
 * for free text that devices send and the service stores and forwards (endpoint alerts and logs). The texts
 * share one detection pass, run in a worker thread when they are large together (the engine is linear, but
 * a megabyte of it would hold the event loop).
 */
export async function blankPersonalData(
  compute: Compute,
  texts: string[],
  settings: DlpSettings,
): Promise<string[]> {
  const size = texts.reduce((n, t) => n + t.length, 0);
  if (size === 0) return texts;
  const found = await compute.run('detectEntities', [texts, eventDetectOptions(settings)], size);
  return texts.map((text, i) => {
    const entities = found[i] ?? [];
    return entities.length === 0 ? text : new EventRedactor(text, entities).slice(0, text.length, Infinity);
  });
}
