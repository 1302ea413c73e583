// Public surface of the gateway module: protected chat, provider proxy, force mode, provider keys, history.
export { createGateway, type Gateway, type GatewayDeps } from './gateway.service.js';
export { disconnectSignal, gatewayRoutes } from './gateway.routes.js';
export { createGatewayHistory, type GatewayHistory, type HistoryDeps } from './history.service.js';
export { gatewayHistoryRoutes } from './history.routes.js';
export { usageRange } from './usage-range.js';
export type { ChatBody, ChatResult, Protection } from './chat.service.js';
export type { ForceStatus } from './force.service.js';
export type { ProviderKeyView } from './provider-keys.service.js';
export type { UsageRecord } from './usage.recorder.js';
