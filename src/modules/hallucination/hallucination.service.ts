import { type CheckResult, type Correction, LIMITS } from '../../engines/hallucination/index.js';
import { type Compute, inlineCompute } from '../../platform/compute/index.js';
import type { Clock } from '../../platform/clock/index.js';
import { newId } from '../../platform/crypto/index.js';
import { AppError, invalid, notFound } from '../../platform/errors/index.js';
import type { Db } from '../../platform/storage/index.js';
import type { LimitsService } from '../limits/index.js';
import type { Organization, OrgsService } from '../orgs/index.js';
import { findModel } from '../providers/index.js';
import type { JudgeInfo, LlmJudge } from './llm-judge.js';
import { type OrgCache, createOrgCache } from './corrections.cache.js';
import { type CorrectionRow, createCorrectionsRepo } from './corrections.repo.js';
import { MAX_CORRECTIONS_PER_ORG } from './hallucination.schemas.js';
import { type KeyedCorrection, candidateCorrections, keyCorrection } from './prefilter.js';

export interface StoredCorrection {
  id: string;
  originalClaim: string;
  correctedClaim: string;
  source: string;
  createdAt: string;
}

export interface CorrectionInput {
  originalClaim: string;
  correctedClaim: string;
  source: string;
}

export interface CorrectionPage {
  corrections: StoredCorrection[];
  pagination: { total: number; page: number; perPage: number; limit: number };
}

export interface HallucinationServiceOptions {
  db: Db;
  clock: Clock;
  limits: Pick<LimitsService, 'record'>;
  /** Runs the engine (large inputs in a worker thread under a time budget). */
  compute?: Compute;
  /** How long a process keeps an organization's corrections before reading them again. */
  cacheTtlMs?: number;
  /** The optional LLM judge (`mode: "llm"`); without it every check is local. */
  judge?: LlmJudge;
  /** Reads and stores the organization's default mode (settings.hallucination). */
  orgs: Pick<OrgsService, 'getOrg' | 'updateOrg' | 'setSettingsSection'>;
  /** Drops the authenticated organization cached by this process, so a new default applies at once. */
  forgetOrg: (orgId: string) => void;
}

export type CheckMode = 'local' | 'llm';

/** Per-organization settings, kept under `hallucination` in the organization's settings. */
export interface HallucinationSettings {
  /** The mode of a check that names none: `local` (the default) or `llm`. */
  mode: CheckMode;
  /** The model the judge prefers (`provider/model`); the cheapest configured one when absent. */
  model?: string;
}

export function hallucinationSettingsOf(settings: Record<string, unknown>): HallucinationSettings {
  const s = settings['hallucination'];
  const raw = s && typeof s === 'object' ? (s as Partial<HallucinationSettings>) : {};
  return { mode: raw.mode === 'llm' ? 'llm' : 'local', ...(raw.model ? { model: raw.model } : {}) };
}

export interface CheckRequestOptions {
  mode?: CheckMode;
  model?: string;
}

function checkModel(model: string | undefined, field: string): void {
  if (model !== undefined && !findModel(model))
    throw invalid(
      `The body field '${field}' names no model of the catalog (use provider/model, e.g. openai/gpt-4o-mini).`,
    );
}

export type CheckAnswer = CheckResult & { mode: CheckMode; judge?: Omit<JudgeInfo, 'mode'> };

/** Short enough that a correction stored through another API process applies within seconds. */
export const CORRECTIONS_CACHE_TTL_MS = 10_000;
const CACHE_MAX_ORGS = 1_000;
/** About 32 MB of text: several full organizations (500 × 3 × 2,000 characters each) or many typical ones. */
const CACHE_MAX_CHARS = 16_000_000;

const toCorrection = (r: CorrectionRow): StoredCorrection => ({
  id: r.id,
  originalClaim: r.original_claim,
  correctedClaim: r.corrected_claim,
  source: r.source,
  createdAt: r.created_at,
});

const blank = (s: string): boolean => s.trim().length === 0;
const sameText = (a: string, b: string): boolean =>
  a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * What the schema cannot say: blank text, and lengths in UTF-16 code units, which is what the engine
 * limits (the schema counts code points, so text full of emoji could pass it and still be too long).
 */
function validateCheck(claim: string, sources: string[]): void {
  if (blank(claim)) throw invalid("The body field 'claim' must not be blank.");
  if (claim.length > LIMITS.maxClaimChars)
    throw invalid(`The body field 'claim' must be at most ${LIMITS.maxClaimChars} characters long.`);
  if (sources.length === 0) throw invalid("The body field 'sources' must hold at least one source.");
  if (sources.length > LIMITS.maxSources)
    throw invalid(`The body field 'sources' must hold at most ${LIMITS.maxSources} sources.`);
  sources.forEach((s, i) => {
    if (blank(s)) throw invalid(`The body field 'sources[${i}]' must not be blank.`);
    if (s.length > LIMITS.maxSourceChars)
      throw invalid(
        `The body field 'sources[${i}]' must be at most ${LIMITS.maxSourceChars} characters long.`,
      );
  });
}

