// Public surface of the network proxy module: each provider's native API at /proxy/:provider/*.
export { createNetProxy, NETPROXY_PATH } from './netproxy.service.js';
export type { NetProxy, NetProxyDeps, NetUsage } from './netproxy.service.js';
export { netproxyRoutes } from './netproxy.routes.js';
export { NETPROXY_PROVIDERS, type NetProvider } from './formats.js';
