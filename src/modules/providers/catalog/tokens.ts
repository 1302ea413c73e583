import { contentText } from '../shared/chunks.js';
import type { ChatMessage } from '../types.js';

/**
 * Rough token count without a tokenizer: about 4 characters per token for Latin text, about one token per
 * character for CJK and similar scripts. Good enough for routing and budgets; billing uses provider usage.
 */
export function estimateTokens(text: string): number {
  if (!text) return 0;
  let latin = 0;
  let wide = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x0300) latin++;
    else if (code >= 0xd800 && code <= 0xdbff) {
      // A surrogate pair (emoji, rare CJK) is one character and usually one or two tokens.
      wide++;
      i++;
    } else if (code >= 0x2e80) wide++;
    else latin += 2; // accented Latin, Greek, Cyrillic, Hebrew, Arabic: roughly two "Latin" characters each
  }
  return Math.ceil(latin / 4) + wide;
}

// OpenAI's accounting adds a few tokens per message for role and framing, and a few to prime the reply.
const PER_MESSAGE_TOKENS = 4;
const REPLY_PRIMING_TOKENS = 3;

export function estimateMessagesTokens(messages: ChatMessage[]): number {
  let total = REPLY_PRIMING_TOKENS;
  for (const m of messages) {
    total += PER_MESSAGE_TOKENS + estimateTokens(contentText(m.content));
    if (m.name) total += estimateTokens(m.name);
    for (const call of m.tool_calls ?? []) {
      total += estimateTokens(call.function.name) + estimateTokens(call.function.arguments);
    }
  }
  return total;
}
