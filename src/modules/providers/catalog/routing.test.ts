import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DEFAULT_COMPLETION_TOKENS,
  estimateCost,
  listModels,
  type ModelInfo,
  PROVIDER_IDS,
  type ProviderId,
  type RouteChoice,
  type RouteResult,
  route,
  TIER_RANK,
} from '../index.js';

const ALL = [...PROVIDER_IDS];

function chosen(r: RouteResult): RouteChoice {
  assert.ok(!('error' in r), `expected a model, got ${JSON.stringify(r)}`);
  return r;
}

function costAt(m: ModelInfo, prompt: number): number {
  return estimateCost(m, prompt, Math.min(DEFAULT_COMPLETION_TOKENS, m.maxOutputTokens));
}

describe('route: preferred model', () => {
  it('honours the preferred model when its provider is available and it fits', () => {
    const r = chosen(
      route({ preferredModel: 'claude-sonnet-4-5', promptTokens: 500, availableProviders: ALL }),
    );
    assert.equal(r.model.key, 'anthropic/claude-sonnet-4-5');
    assert.equal(r.reason, 'preferred model');
    assert.equal(r.estimatedCost, costAt(r.model, 500));
  });

  it('says model_not_found for an unknown model or an unconfigured provider', () => {
    const unknown = route({ preferredModel: 'gpt-99', promptTokens: 10, availableProviders: ALL });
    assert.deepEqual('error' in unknown && unknown.error, 'model_not_found');
    const missing = route({
      preferredModel: 'gemini-2.5-pro',
      promptTokens: 10,
      availableProviders: ['openai'],
    });
    assert.ok(
      'error' in missing && missing.error === 'model_not_found' && missing.message.includes('google'),
    );
  });

  it('refuses when maxCost is exceeded and overBudget is refuse', () => {
    const r = route({
      preferredModel: 'anthropic/claude-opus-4-1',
      promptTokens: 10_000,
      maxCost: 0.01,
      overBudget: 'refuse',
      availableProviders: ALL,
    });
    assert.ok('error' in r && r.error === 'over_budget');
  });

  it('downgrades within budget to the highest affordable tier, same provider first on a tie', () => {
    const maxCost = 0.02;
    const preferred = 'anthropic/claude-opus-4-1';
    const r = chosen(
      route({ preferredModel: preferred, promptTokens: 10_000, maxCost, availableProviders: ALL }),
    );
    assert.ok(r.estimatedCost <= maxCost);
    assert.match(r.reason, /downgraded/);
    const affordable = listModels().filter(
      (m) => m.key !== preferred && m.tier !== 'offline' && costAt(m, 10_000) <= maxCost,
    );
    const bestTier = Math.max(...affordable.map((m) => TIER_RANK[m.tier]));
    assert.equal(TIER_RANK[r.model.tier], bestTier);
    const sameProviderAtBest = affordable.some(
      (m) => m.provider === 'anthropic' && TIER_RANK[m.tier] === bestTier,
    );
    assert.equal(r.model.provider === 'anthropic', sameProviderAtBest);
    assert.ok(sameProviderAtBest, 'the fixture budget leaves an Anthropic model at the best tier');
  });

  it('says over_budget when nothing at all fits the budget', () => {
    const r = route({
      preferredModel: 'gpt-4o',
      promptTokens: 100_000,
      maxCost: 1e-9,
      availableProviders: ALL,
    });
    assert.ok('error' in r && r.error === 'over_budget');
  });

  it('moves to a model with a larger context window when the prompt does not fit', () => {
    const r = chosen(
      route({ preferredModel: 'openai/gpt-4o', promptTokens: 300_000, availableProviders: ALL }),
    );
    assert.ok(r.model.contextWindow >= 300_000 + r.completionTokens);
    assert.ok(TIER_RANK[r.model.tier] >= TIER_RANK.premium);
  });
});

describe('route: autoSelect', () => {
  it('picks the cheapest adequate model among the available providers', () => {
    const available: ProviderId[] = ['openai', 'anthropic', 'mistral', 'parapet'];
    const r = chosen(route({ autoSelect: true, promptTokens: 2_000, availableProviders: available }));
    const candidates = listModels().filter((m) => available.includes(m.provider) && m.tier !== 'offline');
    const cheapest = Math.min(...candidates.map((m) => costAt(m, 2_000)));
    assert.equal(r.estimatedCost, cheapest);
    assert.notEqual(r.model.provider, 'parapet');
  });

  it('treats the preferred model as a quality floor', () => {
    const r = chosen(
      route({ autoSelect: true, preferredModel: 'gpt-4o', promptTokens: 2_000, availableProviders: ALL }),
    );
    assert.equal(r.model.tier, 'premium');
    const premium = listModels().filter((m) => m.tier === 'premium');
    assert.equal(r.estimatedCost, Math.min(...premium.map((m) => costAt(m, 2_000))));
  });

  it('honours requireVision and minTier', () => {
    const r = chosen(
      route({
        autoSelect: true,
        promptTokens: 100,
        requireVision: true,
        minTier: 'standard',
        availableProviders: ALL,
      }),
    );
    assert.ok(r.model.vision);
    assert.ok(TIER_RANK[r.model.tier] >= TIER_RANK.standard);
  });

  it('uses the offline model only when no real provider is available', () => {
    const r = chosen(route({ promptTokens: 50, availableProviders: ['parapet'] }));
    assert.equal(r.model.key, 'parapet/parapet-offline-echo');
    assert.deepEqual(r.fallbacks, []);
  });

  it('answers context_too_long when no model can hold the prompt', () => {
    const r = route({ autoSelect: true, promptTokens: 5_000_000, availableProviders: ALL });
    assert.ok('error' in r && r.error === 'context_too_long');
  });

  it('offers fallbacks within budget, other providers first, never the chosen or the offline model', () => {
    const r = chosen(
      route({
        preferredModel: 'openai/gpt-4o-mini',
        promptTokens: 1_000,
        maxCost: 0.01,
        availableProviders: ALL,
      }),
    );
    assert.ok(r.fallbacks.length > 0);
    assert.notEqual(r.fallbacks[0]?.provider, 'openai');
    for (const f of r.fallbacks) {
      assert.notEqual(f.key, r.model.key);
      assert.notEqual(f.provider, 'parapet');
      assert.ok(costAt(f, 1_000) <= 0.01);
    }
  });
});
