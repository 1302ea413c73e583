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
  COMPLETE: 'stop',
  STOP_SEQUENCE: 'stop',
  MAX_TOKENS: 'length',
  TOOL_CALL: 'tool_calls',
  ERROR_TOXIC: 'content_filter',
};

/**
 * Any other reason (ERROR, TIMEOUT, one added later) maps to `length`: the answer did not finish, and `stop`
 * would let the chat store one cut inside a value as if it were whole (gateway/cut-answer.ts). Fail closed.
 * A body without a reason keeps `stop`, as before: only a reason that names an unfinished end is a cut.
 */
function mapFinish(reason: unknown): string {
  return typeof reason === 'string' ? (FINISH_REASONS[reason] ?? 'length') : 'stop';
}

function usageFrom(raw: Record<string, unknown> | undefined): Usage | undefined {
  if (!raw) return undefined;
  // `tokens` counts what the model saw; billed_units is what Cohere charges. Prefer the former, like OpenAI.
  const counts = asRecord(raw['tokens']) ?? asRecord(raw['billed_units']);
  if (!counts) return undefined;
  return makeUsage(asNumber(counts['input_tokens']) ?? 0, asNumber(counts['output_tokens']) ?? 0);
}

function toToolCall(raw: unknown): ToolCall | undefined {
  const call = asRecord(raw);
  const fn = asRecord(call?.['function']);
  if (!call || !fn) return undefined;
  return {
    id: asString(call['id']) ?? '',
    type: 'function',
    function: { name: asString(fn['name']) ?? '', arguments: asString(fn['arguments']) ?? '{}' },
  };
}

export function fromCohereResponse(body: unknown, req: ChatRequest): ChatResponse {
  const obj = asRecord(body);
  const message = asRecord(obj?.['message']);
  if (!obj || !message) throw invalidResponse('cohere', 'chat body', body);
  let text = '';
  for (const part of asArray(message['content'])) {
    const p = asRecord(part);
    if (p?.['type'] === 'text') text += asString(p['text']) ?? '';
  }
  const toolCalls = asArray(message['tool_calls'])
    .map(toToolCall)
    .filter((c) => c !== undefined);
  // With tool calls the model's accompanying words come as tool_plan; OpenAI puts them in content.
  if (!text && toolCalls.length > 0) text = asString(message['tool_plan']) ?? '';
  const usage = usageFrom(asRecord(obj['usage']));
  return {
    id: asString(obj['id']) ?? '',
    object: 'chat.completion',
    created: nowSeconds(),
    model: req.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text || (toolCalls.length > 0 ? null : ''),
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: mapFinish(obj['finish_reason']),
      },
    ],
    ...(usage ? { usage } : {}),
  };
}

/** Cohere v2 stream: SSE events whose JSON carries a `type` (message-start … message-end). */
export async function* fromCohereStream(
  events: AsyncIterable<SseEvent>,
  req: ChatRequest,
): AsyncGenerator<ChatChunk> {
  const meta: ChunkMeta = { id: '', created: nowSeconds(), model: req.model };
  let ended = false;
  let usage: Usage | undefined;
  let toolCount = 0;
  for await (const event of events) {
    const obj = asRecord(parseEventJson('cohere', event.data));
    if (!obj) continue;
    const type = asString(obj['type']) ?? event.event;
    const delta = asRecord(obj['delta']);
    const message = asRecord(delta?.['message']);
    if (type === 'message-start') {
      meta.id = asString(obj['id']) ?? meta.id;
      yield chunk(meta, { role: 'assistant', content: '' });
    } else if (type === 'content-delta') {
      const text = asString(asRecord(message?.['content'])?.['text']);
      if (text) yield chunk(meta, { content: text });
    } else if (type === 'tool-plan-delta') {
      const plan = asString(message?.['tool_plan']);
      if (plan) yield chunk(meta, { content: plan });
    } else if (type === 'tool-call-start') {
      const call = toToolCall(message?.['tool_calls']);
      if (call) {
        yield chunk(meta, {
          tool_calls: [{ index: toolCount, id: call.id, type: 'function', function: call.function }],
        });
        toolCount++;
      }
    } else if (type === 'tool-call-delta') {
      const args = asString(asRecord(asRecord(message?.['tool_calls'])?.['function'])?.['arguments']);
      if (args) yield chunk(meta, { tool_calls: [{ index: toolCount - 1, function: { arguments: args } }] });
    } else if (type === 'message-end') {
      ended = true;
      const reason = delta?.['finish_reason'];
      if (reason === 'ERROR') {
        throw new ProviderError(
          `cohere ended the stream with an error: ${asString(delta?.['error']) ?? 'unknown'}`,
          {
            provider: 'cohere',
            status: 502,
            body: obj,
            code: 'stream_error',
          },
        );
      }
      usage = usageFrom(asRecord(delta?.['usage']));
      yield chunk(meta, {}, mapFinish(reason));
      break;
    }
    // content-start/-end, tool-call-end, citation-* and debug carry nothing the OpenAI shape needs.
  }
  if (!ended) throw streamEndedEarly('cohere');
  if (usage) yield usageChunk(meta, usage);
}
