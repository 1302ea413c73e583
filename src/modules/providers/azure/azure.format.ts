import type { WireFormat } from '../shared/adapter.js';
import { joinUrl } from '../shared/http.js';
import { openAiLikeFormat, type UpstreamTarget } from '../openai-compatible/openai-compatible.format.js';
import type { CallContext, ChatRequest } from '../types.js';

/** The GA dated API version; callers pin another one (or 'v1') through ctx.azure.apiVersion. */
export const AZURE_DEFAULT_API_VERSION = '2024-10-21';

/**
 * Azure OpenAI speaks OpenAI chat-completions, but at a per-resource URL (there is no public default base
 * URL: it is https://{resource}.openai.azure.com) with the deployment in the path and an api-version.
 * apiVersion 'v1' selects the newer /openai/v1 surface, where the deployment name goes in `model`.
 */
export const azureFormat: WireFormat = openAiLikeFormat({
  id: 'azure',
  streamUsageOption: true,
  target: azureTarget,
});

function azureTarget(req: ChatRequest, ctx: CallContext, baseUrl: string): UpstreamTarget {
  const deployment = ctx.azure?.deployment ?? req.model;
  const apiVersion = ctx.azure?.apiVersion ?? AZURE_DEFAULT_API_VERSION;
  // Entra ID tokens travel as Bearer; resource keys in the api-key header.
  const headers: Record<string, string> = ctx.apiKey.startsWith('Bearer ')
    ? { authorization: ctx.apiKey }
    : { 'api-key': ctx.apiKey };
  if (apiVersion === 'v1') {
    return { url: joinUrl(baseUrl, '/openai/v1/chat/completions'), headers, model: deployment };
  }
  const path = `/openai/deployments/${encodeURIComponent(deployment)}/chat/completions`;
  return { url: `${joinUrl(baseUrl, path)}?api-version=${encodeURIComponent(apiVersion)}`, headers };
}