function validateCorrection(input: CorrectionInput): CorrectionInput {
  const out = {
    originalClaim: input.originalClaim.trim(),
    correctedClaim: input.correctedClaim.trim(),
    source: input.source.trim(),
  };
  for (const field of ['originalClaim', 'correctedClaim', 'source'] as const) {
    if (out[field].length === 0) throw invalid(`The body field '${field}' must not be blank.`);
  }
  if (sameText(out.originalClaim, out.correctedClaim))
    throw invalid("The body field 'correctedClaim' must differ from 'originalClaim'.");
  return out;
}

export function createHallucinationService(deps: HallucinationServiceOptions) {
  const repo = createCorrectionsRepo(deps.db);
  const cache: OrgCache<KeyedCorrection[]> = createOrgCache({
    clock: deps.clock,
    ttlMs: deps.cacheTtlMs ?? CORRECTIONS_CACHE_TTL_MS,
    maxOrgs: CACHE_MAX_ORGS,
    weigh: (list) =>
      list.reduce(
        (n, k) =>
          n +
          k.correction.originalClaim.length +
          k.correction.correctedClaim.length +
          k.correction.source.length,
        0,
      ),
    maxWeight: CACHE_MAX_CHARS,
  });

  async function correctionsOf(orgId: string): Promise<KeyedCorrection[]> {
    return cache.get(orgId, async () =>
      (await repo.all(orgId, MAX_CORRECTIONS_PER_ORG)).map((r) => {
        const c: Correction = {
          id: r.id,
          originalClaim: r.original_claim,
          correctedClaim: r.corrected_claim,
          source: r.source,
        };
        return keyCorrection(c);
      }),
    );
  }

  return {
    /** Checks a claim against the sources and the organization's corrections. */
    async check(
      org: Organization,
      claim: string,
      sources: string[],
      request: CheckRequestOptions = {},
    ): Promise<CheckAnswer> {
      validateCheck(claim, sources);
      checkModel(request.model, 'model');
      const corrections = candidateCorrections(claim, await correctionsOf(org.id));
      let result: CheckResult;
      try {
        const size = sources.reduce((n, s) => n + s.length, claim.length);
        result = await (deps.compute ?? inlineCompute).run(
          'checkClaim',
          [claim, sources, { corrections }],
          size,
        );
      } catch (err) {
        // The engine's own limits; validateCheck should have caught them, but never answer 500 for input.
        if (err instanceof RangeError) throw invalid(`The request is too large: ${err.message}.`);
        throw err;
      }
      const settings = hallucinationSettingsOf(org.settings);
      const mode = request.mode ?? settings.mode;
      let answer: CheckAnswer = { ...result, mode: 'local' };
      if (mode === 'llm') {
        const model = request.model ?? settings.model;
        const judged = deps.judge
          ? await deps.judge.judge(org, result, model)
          : { result, info: { mode: 'local' as const, fallback: 'no_provider' as const } };
        const { mode: used, ...info } = judged.info;
        answer = { ...judged.result, mode: used, judge: info };
      }
      // Scores are kept in percent, as detection's are: the usage counters are integers.
      deps.limits.record(org, 'hallucination', { score: Math.round(answer.score * 100) });
      return answer;
    },

    settings(org: Organization): HallucinationSettings {
      return hallucinationSettingsOf(org.settings);
    },

    async updateSettings(
      org: Organization,
      next: HallucinationSettings,
      by: { userId: string | null } = { userId: null },
    ): Promise<HallucinationSettings> {
      checkModel(next.model, 'model');
      const clean: HallucinationSettings = { mode: next.mode, ...(next.model ? { model: next.model } : {}) };
      // One step with the read of the other sections, and audited (orgs.setSettingsSection).
      await deps.orgs.setSettingsSection(org.id, 'hallucination', { ...clean }, by);
      deps.forgetOrg(org.id);
      return clean;
    },

    async correct(orgId: string, input: CorrectionInput, createdByKey?: string): Promise<StoredCorrection> {
      const clean = validateCorrection(input);
      // Counted before the insert: concurrent writers may pass the cap by the few rows in flight, which
      // bounds cost just as well without a lock that SQLite and PostgreSQL would spell differently.
      if ((await repo.count(orgId)) >= MAX_CORRECTIONS_PER_ORG) {
        throw new AppError(
          'conflict',
          `The organization already has ${MAX_CORRECTIONS_PER_ORG} corrections, the most it may store; delete some first.`,
        );
      }
      const row: CorrectionRow = {
        id: newId('cor'),
        org_id: orgId,
        original_claim: clean.originalClaim,
        corrected_claim: clean.correctedClaim,
        source: clean.source,
        created_by_key: createdByKey ?? null,
        created_at: deps.clock.now().toISOString(),
      };
      await repo.insert(row);
      cache.invalidate(orgId);
      return toCorrection(row);
    },

    async list(orgId: string, page: number, perPage: number): Promise<CorrectionPage> {
      const [rows, total] = await Promise.all([repo.page(orgId, page, perPage), repo.count(orgId)]);
      return {
        corrections: rows.map(toCorrection),
        pagination: { total, page, perPage, limit: MAX_CORRECTIONS_PER_ORG },
      };
    },

    async remove(orgId: string, id: string): Promise<void> {
      const removed = await repo.remove(orgId, id);
      cache.invalidate(orgId);
      if (!removed) throw notFound('The correction');
    },

    /** Forgets the cached corrections of an organization (tests, and writes made outside this service). */
    forget(orgId: string): void {
      cache.invalidate(orgId);
    },
  };
}

export type HallucinationService = ReturnType<typeof createHallucinationService>;
