import type { WireFormat } from '../shared/adapter.js';
import { joinUrl } from '../shared/http.js';
import { toGeminiBody } from './google.request.js';
import { fromGeminiResponse, fromGeminiStream } from './google.response.js';

export const GOOGLE_BASE_URL = 'https://generativelanguage.googleapis.com';

/**
 * Gemini API: {base}/v1beta/models/{model}:generateContent, and :streamGenerateContent?alt=sse for streams
 * (without alt=sse Gemini streams a JSON array instead of SSE). The key goes in x-goog-api-key rather than
 * ?key= so it never shows up in a logged URL.
 */
export const googleFormat: WireFormat = {
  id: 'google',
  buildRequest(req, ctx, baseUrl, stream) {
    const model = encodeURIComponent(req.model.replace(/^models\//, ''));
    const path = stream
      ? `/v1beta/models/${model}:streamGenerateContent?alt=sse`
      : `/v1beta/models/${model}:generateContent`;
    return {
      provider: 'google',
      url: joinUrl(baseUrl, path),
      headers: { ...ctx.headers, 'x-goog-api-key': ctx.apiKey },
      body: toGeminiBody(req),
    };
  },
  parseResponse: fromGeminiResponse,
  translateStream: fromGeminiStream,
};
