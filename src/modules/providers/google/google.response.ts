import { ProviderError } from '../errors.js';
import { invalidResponse, streamEndedEarly } from '../shared/adapter.js';
import {
  asArray,
  asNumber,
  asRecord,
  asString,
  type ChunkMeta,
  chunk,
  makeUsage,
  nowSeconds,
  usageChunk,
} from '../shared/chunks.js';
import { parseEventJson, type SseEvent } from '../shared/sse.js';
import type { ChatChunk, ChatRequest, ChatResponse, ToolCall, Usage } from '../types.js';

const FINISH_REASONS: Record<string, string> = {
  STOP: 'stop',
  MAX_TOKENS: 'length',
  SAFETY: 'content_filter',
  RECITATION: 'content_filter',
  BLOCKLIST: 'content_filter',
  PROHIBITED_CONTENT: 'content_filter',
  SPII: 'content_filter',
  IMAGE_SAFETY: 'content_filter',
  IMAGE_PROHIBITED_CONTENT: 'content_filter',
  IMAGE_RECITATION: 'content_filter',
  // The model does not answer in that language: refused, as a filter would.
  LANGUAGE: 'content_filter',
};

/**
 * Every other reason (OTHER, MALFORMED_FUNCTION_CALL, UNEXPECTED_TOOL_CALL, TOO_MANY_TOOL_CALLS,
 * FINISH_REASON_UNSPECIFIED, and any added later) maps to `length`: the answer did not finish, and `stop`
 * would let the chat store one cut inside a value as if it were whole (gateway/cut-answer.ts). Fail closed.
 */
function mapFinish(reason: unknown, hasToolCalls: boolean): string | null {
  if (typeof reason !== 'string') return null;
  if (hasToolCalls && reason === 'STOP') return 'tool_calls';
  return FINISH_REASONS[reason] ?? 'length';
}

function usageFrom(raw: Record<string, unknown> | undefined): Usage | undefined {
  if (!raw) return undefined;
  const prompt = asNumber(raw['promptTokenCount']) ?? 0;
  // Thinking tokens are billed as output.
  const completion =
    (asNumber(raw['candidatesTokenCount']) ?? 0) + (asNumber(raw['thoughtsTokenCount']) ?? 0);
  return makeUsage(prompt, completion, asNumber(raw['totalTokenCount']));
}

interface CandidateParts {
  text: string;
  toolCalls: ToolCall[];
}

/** Gemini sends whole function calls with no id; a stable made-up id lets tool results find their call. */
function readParts(
  candidate: Record<string, unknown>,
  callOffset: number,
  responseId: string,
): CandidateParts {
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const p of asArray(asRecord(candidate['content'])?.['parts'])) {
    const part = asRecord(p);
    if (!part) continue;
    // Thought summaries are not the answer.
    if (part['thought'] === true) continue;
    if (typeof part['text'] === 'string') text += part['text'];
    const fc = asRecord(part['functionCall']);
    if (fc) {
      const call: ToolCall = {
        id: asString(fc['id']) ?? `call_${responseId}_${callOffset + toolCalls.length}`,
        type: 'function',
        function: { name: asString(fc['name']) ?? '', arguments: JSON.stringify(fc['args'] ?? {}) },
      };
      const signature = asString(part['thoughtSignature']);
      if (signature) call.thought_signature = signature;
      toolCalls.push(call);
    }
  }
  return { text, toolCalls };
}

export function fromGeminiResponse(body: unknown, req: ChatRequest): ChatResponse {
  const obj = asRecord(body);
  if (!obj || !Array.isArray(obj['candidates'])) {
    // A prompt blocked by safety settings comes back with promptFeedback and no candidates.
    if (obj && asRecord(obj['promptFeedback'])) return blockedResponse(obj, req);
    throw invalidResponse('google', 'generateContent body', body);
  }
  const id = asString(obj['responseId']) ?? '';
  const choices = obj['candidates'].map((c, i) => {
    const candidate = asRecord(c) ?? {};
    const { text, toolCalls } = readParts(candidate, 0, id);
    return {
      index: asNumber(candidate['index']) ?? i,
      message: {
        role: 'assistant' as const,
        content: text || (toolCalls.length > 0 ? null : ''),
        ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
      },
      finish_reason: mapFinish(candidate['finishReason'], toolCalls.length > 0),
    };
  });
  const usage = usageFrom(asRecord(obj['usageMetadata']));
  return {
    id,
    object: 'chat.completion',
    created: nowSeconds(),
    model: asString(obj['modelVersion']) ?? req.model,
    choices,
    ...(usage ? { usage } : {}),
  };
}

function blockedResponse(obj: Record<string, unknown>, req: ChatRequest): ChatResponse {
  const usage = usageFrom(asRecord(obj['usageMetadata']));
  return {
    id: asString(obj['responseId']) ?? '',
    object: 'chat.completion',
    created: nowSeconds(),
    model: asString(obj['modelVersion']) ?? req.model,
    choices: [{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter' }],
    ...(usage ? { usage } : {}),
  };
}

/** streamGenerateContent?alt=sse: every event is a whole GenerateContentResponse holding the delta. */
export async function* fromGeminiStream(
  events: AsyncIterable<SseEvent>,
  req: ChatRequest,
): AsyncGenerator<ChatChunk> {
  const meta: ChunkMeta = { id: '', created: nowSeconds(), model: req.model };
  let usage: Usage | undefined;
  let finished = false;
  let started = false;
  let toolCount = 0;
  for await (const event of events) {
    const obj = asRecord(parseEventJson('google', event.data));
    if (!obj) continue;
    const err = asRecord(obj['error']);
    if (err) {
      const code = asNumber(err['code']);
      throw new ProviderError(
        `google reported an error mid-stream: ${asString(err['message']) ?? 'unknown'}`,
        {
          provider: 'google',
          status: code !== undefined && code >= 400 && code < 600 ? code : 502,
          body: obj,
          code: 'stream_error',
        },
      );
    }
    meta.id = asString(obj['responseId']) ?? meta.id;
    meta.model = asString(obj['modelVersion']) ?? meta.model;
    usage = usageFrom(asRecord(obj['usageMetadata'])) ?? usage;
    if (!started) {
      started = true;
      yield chunk(meta, { role: 'assistant', content: '' });
    }
    const candidate = asRecord(asArray(obj['candidates'])[0]);
    if (!candidate) {
      if (asRecord(obj['promptFeedback'])?.['blockReason']) {
        finished = true;
        yield chunk(meta, {}, 'content_filter');
      }
      continue;
    }
    const { text, toolCalls } = readParts(candidate, toolCount, meta.id);
    if (text) yield chunk(meta, { content: text });
    if (toolCalls.length > 0) {
      yield chunk(meta, {
        tool_calls: toolCalls.map((call, i) => ({ index: toolCount + i, ...call })),
      });
      toolCount += toolCalls.length;
    }
    if (candidate['finishReason'] !== undefined) {
      finished = true;
      yield chunk(meta, {}, mapFinish(candidate['finishReason'], toolCount > 0));
    }
  }
  if (!finished) throw streamEndedEarly('google');
  if (usage) yield usageChunk(meta, usage);
}
