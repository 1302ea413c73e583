import { type DetectOptions, detectEntities, type Entity } from '../../engines/dlp/index.js';
import { type RiskSeverity, riskiestFinding, riskScore, severityOf } from '../../engines/risk/index.js';
import type { Compute } from '../../platform/compute/index.js';
import type { DlpSettings } from './dlp.settings.js';

// The levels live in the risk engine, which the browser extension grades its alerts with too.
export type DlpSeverity = RiskSeverity;
export { severityOf };

const PREVIEW_CHARS = 160;

/**
 * How much of each text a preview reads: it shows the first PREVIEW_CHARS characters only, and a
 * megabyte-long message is not copied whole to cut them.
 */
const PREVIEW_HEAD_CHARS = 16_384;

/** Past the head a preview reads, so a value the head's end cuts through is still found whole. */
const PREVIEW_HEAD_MARGIN = 512;
/** The head read first when a preview detects again (dlpPreview). */
const SHORT_HEAD_CHARS = 1024;

/** text[0, head) with every type replaced, detected over the head and a margin past it. */
function redactedHead(text: string, head: number, settings: DlpSettings): string {
  const read = head + PREVIEW_HEAD_MARGIN < text.length ? text.slice(0, head + PREVIEW_HEAD_MARGIN) : text;
  return new EventRedactor(text, detectEntities(read, eventDetectOptions(settings))).slice(
    0,
    head,
    Number.POSITIVE_INFINITY,
  );
}

/**
 * Whether the organization tokenizes fewer types than an event must redact (`types`, `ignoreTypes`): the
 * findings of its tokenization then miss values an event may not carry (a phone it chose not to tokenize
 * is still personal data in a webhook or a SIEM).
 */
function narrowsTypes(settings: DlpSettings): boolean {
  return settings.types !== undefined || settings.ignoreTypes !== undefined;
}

/**
 * The preview of DLP events: the texts joined, each finding replaced by its type in brackets (`[EMAIL]`),
 * cut to PREVIEW_CHARS. Never vault tokens: an event leaves the service (webhooks, SIEMs), and a token with
 * its session rehydrates with any tokenization key of the organization. `perText` are the findings of the
 * tokenization; where the organization's settings narrow its types, the head each preview reads is
 * detected again with every type (eventDetectOptions), as the other events' previews are.
 */
export function dlpPreview(
  texts: readonly string[],
  perText: readonly (readonly Entity[])[],
  settings: DlpSettings,
): string {
  const again = narrowsTypes(settings);
  let out = '';
  for (const [i, text] of texts.entries()) {
    if (out.length > PREVIEW_CHARS) break;
    const last = Math.min(text.length, PREVIEW_HEAD_CHARS);
    let part: string;
    if (!again) part = new EventRedactor(text, perText[i] ?? []).slice(0, last, Number.POSITIVE_INFINITY);
    else {
      // Detected again on the event loop: first a short head, which gives the 160 characters of almost
      // every text, and the whole head only when it did not (a text of long values, each a short type).
      let head = Math.min(last, SHORT_HEAD_CHARS);
      part = redactedHead(text, head, settings);
      if (out.length + part.length <= PREVIEW_CHARS && head < last) {
        head = last;
        part = redactedHead(text, head, settings);
      }
    }
    out += out ? ` ${part}` : part;
  }
  return out.length > PREVIEW_CHARS ? `${out.slice(0, PREVIEW_CHARS)}…` : out;
}

/**
 * The spec's DLP event data. `preview` is a `dlpPreview` (types in brackets, never originals or vault
 * tokens); `type` and `domain` are those of the riskiest finding. No vault session id: the spec's data has
 * none, and with a token it would rehydrate.
 */
export function dlpEventData(
  entities: Entity[],
  preview: string,
  who: {
    sourceIp?: string;
    userId?: string | null;
    apiKeyId?: string | null;
    action: 'REDACTED' | 'BLOCKED';
  },
): Record<string, unknown> {
  const risk = riskScore(entities.map((e) => e.type));
  const topEntity = riskiestFinding(entities, risk);
  return {
    domain: topEntity?.domain ?? 'PERSONAL',
    type: topEntity?.type ?? 'UNKNOWN',
    severity: severityOf(risk.score),
    action: who.action,
    findingsCount: entities.length,
    types: [...new Set(entities.map((e) => e.type))],
    riskScore: risk.score,
    redactedPreview: preview,
    sourceIp: who.sourceIp ?? null,
    // A user's id or null, as in the detection events; the key that made the call is named apart.
    userId: who.userId ?? null,
    apiKeyId: who.apiKeyId ?? null,
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

/** The longest client user agent an event carries (docs/events.md). */
export const USER_AGENT_CHARS = 200;
/** How much of the header is read: past the cut, so a value the cut goes through is still found whole. */
const USER_AGENT_HEAD_CHARS = 1_000;

/**
 * The client's User-Agent as an event carries it (detection events, sign-in and password audit events, and
 * so webhooks and SIEMs): the client writes this header as freely as a prompt, and scripts put an e-mail
 * address or a token there. Personal data and secrets in it are replaced by their type, as in previews
 * (`Mozilla [EMAIL]`), then it is cut to USER_AGENT_CHARS (an ellipsis marks a cut). Null when absent.
 */
export function eventUserAgent(raw: string | null | undefined, settings: DlpSettings): string | null {
  if (!raw) return null;
  const head = raw.slice(0, USER_AGENT_HEAD_CHARS);
  const out = new EventRedactor(head, settings).slice(0, head.length, Number.POSITIVE_INFINITY);
  return out.length > USER_AGENT_CHARS ? `${out.slice(0, USER_AGENT_CHARS - 1)}…` : out;
}
