import { asRecord, contentText } from '../shared/chunks.js';
import type { ChatMessage, ChatRequest } from '../types.js';

/** OpenAI chat request → Cohere Chat v2 body. The shapes are close; the differences are handled here. */
export function toCohereBody(req: ChatRequest, stream: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { model: req.model, messages: req.messages.map(toCohereMessage) };
  const num = (k: string) => (typeof req[k] === 'number' ? (req[k] as number) : undefined);
  if (req.temperature !== undefined) body['temperature'] = req.temperature;
  const max = req.max_tokens ?? num('max_completion_tokens');
  if (max !== undefined) body['max_tokens'] = max;
  const topP = num('top_p');
  if (topP !== undefined) body['p'] = topP;
  for (const k of ['seed', 'frequency_penalty', 'presence_penalty'] as const) {
    const v = num(k);
    if (v !== undefined) body[k] = v;
  }
  const stop = req['stop'];
  if (typeof stop === 'string') body['stop_sequences'] = [stop];
  else if (Array.isArray(stop)) body['stop_sequences'] = stop;
  if (Array.isArray(req.tools) && req.tools.length > 0) body['tools'] = req.tools;
  // Cohere v2 only knows REQUIRED and NONE; 'auto' is its default and a named function has no equivalent.
  if (req.tool_choice === 'required') body['tool_choice'] = 'REQUIRED';
  else if (req.tool_choice === 'none') body['tool_choice'] = 'NONE';
  const format = asRecord(req['response_format']);
  if (format?.['type'] === 'json_object') body['response_format'] = { type: 'json_object' };
  if (format?.['type'] === 'json_schema') {
    body['response_format'] = {
      type: 'json_object',
      json_schema: asRecord(format['json_schema'])?.['schema'],
    };
  }
  if (stream) body['stream'] = true;
  return body;
}

function toCohereMessage(m: ChatMessage): Record<string, unknown> {
  if (m.role === 'system' || m.role === 'developer')
    return { role: 'system', content: contentText(m.content) };
  if (m.role === 'tool') {
    return { role: 'tool', tool_call_id: m.tool_call_id ?? '', content: contentText(m.content) };
  }
  if (m.role === 'assistant') {
    const text = contentText(m.content);
    if (m.tool_calls && m.tool_calls.length > 0) {
      // Cohere puts the text that accompanies tool calls in tool_plan, not content.
      const out: Record<string, unknown> = {
        role: 'assistant',
        tool_calls: m.tool_calls.map((c) => ({ id: c.id, type: 'function', function: c.function })),
      };
      if (text) out['tool_plan'] = text;
      return out;
    }
    return { role: 'assistant', content: text };
  }
  if (Array.isArray(m.content)) {
    const parts = m.content
      .map((p) => {
        if (p.type === 'text') return { type: 'text', text: p['text'] };
        if (p.type === 'image_url') return { type: 'image_url', image_url: p['image_url'] };
        return undefined;
      })
      .filter((p) => p !== undefined);
    return { role: 'user', content: parts };
  }
  return { role: 'user', content: m.content ?? '' };
}
