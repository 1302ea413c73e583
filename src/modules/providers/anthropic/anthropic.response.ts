import { ProviderError } from '../errors.js';
import { invalidResponse, streamEndedEarly } from '../shared/adapter.js';
import {
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

const STOP_REASONS: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  // A long turn paused by the API (server tools): the client resends it to continue, so it is not finished.
  pause_turn: 'length',
  max_tokens: 'length',
  // Stopped by the context window, not finished: a cut answer (the chat stores only its finished part).
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

// Anthropic's error types carry no status inside a stream; these are the statuses it uses for them over HTTP.
const ERROR_STATUS: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

/**
 * An unknown stop reason maps to `length`: nothing says the model finished, and `stop` would let the chat
 * store an answer cut inside a value as if it were whole (gateway/cut-answer.ts). Fail closed.
 */
export function mapStopReason(reason: unknown): string | null {
  if (typeof reason !== 'string') return null;
  return STOP_REASONS[reason] ?? 'length';
}

function usageFrom(raw: Record<string, unknown> | undefined, outputTokens?: number): Usage {
  // Cached prompt tokens are reported apart from input_tokens but are still prompt tokens.
  const input =
    (asNumber(raw?.['input_tokens']) ?? 0) +
    (asNumber(raw?.['cache_creation_input_tokens']) ?? 0) +
    (asNumber(raw?.['cache_read_input_tokens']) ?? 0);
  return makeUsage(input, outputTokens ?? asNumber(raw?.['output_tokens']) ?? 0);
}

export function fromAnthropicResponse(body: unknown, req: ChatRequest): ChatResponse {
  const obj = asRecord(body);
  if (!obj || !Array.isArray(obj['content'])) throw invalidResponse('anthropic', 'message body', body);
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const b of obj['content']) {
    const block = asRecord(b);
    if (!block) continue;
    if (block['type'] === 'text') text += asString(block['text']) ?? '';
    else if (block['type'] === 'tool_use') {
      toolCalls.push({
        id: asString(block['id']) ?? '',
        type: 'function',
        function: { name: asString(block['name']) ?? '', arguments: JSON.stringify(block['input'] ?? {}) },
      });
    }
    // thinking / redacted_thinking blocks are not part of the OpenAI shape and must never be altered.
  }
  return {
    id: asString(obj['id']) ?? '',
    object: 'chat.completion',
    created: nowSeconds(),
    model: asString(obj['model']) ?? req.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text || (toolCalls.length > 0 ? null : ''),
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: mapStopReason(obj['stop_reason']),
      },
    ],
    usage: usageFrom(asRecord(obj['usage'])),
  };
}

export async function* fromAnthropicStream(
  events: AsyncIterable<SseEvent>,
  req: ChatRequest,
): AsyncGenerator<ChatChunk> {
  const meta: ChunkMeta = { id: '', created: nowSeconds(), model: req.model };
  let inputUsage: Record<string, unknown> | undefined;
  let outputTokens = 0;
  let stopped = false;
  // Anthropic numbers content blocks (text and tool_use together); OpenAI numbers tool calls only.
  const toolIndexByBlock = new Map<number, number>();

  for await (const event of events) {
    const obj = asRecord(parseEventJson('anthropic', event.data));
    if (!obj) continue;
    const type = asString(obj['type']) ?? event.event;
    if (type === 'message_start') {
      const message = asRecord(obj['message']);
      meta.id = asString(message?.['id']) ?? meta.id;
      meta.model = asString(message?.['model']) ?? meta.model;
      inputUsage = asRecord(message?.['usage']);
      yield chunk(meta, { role: 'assistant', content: '' });
    } else if (type === 'content_block_start') {
      const block = asRecord(obj['content_block']);
      if (block?.['type'] === 'tool_use') {
        const toolIndex = toolIndexByBlock.size;
        toolIndexByBlock.set(asNumber(obj['index']) ?? -1, toolIndex);
        yield chunk(meta, {
          tool_calls: [
            {
              index: toolIndex,
              id: asString(block['id']) ?? '',
              type: 'function',
              function: { name: asString(block['name']) ?? '', arguments: '' },
            },
          ],
        });
      }
    } else if (type === 'content_block_delta') {
      const delta = asRecord(obj['delta']);
      if (delta?.['type'] === 'text_delta') {
        yield chunk(meta, { content: asString(delta['text']) ?? '' });
      } else if (delta?.['type'] === 'input_json_delta') {
        const toolIndex = toolIndexByBlock.get(asNumber(obj['index']) ?? -1);
        if (toolIndex !== undefined) {
          yield chunk(meta, {
            tool_calls: [
              { index: toolIndex, function: { arguments: asString(delta['partial_json']) ?? '' } },
            ],
          });
        }
      }
    } else if (type === 'message_delta') {
      outputTokens = asNumber(asRecord(obj['usage'])?.['output_tokens']) ?? outputTokens;
      const reason = mapStopReason(asRecord(obj['delta'])?.['stop_reason']);
      yield chunk(meta, {}, reason ?? 'stop');
    } else if (type === 'message_stop') {
      stopped = true;
      break;
    } else if (type === 'error') {
      const err = asRecord(obj['error']);
      const errType = asString(err?.['type']) ?? 'api_error';
      throw new ProviderError(`anthropic reported ${errType} mid-stream`, {
        provider: 'anthropic',
        status: ERROR_STATUS[errType] ?? 502,
        body: obj,
        code: 'stream_error',
      });
    }
    // ping and event types added later are ignored on purpose.
  }
  if (!stopped) throw streamEndedEarly('anthropic');
  yield usageChunk(meta, usageFrom(inputUsage, outputTokens));
}
