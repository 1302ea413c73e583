import type { ModelInfo, ModelTier, ProviderId } from '../types.js';
import { estimateCost, findModel, listModels, TIER_RANK } from './catalog.js';

/** Completion tokens assumed for costing when the request sets no max_tokens. */
export const DEFAULT_COMPLETION_TOKENS = 1024;
const MAX_FALLBACKS = 3;

export interface RouteInput {
  /** Catalog key (`anthropic/claude-haiku-4-5`) or bare model id (`gpt-4o-mini`). */
  preferredModel?: string;
  /** Pick the cheapest adequate model (at least the preferred model's tier when one is given). */
  autoSelect?: boolean;
  /** USD ceiling for one request's estimated cost. */
  maxCost?: number;
  /** What to do when the preferred model costs more than maxCost; default 'downgrade'. */
  overBudget?: 'downgrade' | 'refuse';
  /** Tokens of the (tokenized) prompt, e.g. from estimateMessagesTokens. */
  promptTokens: number;
  /** The request's max_tokens; costing assumes this many completion tokens (default 1024, capped per model). */
  maxOutputTokens?: number;
  /** Providers this organization can call (a key is configured); 'parapet' is always callable. */
  availableProviders: ProviderId[];
  requireTools?: boolean;
  requireVision?: boolean;
  /** Lowest tier autoSelect may choose (default economy). */
  minTier?: Exclude<ModelTier, 'offline'>;
}

export interface RouteChoice {
  model: ModelInfo;
  /** Other adequate models within budget, other providers first, to try before the first byte is sent. */
  fallbacks: ModelInfo[];
  /** One sentence for logs and the response metadata. */
  reason: string;
  estimatedCost: number;
  /** The completion-token figure the cost was estimated with. */
  completionTokens: number;
}

export interface RouteRefusal {
  error: 'model_not_found' | 'over_budget' | 'context_too_long';
  message: string;
  /** The input the refusal is about, when one is: a caller's 400 names its own field for it. */
  input?: 'preferredModel' | 'maxCost';
}

export type RouteResult = RouteChoice | RouteRefusal;

