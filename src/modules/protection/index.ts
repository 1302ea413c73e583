// Public surface of the protection module: the one pipeline behind the chat and both proxies.
export { createProtection } from './protection.service.js';
export type {
  Protection,
  ProtectedCaller,
  ProtectionPublish,
  TokenizeOptions,
} from './protection.service.js';
export { ChunkRehydrator, rehydrateResponse } from './rehydrate.js';
export { KEEP_ALIVE_MS, openSse, type SseSink } from './sse.js';
export type { TextField } from './text-fields.js';
export { type IndirectText, type PromptTexts, promptTexts } from './prompt-texts.js';
export { type BodyFormat, requestFields } from './rules.js';
export { foundCacheStats, type FieldsOutcome } from './tokenize.js';
export { DeltaRehydrator, rehydrateJson } from './json-rehydrate.js';
