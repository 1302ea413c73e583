export {
  type AnonymousRateLimiter,
  createHttpServer,
  listRoutes,
  logUpstreamFailure,
  MAX_URL_LENGTH,
  sendError,
  setAnonymousRateLimiter,
  setAnonymousLimit,
  setNotFoundPage,
  type NotFoundPage,
  toAppError,
} from './server.js';
export type { App, HttpServerOptions, RouteInfo } from './server.js';
export {
  AUTHENTICATED_ERRORS,
  ErrorBodySchema,
  errorResponses,
  mapOf,
  NAME_PATTERN,
  nameText,
  oneOf,
  patternText,
  RejectedPartSchema,
} from './schemas.js';
export { canonicalHost, IPV4, SITE_HOST_PATTERN, SITE_HOST_RULE_PATTERN } from './hosts.js';
export {
  bodyCheckedAs,
  compileBodyCheck,
  compilePartsCheck,
  noValidPart,
  type RejectedPart,
} from './validation.js';
export { jsonBodyText, parseJsonBody, parseJsonText } from './json-body.js';
export { addServerTiming, elapsedMs, formatMs } from './server-timing.js';
export {
  type DocumentedRoute,
  type OperationSecurity,
  type RouteDocs,
  type SecurityDescriber,
  decorateOpenApi,
  openApiPath,
  setSecurityDescriber,
} from './openapi.js';
export {
  type Authenticator,
  type AuthTypes,
  type Caller,
  type RouteAuth,
  callerOf,
  installAuthHook,
} from './auth.js';
