import type { WireFormat } from '../shared/adapter.js';
import { joinUrl } from '../shared/http.js';
import { ANTHROPIC_VERSION, toAnthropicBody } from './anthropic.request.js';
import { fromAnthropicResponse, fromAnthropicStream } from './anthropic.response.js';

export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

/** Anthropic Messages API (POST {base}/v1/messages). */
export const anthropicFormat: WireFormat = {
  id: 'anthropic',
  buildRequest(req, ctx, baseUrl, stream) {
    return {
      provider: 'anthropic',
      url: joinUrl(baseUrl, '/v1/messages'),
      headers: { ...ctx.headers, 'x-api-key': ctx.apiKey, 'anthropic-version': ANTHROPIC_VERSION },
      body: toAnthropicBody(req, stream),
    };
  },
  parseResponse: fromAnthropicResponse,
  translateStream: fromAnthropicStream,
};
