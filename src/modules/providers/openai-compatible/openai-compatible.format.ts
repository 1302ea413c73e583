import { ProviderError } from '../errors.js';
import { invalidResponse, streamEndedEarly, type WireFormat } from '../shared/adapter.js';
import { asArray, asNumber, asRecord, makeUsage } from '../shared/chunks.js';
import { joinUrl } from '../shared/http.js';
import { parseEventJson, type SseEvent } from '../shared/sse.js';
import type { CallContext, ChatChunk, ChatRequest, ChatResponse, ProviderId, Usage } from '../types.js';

export interface OpenAiLikeOptions {
  id: ProviderId;
  /** Whether the provider accepts stream_options.include_usage (Mistral sends usage unasked). */
  streamUsageOption: boolean;
  /** Rewrites the outgoing body for providers with stricter rules than OpenAI. */
  adjustBody?: (body: Record<string, unknown>) => void;
  /** Where the request goes and how it authenticates; OpenAI's Bearer scheme unless overridden (Azure). */
  target?: (req: ChatRequest, ctx: CallContext, baseUrl: string) => UpstreamTarget;
}

export interface UpstreamTarget {
  url: string;
  headers: Record<string, string>;
  /** Replaces body.model (Azure's v1 surface wants the deployment name there). */
  model?: string;
}

/** Everything the proxy may send except our own transport fields, which we set. */
export function openAiBody(
  req: ChatRequest,
  stream: boolean,
  streamUsageOption: boolean,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(req)) if (v !== undefined) body[k] = v;
  delete body['stream_options'];
  if (stream) {
    body['stream'] = true;
    if (streamUsageOption) {
      // Without include_usage OpenAI sends no usage at all on streams, and we bill from it.
      const asked = asRecord(req['stream_options']) ?? {};
      body['stream_options'] = { ...asked, include_usage: true };
    }
  } else {
    delete body['stream'];
  }
  return body;
}

export function openAiLikeFormat(options: OpenAiLikeOptions): WireFormat {
  const { id } = options;
  return {
    id,
    buildRequest(req, ctx, baseUrl, stream) {
      const body = openAiBody(req, stream, options.streamUsageOption);
      options.adjustBody?.(body);
      const target = options.target?.(req, ctx, baseUrl) ?? {
        url: joinUrl(baseUrl, '/chat/completions'),
        headers: { authorization: `Bearer ${ctx.apiKey}` },
      };
      if (target.model !== undefined) body['model'] = target.model;
      return { provider: id, url: target.url, headers: { ...ctx.headers, ...target.headers }, body };
    },
    parseResponse(body) {
      const obj = asRecord(body);
      if (!obj || !Array.isArray(obj['choices'])) throw invalidResponse(id, 'completion body', body);
      const usage = normaliseUsage(obj);
      const out = { ...obj, object: 'chat.completion' } as unknown as ChatResponse;
      if (usage) out.usage = usage;
      return out;
    },
    translateStream(events, _req) {
      return translateOpenAiStream(id, events);
    },
  };
}

function normaliseUsage(obj: Record<string, unknown>): Usage | undefined {
  // Groq reports stream usage under x_groq.usage instead of usage.
  const raw = asRecord(obj['usage']) ?? asRecord(asRecord(obj['x_groq'])?.['usage']);
  if (!raw) return undefined;
  const prompt = asNumber(raw['prompt_tokens']) ?? 0;
  const completion = asNumber(raw['completion_tokens']) ?? 0;
  return { ...raw, ...makeUsage(prompt, completion, asNumber(raw['total_tokens'])) } as Usage;
}

async function* translateOpenAiStream(
  id: ProviderId,
  events: AsyncIterable<SseEvent>,
): AsyncGenerator<ChatChunk> {
  let finished = false;
  let pendingUsage: ChatChunk | undefined;
  for await (const event of events) {
    if (event.data === '[DONE]') {
      finished = true;
      break;
    }
    const obj = asRecord(parseEventJson(id, event.data));
    if (!obj) continue;
    if (obj['error'] !== undefined) throw streamedError(id, obj);
    const choices = asArray(obj['choices']) as ChatChunk['choices'];
    const usage = normaliseUsage(obj);
    const { usage: _u, x_groq: _g, ...rest } = obj;
    const base = { ...rest, object: 'chat.completion.chunk' } as unknown as ChatChunk;
    if (choices.length > 0) {
      if (choices.some((c) => c.finish_reason)) finished = true;
      yield { ...base, choices };
    }
    // Azure opens with a choices:[] chunk of prompt_filter_results; it carries nothing for the caller.
    if (usage) pendingUsage = { ...base, choices: [], usage };
  }
  if (!finished) throw streamEndedEarly(id);
  if (pendingUsage) yield pendingUsage;
}

function streamedError(id: ProviderId, obj: Record<string, unknown>): ProviderError {
  const err = asRecord(obj['error']);
  const code = asNumber(err?.['code']) ?? asNumber(err?.['status']);
  const status = code !== undefined && code >= 400 && code < 600 ? code : 502;
  const message = typeof err?.['message'] === 'string' ? `: ${err['message']}` : '';
  return new ProviderError(`${id} reported an error mid-stream${message}`, {
    provider: id,
    status,
    body: obj,
    code: 'stream_error',
  });
}
