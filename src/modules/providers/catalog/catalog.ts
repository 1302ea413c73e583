import type { ModelInfo, ModelTier, ProviderId } from '../types.js';
import { CATALOG_ROWS } from './catalog.data.js';

const MODELS: readonly ModelInfo[] = Object.freeze(
  CATALOG_ROWS.map(
    ([provider, id, contextWindow, maxOutputTokens, inputPerMTok, outputPerMTok, tier, tools, vision]) =>
      Object.freeze({
        provider,
        id,
        key: `${provider}/${id}`,
        contextWindow,
        maxOutputTokens,
        inputPerMTok,
        outputPerMTok,
        tier,
        tools,
        vision,
      }),
  ),
);

// The proxy looks up the model of every request; maps answer that without scanning the catalog. A bare id
// offered by several providers maps to the first in catalog order, as the scan below finds it.
const BY_KEY = new Map(MODELS.map((m) => [m.key, m]));
const BY_ID = new Map<string, ModelInfo>();
for (const m of MODELS) if (!BY_ID.has(m.id)) BY_ID.set(m.id, m);

export function listModels(): ModelInfo[] {
  return [...MODELS];
}

export const TIER_RANK: Record<ModelTier, number> = { offline: 0, economy: 1, standard: 2, premium: 3 };

/**
 * Finds a model by catalog key (`provider/id`, e.g. `openai/gpt-4o`) or by bare provider model id
 * (`gpt-4o`). A bare id offered by several providers resolves to the first one in catalog order among
 * `available` (all providers when omitted). Keys win over ids, so `openai/gpt-4o-mini` means OpenAI direct;
 * the same model through OpenRouter is `openrouter/openai/gpt-4o-mini`.
 */
export function findModel(name: string, available?: readonly ProviderId[]): ModelInfo | undefined {
  if (available === undefined) return BY_KEY.get(name) ?? BY_ID.get(name);
  const allowed = (m: ModelInfo) => available.includes(m.provider);
  return MODELS.find((m) => m.key === name && allowed(m)) ?? MODELS.find((m) => m.id === name && allowed(m));
}

/**
 * Money in answers is integer micro-dollars (millionths of a USD), so sums never show floating-point noise
 * such as 0.00024000999999999997; the USD figure beside it is derived from the integer.
 */
export function usdToMicros(usd: number): number {
  return Math.round(usd * 1_000_000);
}

/** The USD amount of an integer of micro-dollars (at most six decimals, printed exactly). */
export function microsToUsd(micros: number): number {
  return micros / 1_000_000;
}

/** USD for one call, rounded to 1e-10 so sums of many small calls stay readable. */
export function estimateCost(model: ModelInfo, promptTokens: number, completionTokens: number): number {
  const usd = (promptTokens * model.inputPerMTok + completionTokens * model.outputPerMTok) / 1_000_000;
  return Math.round(usd * 1e10) / 1e10;
}
