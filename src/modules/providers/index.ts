// Public surface of the providers module: adapters, catalog, routing. Import only from here.
export { collectStream } from './accumulate.js';
export { AZURE_DEFAULT_API_VERSION } from './azure/azure.format.js';
export {
  estimateCost,
  findModel,
  listModels,
  microsToUsd,
  TIER_RANK,
  usdToMicros,
} from './catalog/catalog.js';
export { PRICES_AS_OF } from './catalog/catalog.data.js';
export {
  DEFAULT_COMPLETION_TOKENS,
  type RouteChoice,
  type RouteInput,
  type RouteRefusal,
  type RouteResult,
  route,
} from './catalog/routing.js';
export { estimateMessagesTokens, estimateTokens } from './catalog/tokens.js';
export { ProviderError, type ProviderErrorCode } from './errors.js';
export {
  type Attempt,
  chatWithFallback,
  type FallbackResult,
  type OnAttemptFailure,
  openStreamWithFallback,
} from './fallback.js';
export { OFFLINE_MODEL_ID } from './offline/offline.adapter.js';
export {
  createProviders,
  DEFAULT_BASE_URLS,
  getAdapter,
  type ProviderConfig,
  type Providers,
} from './registry.js';
export { AbortEmitter, type CancelSignal } from './shared/abort.js';
export { SseParser, type SseEvent } from './shared/sse.js';
export { useProviderAddressPolicy } from './shared/transport.js';
export {
  type CallContext,
  type ChatChunk,
  type ChatMessage,
  type ChatRequest,
  type ChatResponse,
  type ChunkDelta,
  type ContentPart,
  isProviderId,
  type ModelInfo,
  type ModelTier,
  PROVIDER_IDS,
  type ProviderAdapter,
  type ProviderId,
  type ToolCall,
  type ToolCallDelta,
  type Usage,
} from './types.js';
