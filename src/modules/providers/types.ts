// The internal request/response shape is OpenAI chat-completions: the provider proxy speaks it natively and
// every other adapter translates to and from it.

import type { CancelSignal } from './shared/abort.js';

export const PROVIDER_IDS = [
  'openai',
  'azure',
  'anthropic',
  'google',
  'mistral',
  'cohere',
  'openrouter',
  'together',
  'fireworks',
  'groq',
  'parapet',
] as const;

/** 'parapet' is the built-in offline model; it never leaves the process. */
export type ProviderId = (typeof PROVIDER_IDS)[number];

export function isProviderId(value: string): value is ProviderId {
  return (PROVIDER_IDS as readonly string[]).includes(value);
}

export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: string } }
  | { type: string; [k: string]: unknown };

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
  /** Gemini's opaque thoughtSignature; must be replayed verbatim on the next turn. */
  thought_signature?: string;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool' | 'developer';
  content: string | ContentPart[] | null;
  name?: string;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  refusal?: string | null;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  max_tokens?: number;
  tools?: unknown[];
  tool_choice?: unknown;
  stream?: boolean;
  [k: string]: unknown;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface ChatResponse {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{ index: number; message: ChatMessage; finish_reason: string | null }>;
  usage?: Usage;
}

export interface ToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments?: string };
  thought_signature?: string;
}

export interface ChunkDelta {
  role?: 'assistant';
  content?: string | null;
  refusal?: string | null;
  tool_calls?: ToolCallDelta[];
}

/**
 * OpenAI `chat.completion.chunk`. Every adapter ends a successful stream with one chunk whose `choices` is
 * empty and whose `usage` is set (the OpenAI `include_usage` convention), when the upstream reported usage.
 */
export interface ChatChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{ index: number; delta: ChunkDelta; finish_reason: string | null }>;
  usage?: Usage | null;
}

export interface CallContext {
  /** The caller's provider key (or ours). Never logged. Ignored by the offline provider. */
  apiKey: string;
  /** Overrides the configured base URL for this call (e.g. an Azure resource URL). */
  baseUrl?: string;
  /** Aborting it cancels the upstream request, streamed or not. */
  signal?: CancelSignal;
  /** Gives up (ProviderError code 'timeout', status 504) when the whole call outlives it. */
  timeoutMs?: number;
  /**
   * Gives up (code 'timeout', status 504) when no byte arrives for this long: waiting for the response
   * headers, for the first chunk (slow first token) and between chunks. Unlike timeoutMs it lets a long
   * answer run as long as it keeps flowing.
   */
  idleTimeoutMs?: number;
  /** Extra headers for the upstream request (e.g. OpenRouter's HTTP-Referer / X-Title). */
  headers?: Record<string, string>;
  azure?: { deployment?: string; apiVersion?: string };
}

export interface ProviderAdapter {
  id: ProviderId;
  chat(req: ChatRequest, ctx: CallContext): Promise<ChatResponse>;
  /** Aborts the upstream request when the consumer stops early (break/return) or ctx.signal fires. */
  stream(req: ChatRequest, ctx: CallContext): AsyncIterable<ChatChunk>;
}

export type ModelTier = 'offline' | 'economy' | 'standard' | 'premium';

export interface ModelInfo {
  provider: ProviderId;
  /** The model id exactly as the provider expects it in requests. */
  id: string;
  /** `${provider}/${id}`: unique across the catalog. */
  key: string;
  contextWindow: number;
  maxOutputTokens: number;
  /** USD per million input (prompt) tokens. */
  inputPerMTok: number;
  /** USD per million output (completion) tokens. */
  outputPerMTok: number;
  tier: ModelTier;
  tools: boolean;
  vision: boolean;
}
