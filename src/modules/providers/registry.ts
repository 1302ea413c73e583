import { anthropicFormat, ANTHROPIC_BASE_URL } from './anthropic/anthropic.format.js';
import { azureFormat } from './azure/azure.format.js';
import { COHERE_BASE_URL, cohereFormat } from './cohere/cohere.format.js';
import { GOOGLE_BASE_URL, googleFormat } from './google/google.format.js';
import { offlineAdapter } from './offline/offline.adapter.js';
import {
  OPENAI_LIKE_BASE_URLS,
  type OpenAiLikeId,
  openAiLikeFormatFor,
} from './openai-compatible/providers.js';
import { createHttpAdapter } from './shared/adapter.js';
import { isProviderId, PROVIDER_IDS, type ProviderAdapter, type ProviderId } from './types.js';

export interface ProviderConfig {
  /**
   * Per-provider base URL overrides (tests point them at loopback). Defaults are the public endpoints;
   * Azure has none (it is per resource: https://{resource}.openai.azure.com) and needs this or ctx.baseUrl.
   */
  baseUrls?: Partial<Record<ProviderId, string>>;
}

export interface Providers {
  get(id: string): ProviderAdapter | undefined;
  ids(): ProviderId[];
}

/** Public base URLs. OpenAI-like ones include the version segment; the adapter appends the rest. */
export const DEFAULT_BASE_URLS: Partial<Record<ProviderId, string>> = {
  ...OPENAI_LIKE_BASE_URLS,
  anthropic: ANTHROPIC_BASE_URL,
  google: GOOGLE_BASE_URL,
  cohere: COHERE_BASE_URL,
};

function buildAdapter(id: ProviderId, baseUrl: string | undefined): ProviderAdapter {
  switch (id) {
    case 'parapet':
      return offlineAdapter;
    case 'azure':
      return createHttpAdapter(azureFormat, baseUrl);
    case 'anthropic':
      return createHttpAdapter(anthropicFormat, baseUrl);
    case 'google':
      return createHttpAdapter(googleFormat, baseUrl);
    case 'cohere':
      return createHttpAdapter(cohereFormat, baseUrl);
    default:
      return createHttpAdapter(openAiLikeFormatFor(id satisfies OpenAiLikeId), baseUrl);
  }
}

export function createProviders(config: ProviderConfig = {}): Providers {
  const adapters = new Map<ProviderId, ProviderAdapter>();
  for (const id of PROVIDER_IDS)
    adapters.set(id, buildAdapter(id, config.baseUrls?.[id] ?? DEFAULT_BASE_URLS[id]));
  return {
    get: (id) => (isProviderId(id) ? adapters.get(id) : undefined),
    ids: () => [...PROVIDER_IDS],
  };
}

let defaults: Providers | undefined;

/** The adapter for `id` with public base URLs; undefined for an unknown id. */
export function getAdapter(id: string): ProviderAdapter | undefined {
  defaults ??= createProviders();
  return defaults.get(id);
}
