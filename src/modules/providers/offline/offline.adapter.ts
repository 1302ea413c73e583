import { ProviderError } from '../errors.js';
import { type ChunkMeta, chunk, contentText, makeUsage, nowSeconds, usageChunk } from '../shared/chunks.js';
import { estimateMessagesTokens, estimateTokens } from '../catalog/tokens.js';
import type { CallContext, ChatChunk, ChatRequest, ChatResponse, ProviderAdapter } from '../types.js';

export const OFFLINE_MODEL_ID = 'parapet-offline-echo';

/**
 * Parapet's built-in offline "model": not an LLM. It answers deterministically from the prompt (it quotes the
 * last user message), so protected chat, tokenization and rehydration can be shown with no provider key and
 * no network. The quote keeps any DLP tokens intact, which is what makes rehydration visible.
 */
export function offlineReply(req: ChatRequest): string {
  const lastUser = [...req.messages].reverse().find((m) => m.role === 'user');
  const said = lastUser ? contentText(lastUser.content).trim() : '';
  if (!said) return 'This is the Parapet offline model. Send a message and it will be echoed back.';
  return `Offline echo (no LLM provider configured), you said: ${said}`;
}

function abortedError(): ProviderError {
  return new ProviderError('parapet request aborted', {
    provider: 'parapet',
    status: 499,
    code: 'aborted',
    retryable: false,
  });
}

function responseId(req: ChatRequest): string {
  // Deterministic ids keep replies reproducible in tests and demos.
  let h = 0x811c9dc5;
  for (const m of req.messages) {
    const text = contentText(m.content);
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  }
  return `chatcmpl-offline-${h.toString(16).padStart(8, '0')}`;
}

/** Splits after whitespace so the pieces concatenate back to the exact reply. */
export function splitWords(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

export const offlineAdapter: ProviderAdapter = {
  id: 'parapet',
  async chat(req: ChatRequest, ctx: CallContext): Promise<ChatResponse> {
    if (ctx.signal?.aborted) throw abortedError();
    const reply = offlineReply(req);
    const prompt = estimateMessagesTokens(req.messages);
    return {
      id: responseId(req),
      object: 'chat.completion',
      created: nowSeconds(),
      model: OFFLINE_MODEL_ID,
      choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }],
      usage: makeUsage(prompt, estimateTokens(reply)),
    };
  },
  async *stream(req: ChatRequest, ctx: CallContext): AsyncGenerator<ChatChunk> {
    const meta: ChunkMeta = { id: responseId(req), created: nowSeconds(), model: OFFLINE_MODEL_ID };
    const reply = offlineReply(req);
    yield chunk(meta, { role: 'assistant', content: '' });
    for (const piece of splitWords(reply)) {
      // Give the event loop a turn per word so the consumer sees a real stream and can abort mid-way.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (ctx.signal?.aborted) throw abortedError();
      yield chunk(meta, { content: piece });
    }
    yield chunk(meta, {}, 'stop');
    yield usageChunk(meta, makeUsage(estimateMessagesTokens(req.messages), estimateTokens(reply)));
  },
};
