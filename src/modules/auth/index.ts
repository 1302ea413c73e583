export {
  ADMIN_KEY_PREFIXES,
  PRODUCT_KEY_KINDS,
  acceptsAdminKey,
  apiKeyFromHeaders,
  callerRole,
  createAuthService,
  reenrollError,
} from './auth.service.js';
export type { AuthRequirement, AuthService, Caller, EndpointCredential } from './auth.service.js';
export { SESSION_COOKIE, authRoutes, createAuthenticator } from './auth.routes.js';
export type { AuthDeps } from './auth.routes.js';
