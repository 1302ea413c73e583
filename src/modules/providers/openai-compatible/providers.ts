import type { WireFormat } from '../shared/adapter.js';
import type { ProviderId } from '../types.js';
import { mistralAdjustBody } from './mistral-rules.js';
import { openAiLikeFormat } from './openai-compatible.format.js';

export type OpenAiLikeId = Extract<
  ProviderId,
  'openai' | 'mistral' | 'openrouter' | 'together' | 'fireworks' | 'groq'
>;

/** Public base URLs; the adapter appends /chat/completions. */
export const OPENAI_LIKE_BASE_URLS: Record<OpenAiLikeId, string> = {
  openai: 'https://api.openai.com/v1',
  mistral: 'https://api.mistral.ai/v1',
  openrouter: 'https://openrouter.ai/api/v1',
  together: 'https://api.together.xyz/v1',
  fireworks: 'https://api.fireworks.ai/inference/v1',
  groq: 'https://api.groq.com/openai/v1',
};

export function openAiLikeFormatFor(id: OpenAiLikeId): WireFormat {
  if (id === 'mistral')
    return openAiLikeFormat({ id, streamUsageOption: false, adjustBody: mistralAdjustBody });
  return openAiLikeFormat({ id, streamUsageOption: true });
}
