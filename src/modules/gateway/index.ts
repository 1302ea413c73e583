// Public surface of the gateway module: protected chat, provider proxy, force mode, provider keys.
export { createGateway, type Gateway, type GatewayDeps } from './gateway.service.js';
export { gatewayRoutes } from './gateway.routes.js';
export type { ChatBody, ChatResult, Protection } from './chat.service.js';
export type { ForceStatus } from './force.service.js';
export type { ProviderKeyView } from './provider-keys.service.js';
export type { UsageRecord } from './usage.recorder.js';
