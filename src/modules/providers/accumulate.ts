import type { ChatChunk, ChatMessage, ChatResponse, ToolCall } from './types.js';

/**
 * Folds a stream back into one ChatResponse (content and tool-call fragments joined per choice, usage from
 * the final chunk). Handy for tests, for caching a streamed answer and for auditing it.
 */
export async function collectStream(stream: AsyncIterable<ChatChunk>): Promise<ChatResponse> {
  const out: ChatResponse = { id: '', object: 'chat.completion', created: 0, model: '', choices: [] };
  const calls = new Map<number, Map<number, ToolCall>>();
  for await (const c of stream) {
    out.id ||= c.id;
    out.created ||= c.created;
    out.model ||= c.model;
    if (c.usage) out.usage = c.usage;
    for (const choice of c.choices) {
      let target = out.choices.find((x) => x.index === choice.index);
      if (!target) {
        target = { index: choice.index, message: { role: 'assistant', content: null }, finish_reason: null };
        out.choices.push(target);
      }
      const msg: ChatMessage = target.message;
      const delta = choice.delta;
      if (typeof delta.content === 'string')
        msg.content = (typeof msg.content === 'string' ? msg.content : '') + delta.content;
      for (const d of delta.tool_calls ?? []) {
        let perChoice = calls.get(choice.index);
        if (!perChoice) {
          perChoice = new Map();
          calls.set(choice.index, perChoice);
        }
        let call = perChoice.get(d.index);
        if (!call) {
          call = { id: '', type: 'function', function: { name: '', arguments: '' } };
          perChoice.set(d.index, call);
          msg.tool_calls = [...(msg.tool_calls ?? []), call];
        }
        if (d.id) call.id = d.id;
        if (d.function?.name) call.function.name += d.function.name;
        if (d.function?.arguments) call.function.arguments += d.function.arguments;
        if (d.thought_signature) call.thought_signature = d.thought_signature;
      }
      if (choice.finish_reason) target.finish_reason = choice.finish_reason;
    }
  }
  return out;
}
