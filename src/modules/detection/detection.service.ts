import {
  type AnalysisResult,
  DEFAULT_THRESHOLDS,
  type DetectionOptions,
  type Thresholds,
} from '../../engines/detection/index.js';
import { type Compute, inlineCompute } from '../../platform/compute/index.js';
import { newId } from '../../platform/crypto/index.js';
import { AppError } from '../../platform/errors/index.js';
import { type Db, writeTransactions } from '../../platform/storage/index.js';
import { dlpSettingsOf, EventRedactor, eventUserAgent } from '../dlp/index.js';
import type { LimitsService } from '../limits/index.js';
import type { Organization, OrgsService } from '../orgs/index.js';
import type { Caller } from '../../platform/http/index.js';

export interface DetectionSettings {
  thresholds?: Partial<Thresholds>;
  allowPhrases?: string[];
}

export type DetectionPublish = (
  db: Db,
  org: { id: string; plan: string },
  type: 'detection.created' | 'detection.high_severity',
  data: Record<string, unknown>,
) => Promise<unknown>;

const PREVIEW_CHARS = 160;
const MATCH_CHARS = 80;

export function detectionSettingsOf(org: Organization): DetectionSettings {
  const s = org.settings['detection'];
  return s && typeof s === 'object' ? (s as DetectionSettings) : {};
}

/**
 * The engine's options for an organization: its thresholds and allow-phrases, and the text's context.
 * `fromCaller`: the context is a system prompt the caller sent with the text (engine `contextFromCaller`).
 */
export function detectionOptionsFor(
  org: Organization,
  context?: string,
  fromCaller = false,
): DetectionOptions {
  const s = detectionSettingsOf(org);
  return {
    ...(context !== undefined ? { context } : {}),
    ...(context !== undefined && fromCaller ? { contextFromCaller: true } : {}),
    ...(s.thresholds ? { thresholds: s.thresholds } : {}),
    ...(s.allowPhrases ? { allowPhrases: s.allowPhrases } : {}),
  };
}

export interface RequestInfo {
  endpoint: string;
  sourceIp: string;
  userAgent?: string | undefined;
}

/** Who sent the analysed text and where: the request side of a detection event. */
export interface DetectionOrigin {
  endpoint: string;
  sourceIp: string | null;
  userAgent?: string | null | undefined;
  userId: string | null;
  apiKeyId: string | null;
}

const ACTIONS = { allow: 'ALLOWED', log: 'LOGGED', warn: 'WARNED', block: 'BLOCKED' } as const;

/**
 * The spec's detection event data, the one builder for `detection.created` and `detection.high_severity`
 * whichever route analysed the text (analyze, detect, sanitize, the chat, both proxies). The preview and
 * every matched fragment carry `[TYPE]` in place of personal data (EventRedactor), so an event never
 * carries a value from the prompt.
 */
export function detectionEventData(
  r: AnalysisResult,
  text: string,
  origin: DetectionOrigin,
  org: Organization,
  processingTimeMs: number,
  textsChecked = 1,
): Record<string, unknown> {
  const settings = dlpSettingsOf(org.settings);
  const redactor = new EventRedactor(text, settings);
  let top: AnalysisResult['matches'][number] | undefined;
  for (const m of r.matches) if (!top || m.weight > top.weight) top = m;
  return {
    id: newId('det'),
    riskScore: r.score,
    severity: r.severity.toUpperCase(),
    category: (top?.category ?? r.categories[0] ?? 'unknown').toUpperCase(),
    categories: r.categories,
    patterns: r.matches.slice(0, 20).map((m) => ({
      type: m.category,
      match: redactor.slice(m.start, m.end, MATCH_CHARS),
      score: m.weight,
    })),
    action: ACTIONS[r.action],
    blocked: r.action === 'block',
    inputLength: text.length,
    inputPreview: redactor.slice(0, text.length, PREVIEW_CHARS),
    endpoint: origin.endpoint,
    sourceIp: origin.sourceIp,
    userAgent: eventUserAgent(origin.userAgent, settings),
    userId: origin.userId,
    apiKeyId: origin.apiKeyId,
    processingTimeMs,
    // How many texts the request had analysed (the proxies read tool outputs and documents too; this event
    // reports the worst of them): 1 for the analyze API and the chat.
    textsChecked,
  };
}

