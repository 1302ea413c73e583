import type { ChatChunk, ChunkDelta, Usage } from '../types.js';

export interface ChunkMeta {
  id: string;
  created: number;
  model: string;
}

export function chunk(meta: ChunkMeta, delta: ChunkDelta, finishReason: string | null = null): ChatChunk {
  return {
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

export function usageChunk(meta: ChunkMeta, usage: Usage): ChatChunk {
  return {
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    choices: [],
    usage,
  };
}

export function makeUsage(prompt: number, completion: number, total?: number): Usage {
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total ?? prompt + completion };
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** Text of a message content, whatever its shape; non-text parts are left out. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) {
    if (part && typeof part === 'object' && (part as { type?: unknown }).type === 'text') {
      const t = (part as { text?: unknown }).text;
      if (typeof t === 'string') text += t;
    }
  }
  return text;
}

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Parses tool-call arguments; providers other than OpenAI want an object, and models sometimes emit junk. */
export function parseArguments(args: string | undefined): Record<string, unknown> {
  if (!args) return {};
  try {
    const parsed: unknown = JSON.parse(args);
    return asRecord(parsed) ?? { value: parsed };
  } catch {
    return { _raw: args };
  }
}

/** Parses a data: URL into its media type and base64 payload. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const m = /^data:([^;,]+)?(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  if (!m) return undefined;
  return { mediaType: m[1] ?? 'application/octet-stream', data: m[2] ?? '' };
}
