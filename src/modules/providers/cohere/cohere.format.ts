import type { WireFormat } from '../shared/adapter.js';
import { joinUrl } from '../shared/http.js';
import { toCohereBody } from './cohere.request.js';
import { fromCohereResponse, fromCohereStream } from './cohere.response.js';

export const COHERE_BASE_URL = 'https://api.cohere.com';

/** Cohere Chat v2 (POST {base}/v2/chat), Bearer auth. */
export const cohereFormat: WireFormat = {
  id: 'cohere',
  buildRequest(req, ctx, baseUrl, stream) {
    return {
      provider: 'cohere',
      url: joinUrl(baseUrl, '/v2/chat'),
      headers: { ...ctx.headers, authorization: `Bearer ${ctx.apiKey}` },
      body: toCohereBody(req, stream),
    };
  },
  parseResponse: fromCohereResponse,
  translateStream: fromCohereStream,
};