export function route(input: RouteInput): RouteResult {
  const available = input.availableProviders;
  const completionFor = (m: ModelInfo) =>
    Math.min(input.maxOutputTokens ?? DEFAULT_COMPLETION_TOKENS, m.maxOutputTokens);
  const costOf = (m: ModelInfo) => estimateCost(m, input.promptTokens, completionFor(m));
  const fits = (m: ModelInfo) => input.promptTokens + completionFor(m) <= m.contextWindow;
  const affordable = (m: ModelInfo) => input.maxCost === undefined || costOf(m) <= input.maxCost;
  const capable = (m: ModelInfo) => (!input.requireTools || m.tools) && (!input.requireVision || m.vision);

  const reachable = listModels().filter((m) => available.includes(m.provider) && capable(m));
  const online = reachable.filter((m) => m.tier !== 'offline');
  // The offline echo model is only a stand-in for when no real provider can be called.
  const pool = online.length > 0 ? online : reachable;
  const cheapest = (models: ModelInfo[]) =>
    [...models].sort((a, b) => costOf(a) - costOf(b) || TIER_RANK[b.tier] - TIER_RANK[a.tier])[0];

  const choose = (model: ModelInfo, reason: string): RouteChoice => ({
    model,
    fallbacks: fallbacksFor(
      model,
      pool.filter((m) => fits(m) && affordable(m)),
      costOf,
    ),
    reason,
    estimatedCost: costOf(model),
    completionTokens: completionFor(model),
  });
  const money = (usd: number) => `$${usd.toFixed(6)}`;

  if (input.preferredModel !== undefined && input.preferredModel !== '') {
    const preferred = findModel(input.preferredModel, available);
    if (!preferred) {
      const known = findModel(input.preferredModel);
      return {
        error: 'model_not_found',
        input: 'preferredModel',
        message: known
          ? `model ${input.preferredModel} needs provider ${known.provider}, which is not configured`
          : `model ${input.preferredModel} is not in the catalog`,
      };
    }
    const floor = TIER_RANK[preferred.tier];
    if (input.autoSelect) {
      const best = cheapest(pool.filter((m) => fits(m) && affordable(m) && TIER_RANK[m.tier] >= floor));
      if (best) return choose(best, `autoSelect: cheapest adequate model at or above ${preferred.tier} tier`);
    } else if (fits(preferred) && affordable(preferred)) {
      return choose(preferred, 'preferred model');
    } else if (!fits(preferred)) {
      const bigger = cheapest(pool.filter((m) => fits(m) && affordable(m) && TIER_RANK[m.tier] >= floor));
      if (bigger) {
        return choose(bigger, `preferred model ${preferred.key} cannot hold the prompt; using ${bigger.key}`);
      }
      return {
        error: 'context_too_long',
        message: `prompt of ${input.promptTokens} tokens does not fit ${preferred.key} or an affordable alternative`,
      };
    }
    // Over budget from here on.
    const wanted = input.autoSelect ? undefined : preferred;
    if (input.overBudget === 'refuse') {
      return {
        error: 'over_budget',
        input: 'maxCost',
        message: wanted
          ? `estimated cost ${money(costOf(wanted))} of ${wanted.key} exceeds maxCost ${money(input.maxCost ?? 0)}`
          : `no model at or above ${preferred.tier} tier fits maxCost ${money(input.maxCost ?? 0)}`,
      };
    }
    const downgrade = bestDowngrade(
      preferred,
      pool.filter((m) => fits(m) && affordable(m)),
      costOf,
    );
    if (downgrade) {
      return choose(
        downgrade,
        `${preferred.key} estimated ${money(costOf(preferred))} exceeds maxCost ${money(input.maxCost ?? 0)}; downgraded to ${downgrade.key}`,
      );
    }
    return {
      error: 'over_budget',
      input: 'maxCost',
      message: `no available model fits maxCost ${money(input.maxCost ?? 0)} for ${input.promptTokens} prompt tokens`,
    };
  }

  if (pool.length === 0)
    return { error: 'model_not_found', message: 'no configured provider offers a suitable model' };
  const fitting = pool.filter(fits);
  if (fitting.length === 0) {
    return {
      error: 'context_too_long',
      message: `prompt of ${input.promptTokens} tokens fits no available model`,
    };
  }
  const floor = TIER_RANK[input.minTier ?? 'economy'];
  const inBudget = fitting.filter(affordable);
  const best = cheapest(inBudget.filter((m) => TIER_RANK[m.tier] >= floor || m.tier === 'offline'));
  if (best)
    return choose(
      best,
      best.tier === 'offline' ? 'no provider configured: offline model' : 'cheapest adequate model',
    );
  const below = input.overBudget === 'refuse' ? undefined : cheapest(inBudget);
  if (below)
    return choose(below, `nothing at ${input.minTier} tier fits maxCost; downgraded to ${below.key}`);
  return {
    error: 'over_budget',
    message: `no available model fits maxCost ${money(input.maxCost ?? 0)} for ${input.promptTokens} prompt tokens`,
  };
}

/** Keeps as much quality as the budget allows: highest tier not above the preferred one, same provider first. */
function bestDowngrade(
  preferred: ModelInfo,
  candidates: ModelInfo[],
  costOf: (m: ModelInfo) => number,
): ModelInfo | undefined {
  const rank = TIER_RANK[preferred.tier];
  return candidates
    .filter((m) => TIER_RANK[m.tier] <= rank && m.key !== preferred.key)
    .sort(
      (a, b) =>
        TIER_RANK[b.tier] - TIER_RANK[a.tier] ||
        Number(b.provider === preferred.provider) - Number(a.provider === preferred.provider) ||
        costOf(a) - costOf(b),
    )[0];
}

/** Fallbacks exist for outages, so another provider beats another model of the same provider. */
function fallbacksFor(
  chosen: ModelInfo,
  candidates: ModelInfo[],
  costOf: (m: ModelInfo) => number,
): ModelInfo[] {
  const rank = TIER_RANK[chosen.tier];
  return candidates
    .filter((m) => m.key !== chosen.key && (m.tier !== 'offline' || chosen.tier === 'offline'))
    .sort(
      (a, b) =>
        Number(a.provider === chosen.provider) - Number(b.provider === chosen.provider) ||
        Math.abs(TIER_RANK[a.tier] - rank) - Math.abs(TIER_RANK[b.tier] - rank) ||
        costOf(a) - costOf(b),
    )
    .slice(0, MAX_FALLBACKS);
}
