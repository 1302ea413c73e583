// Public surface of the network proxy module: each provider's native API at /proxy/:provider/*, and the
// transparent mode (TLS for the providers' own host names, leaf certificates from the organization's CA).
export { createNetProxy, NETPROXY_PATH } from './netproxy.service.js';
export type { NetProxy, NetProxyDeps, NetUsage } from './netproxy.service.js';
export { interceptRoutes, netproxyRoutes, netproxySettingsRoutes } from './netproxy.routes.js';
export { NETPROXY_PROVIDERS, type NetProvider } from './formats.js';
export { HOST_PROVIDERS, INTERCEPTED_HOSTS, providerOfHost } from './hosts.js';
export {
  type CaFiles,
  caFilesProblem,
  createCa,
  createLeafIssuer,
  describeCa,
  type LeafIssuer,
} from './ca.js';
export { createUpstreamLookup } from './resolver.js';
export { createNetworkDirectory, type NetworkDirectory, parseCidr } from './networks.js';
export { type BatchSessions, createBatchSessions } from './batch-results.js';
export { createNetproxySettings, type NetproxySettingsService } from './settings.service.js';
