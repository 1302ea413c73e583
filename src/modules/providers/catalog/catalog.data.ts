import type { ModelTier, ProviderId } from '../types.js';

/** When the prices below were last checked against the providers' public price pages. */
export const PRICES_AS_OF = '2025-11';

/**
 * One row per model: [provider, model id, context window, max output tokens, USD per 1M input tokens,
 * USD per 1M output tokens, tier, tools, vision]. Standard (non-batch, non-cached, short-context) list
 * prices. Edit here; docs/providers.md explains each field and how routing uses it.
 */
export type CatalogRow = [ProviderId, string, number, number, number, number, ModelTier, boolean, boolean];

export const CATALOG_ROWS: CatalogRow[] = [
  ['openai', 'gpt-5', 400_000, 128_000, 1.25, 10, 'premium', true, true],
  ['openai', 'gpt-5-mini', 400_000, 128_000, 0.25, 2, 'standard', true, true],
  ['openai', 'gpt-5-nano', 400_000, 128_000, 0.05, 0.4, 'economy', true, true],
  ['openai', 'gpt-4.1', 1_047_576, 32_768, 2, 8, 'premium', true, true],
  ['openai', 'gpt-4.1-mini', 1_047_576, 32_768, 0.4, 1.6, 'standard', true, true],
  ['openai', 'gpt-4.1-nano', 1_047_576, 32_768, 0.1, 0.4, 'economy', true, true],
  ['openai', 'gpt-4o', 128_000, 16_384, 2.5, 10, 'premium', true, true],
  ['openai', 'gpt-4o-mini', 128_000, 16_384, 0.15, 0.6, 'economy', true, true],
  ['openai', 'o4-mini', 200_000, 100_000, 1.1, 4.4, 'standard', true, true],

  ['azure', 'gpt-4.1', 1_047_576, 32_768, 2, 8, 'premium', true, true],
  ['azure', 'gpt-4.1-mini', 1_047_576, 32_768, 0.4, 1.6, 'standard', true, true],
  ['azure', 'gpt-4o', 128_000, 16_384, 2.5, 10, 'premium', true, true],
  ['azure', 'gpt-4o-mini', 128_000, 16_384, 0.15, 0.6, 'economy', true, true],

  ['anthropic', 'claude-opus-4-1', 200_000, 32_000, 15, 75, 'premium', true, true],
  ['anthropic', 'claude-sonnet-4-5', 200_000, 64_000, 3, 15, 'premium', true, true],
  ['anthropic', 'claude-haiku-4-5', 200_000, 64_000, 1, 5, 'standard', true, true],
  ['anthropic', 'claude-3-5-haiku-latest', 200_000, 8_192, 0.8, 4, 'economy', true, true],

  ['google', 'gemini-2.5-pro', 1_048_576, 65_536, 1.25, 10, 'premium', true, true],
  ['google', 'gemini-2.5-flash', 1_048_576, 65_536, 0.3, 2.5, 'standard', true, true],
  ['google', 'gemini-2.5-flash-lite', 1_048_576, 65_536, 0.1, 0.4, 'economy', true, true],
  ['google', 'gemini-2.0-flash', 1_048_576, 8_192, 0.1, 0.4, 'economy', true, true],

  ['mistral', 'mistral-large-latest', 131_072, 32_768, 2, 6, 'premium', true, false],
  ['mistral', 'mistral-medium-latest', 131_072, 32_768, 0.4, 2, 'standard', true, true],
  ['mistral', 'mistral-small-latest', 131_072, 32_768, 0.1, 0.3, 'economy', true, true],

  ['cohere', 'command-a-03-2025', 256_000, 8_000, 2.5, 10, 'premium', true, false],
  ['cohere', 'command-r-plus-08-2024', 128_000, 4_000, 2.5, 10, 'premium', true, false],
  ['cohere', 'command-r-08-2024', 128_000, 4_000, 0.15, 0.6, 'economy', true, false],
  ['cohere', 'command-r7b-12-2024', 128_000, 4_000, 0.0375, 0.15, 'economy', true, false],

  ['groq', 'llama-3.3-70b-versatile', 131_072, 32_768, 0.59, 0.79, 'standard', true, false],
  ['groq', 'llama-3.1-8b-instant', 131_072, 8_192, 0.05, 0.08, 'economy', true, false],
  ['groq', 'openai/gpt-oss-120b', 131_072, 65_536, 0.15, 0.75, 'standard', true, false],

  [
    'together',
    'meta-llama/Llama-3.3-70B-Instruct-Turbo',
    131_072,
    8_192,
    0.88,
    0.88,
    'standard',
    true,
    false,
  ],
  [
    'together',
    'meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo',
    131_072,
    8_192,
    0.18,
    0.18,
    'economy',
    true,
    false,
  ],
  ['together', 'Qwen/Qwen2.5-72B-Instruct-Turbo', 32_768, 8_192, 1.2, 1.2, 'standard', true, false],

  [
    'fireworks',
    'accounts/fireworks/models/llama-v3p3-70b-instruct',
    131_072,
    16_384,
    0.9,
    0.9,
    'standard',
    true,
    false,
  ],
  [
    'fireworks',
    'accounts/fireworks/models/llama-v3p1-8b-instruct',
    131_072,
    16_384,
    0.2,
    0.2,
    'economy',
    true,
    false,
  ],

  ['openrouter', 'openai/gpt-4o-mini', 128_000, 16_384, 0.15, 0.6, 'economy', true, true],
  ['openrouter', 'anthropic/claude-sonnet-4.5', 200_000, 64_000, 3, 15, 'premium', true, true],
  ['openrouter', 'google/gemini-2.5-flash', 1_048_576, 65_536, 0.3, 2.5, 'standard', true, true],

  // The built-in offline echo model: free, local, and never chosen while a real provider is available.
  ['parapet', 'parapet-offline-echo', 32_768, 4_096, 0, 0, 'offline', false, false],
];
