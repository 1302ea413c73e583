import { asRecord, contentText, parseArguments, parseDataUrl } from '../shared/chunks.js';
import type { ChatMessage, ChatRequest, ContentPart } from '../types.js';

export const ANTHROPIC_VERSION = '2023-06-01';
// Messages API requires max_tokens; OpenAI callers usually leave it out.
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

type Block = Record<string, unknown>;
interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

/** OpenAI chat request → Anthropic Messages request body. */
export function toAnthropicBody(req: ChatRequest, stream: boolean): Record<string, unknown> {
  const system: string[] = [];
  const messages: AnthropicMessage[] = [];
  const push = (role: AnthropicMessage['role'], blocks: Block[]) => {
    if (blocks.length === 0) return;
    // Anthropic wants user/assistant turns to alternate: consecutive tool results (one OpenAI message per
    // call) have to land in one user turn.
    const last = messages[messages.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  };

  for (const m of req.messages) {
    if (m.role === 'system' || m.role === 'developer') {
      const text = contentText(m.content);
      if (text) system.push(text);
    } else if (m.role === 'user') {
      push('user', userBlocks(m.content));
    } else if (m.role === 'assistant') {
      push('assistant', assistantBlocks(m));
    } else if (m.role === 'tool') {
      push('user', [
        { type: 'tool_result', tool_use_id: m.tool_call_id ?? '', content: contentText(m.content) },
      ]);
    }
  }

  const body: Record<string, unknown> = {
    model: req.model,
    messages,
    max_tokens: req.max_tokens ?? numberField(req, 'max_completion_tokens') ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
  };
  if (system.length > 0) body['system'] = system.join('\n\n');
  if (req.temperature !== undefined) body['temperature'] = req.temperature;
  if (typeof req['top_p'] === 'number') body['top_p'] = req['top_p'];
  const stop = req['stop'];
  if (typeof stop === 'string') body['stop_sequences'] = [stop];
  else if (Array.isArray(stop)) body['stop_sequences'] = stop;
  if (typeof req['user'] === 'string') body['metadata'] = { user_id: req['user'] };
  if (Array.isArray(req.tools) && req.tools.length > 0) body['tools'] = req.tools.map(toAnthropicTool);
  const choice = toAnthropicToolChoice(req.tool_choice, req['parallel_tool_calls']);
  if (choice) body['tool_choice'] = choice;
  if (stream) body['stream'] = true;
  return body;
}

function numberField(req: ChatRequest, key: string): number | undefined {
  const v = req[key];
  return typeof v === 'number' ? v : undefined;
}

function userBlocks(content: ChatMessage['content']): Block[] {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  if (!Array.isArray(content)) return [];
  const blocks: Block[] = [];
  for (const part of content) {
    const block = partToBlock(part);
    if (block) blocks.push(block);
  }
  return blocks;
}

function partToBlock(part: ContentPart): Block | undefined {
  if (part.type === 'text' && typeof part['text'] === 'string') return { type: 'text', text: part['text'] };
  if (part.type === 'image_url') {
    const url = asRecord(part['image_url'])?.['url'];
    if (typeof url !== 'string') return undefined;
    const data = parseDataUrl(url);
    return data
      ? { type: 'image', source: { type: 'base64', media_type: data.mediaType, data: data.data } }
      : { type: 'image', source: { type: 'url', url } };
  }
  return undefined;
}

function assistantBlocks(m: ChatMessage): Block[] {
  const blocks: Block[] = [];
  const text = contentText(m.content);
  if (text) blocks.push({ type: 'text', text });
  for (const call of m.tool_calls ?? []) {
    blocks.push({
      type: 'tool_use',
      id: call.id,
      name: call.function.name,
      input: parseArguments(call.function.arguments),
    });
  }
  return blocks;
}

function toAnthropicTool(tool: unknown): Record<string, unknown> {
  const fn = asRecord(asRecord(tool)?.['function']) ?? {};
  const out: Record<string, unknown> = {
    name: fn['name'],
    input_schema: asRecord(fn['parameters']) ?? { type: 'object', properties: {} },
  };
  if (typeof fn['description'] === 'string') out['description'] = fn['description'];
  return out;
}

function toAnthropicToolChoice(choice: unknown, parallel: unknown): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  if (choice === 'auto') out = { type: 'auto' };
  else if (choice === 'required') out = { type: 'any' };
  else if (choice === 'none') out = { type: 'none' };
  else {
    const name = asRecord(asRecord(choice)?.['function'])?.['name'];
    if (typeof name === 'string') out = { type: 'tool', name };
  }
  if (parallel === false) out = { ...(out ?? { type: 'auto' }), disable_parallel_tool_use: true };
  return out;
}