/**
 * Publishes the detection events of an analysis at or above the log threshold: `detection.created`, and
 * `detection.high_severity` for high and critical, in one transaction (one commit on the hot path of an
 * attack flood). Returns whether anything was published.
 */
export async function publishDetection(
  deps: { db: Db; publish: DetectionPublish },
  org: Organization,
  r: AnalysisResult,
  text: string,
  origin: DetectionOrigin,
  processingTimeMs: number,
  textsChecked = 1,
): Promise<boolean> {
  if (r.action === 'allow') return false;
  const data = detectionEventData(r, text, origin, org, processingTimeMs, textsChecked);
  // writeTransactions: on SQLite shared by several processes, the write lock is waited for with the event
  // loop free (platform/storage/raw.ts), not in SQLite's busy handler, which sleeps the process.
  await writeTransactions(deps.db)(async (trx) => {
    await deps.publish(trx, org, 'detection.created', data);
    if (r.severity === 'high' || r.severity === 'critical') {
      await deps.publish(trx, org, 'detection.high_severity', data);
    }
  });
  return true;
}

export function createDetectionService(deps: {
  db: Db;
  limits: LimitsService;
  orgs: OrgsService;
  publish: DetectionPublish;
  forgetOrg: (orgId: string) => void;
  /** Runs the engine (large texts in a worker thread under a time budget). */
  compute?: Compute;
}) {
  const compute = deps.compute ?? inlineCompute;
  /** Records usage and writes detection events for anything at or above the log threshold. */
  async function account(
    caller: Caller,
    text: string,
    result: AnalysisResult,
    info: RequestInfo,
    ms: number,
  ) {
    deps.limits.record(caller.org, 'detection', {
      blocked: result.action === 'block',
      warned: result.action === 'warn',
      score: result.score,
    });
    await publishDetection(
      deps,
      caller.org,
      result,
      text,
      {
        endpoint: info.endpoint,
        sourceIp: info.sourceIp,
        userAgent: info.userAgent ?? null,
        userId: caller.user?.id ?? null,
        apiKeyId: caller.key?.id ?? null,
      },
      ms,
    );
  }

  async function run(caller: Caller, text: string, context: string | undefined, info: RequestInfo) {
    const started = performance.now();
    const result = await compute.run(
      'analyze',
      [text, detectionOptionsFor(caller.org, context)],
      text.length,
    );
    await account(caller, text, result, info, Math.round(performance.now() - started));
    return result;
  }

  return {
    analyze: run,

    async detect(caller: Caller, text: string, context: string | undefined, info: RequestInfo) {
      const r = await run(caller, text, context, info);
      return { injection: !r.safe, score: r.score, safe: r.safe };
    },

    async sanitize(caller: Caller, text: string, context: string | undefined, info: RequestInfo) {
      const started = performance.now();
      const { analysis, sanitization } = await compute.run(
        'analyzeAndSanitize',
        [text, detectionOptionsFor(caller.org, context)],
        text.length,
      );
      await account(caller, text, analysis, info, Math.round(performance.now() - started));
      return sanitization;
    },

    settings(org: Organization): DetectionSettings {
      return detectionSettingsOf(org);
    },

    async updateSettings(
      org: Organization,
      next: DetectionSettings,
      by: { userId: string | null } = { userId: null },
    ): Promise<DetectionSettings> {
      const t = { ...DEFAULT_THRESHOLDS, ...next.thresholds };
      if (!(t.log <= t.warn && t.warn <= t.block)) {
        throw new AppError('invalid_request', 'Thresholds must be ordered: log ≤ warn ≤ block.');
      }
      // One step with the read of the other sections, and audited (orgs.setSettingsSection).
      await deps.orgs.setSettingsSection(org.id, 'detection', { ...next }, by);
      deps.forgetOrg(org.id);
      return next;
    },
  };
}

export type DetectionService = ReturnType<typeof createDetectionService>;
