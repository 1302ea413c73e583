export {
  type AddressClass,
  type AddressPolicy,
  type AddressPolicyOptions,
  classifyAddress,
  createAddressPolicy,
  isForbiddenAddress,
} from './address-policy.js';
export { guardedLookup, type ResolvedAddress, type Resolver, systemResolver } from './guarded-lookup.js';
export {
  createOutbound,
  type Outbound,
  type OutboundOptions,
  type OutboundRequestInit,
  type OutboundResponse,
} from './outbound.js';
export { OutboundError, type OutboundErrorCode, toOutboundError } from './outbound-error.js';
export { guardedConnector } from './guarded-connector.js';
export {
  addressOrigin,
  MAX_TARGET_URL_LENGTH,
  normalizeHost,
  type TargetKind,
  type TargetUrlOptions,
  targetHostProblem,
  targetUrlProblem,
} from './target-url.js';
export { cidrContains, parseCidr, parseIPv4, parseIPv6 } from './ip.js';
