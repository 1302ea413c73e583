import { detectEntities } from '../../engines/dlp/index.js';
import {
  type AnalysisResult,
  DEFAULT_THRESHOLDS,
  type DetectionOptions,
  type Thresholds,
} from '../../engines/detection/index.js';
import { type Compute, inlineCompute } from '../../platform/compute/index.js';
import { newId } from '../../platform/crypto/index.js';
import { AppError } from '../../platform/errors/index.js';
import type { Db } from '../../platform/storage/index.js';
import type { Caller } from '../auth/index.js';
import type { LimitsService } from '../limits/index.js';
import type { Organization, OrgsService } from '../orgs/index.js';

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

const PREVIEW_CHARS = 120;

/** Personal data in a preview is replaced by its type, so events and SIEMs never receive it. */
export function redactPreview(text: string, max = PREVIEW_CHARS): string {
  const cut = text.length > max ? text.slice(0, max) : text;
  let out = '';
  let at = 0;
  for (const e of detectEntities(cut)) {
    out += `${cut.slice(at, e.start)}[${e.type}]`;
    at = e.end;
  }
  out += cut.slice(at);
  return text.length > max ? `${out}…` : out;
}

export function detectionSettingsOf(org: Organization): DetectionSettings {
  const s = org.settings['detection'];
  return s && typeof s === 'object' ? (s as DetectionSettings) : {};
}

function optionsFor(org: Organization, context?: string): DetectionOptions {
  const s = detectionSettingsOf(org);
  return {
    ...(context !== undefined ? { context } : {}),
    ...(s.thresholds ? { thresholds: s.thresholds } : {}),
    ...(s.allowPhrases ? { allowPhrases: s.allowPhrases } : {}),
  };
}

export interface RequestInfo {
  endpoint: string;
  sourceIp: string;
  userAgent?: string | undefined;
}

/** The spec's detection event data; previews and matches are redacted of personal data. */
export function detectionEventData(
  r: AnalysisResult,
  text: string,
  caller: Caller,
  info: RequestInfo,
  processingTimeMs: number,
): Record<string, unknown> {
  return {
    id: newId('det'),
    riskScore: r.score,
    severity: r.severity.toUpperCase(),
    category: (r.categories[0] ?? 'unknown').toUpperCase(),
    categories: r.categories,
    patterns: r.matches
      .slice(0, 20)
      .map((m) => ({ type: m.category, match: redactPreview(m.match, 80), score: m.weight })),
    action: { allow: 'ALLOWED', log: 'LOGGED', warn: 'WARNED', block: 'BLOCKED' }[r.action],
    blocked: r.action === 'block',
    inputLength: text.length,
    inputPreview: redactPreview(text),
    endpoint: info.endpoint,
    sourceIp: info.sourceIp,
    userAgent: info.userAgent ?? null,
    userId: caller.user?.id ?? null,
    apiKeyId: caller.key?.id ?? null,
    processingTimeMs,
  };
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
    if (result.action === 'allow') return;
    const data = detectionEventData(result, text, caller, info, ms);
    // One transaction for both events: one commit on the hot path of an attack flood.
    await deps.db.transaction().execute(async (trx) => {
      await deps.publish(trx, caller.org, 'detection.created', data);
      if (result.severity === 'high' || result.severity === 'critical') {
        await deps.publish(trx, caller.org, 'detection.high_severity', data);
      }
    });
  }

  async function run(caller: Caller, text: string, context: string | undefined, info: RequestInfo) {
    const started = performance.now();
    const result = await compute.run('analyze', [text, optionsFor(caller.org, context)], text.length);
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
        [text, optionsFor(caller.org, context)],
        text.length,
      );
      await account(caller, text, analysis, info, Math.round(performance.now() - started));
      return sanitization;
    },

    settings(org: Organization): DetectionSettings {
      return detectionSettingsOf(org);
    },

    async updateSettings(org: Organization, next: DetectionSettings): Promise<DetectionSettings> {
      const t = { ...DEFAULT_THRESHOLDS, ...next.thresholds };
      if (!(t.log <= t.warn && t.warn <= t.block)) {
        throw new AppError('invalid_request', 'Thresholds must be ordered: log ≤ warn ≤ block.');
      }
      const fresh = (await deps.orgs.getOrg(org.id)) ?? org;
      await deps.orgs.updateOrg(org.id, { settings: { ...fresh.settings, detection: next } });
      deps.forgetOrg(org.id);
      return next;
    },
  };
}

export type DetectionService = ReturnType<typeof createDetectionService>;
