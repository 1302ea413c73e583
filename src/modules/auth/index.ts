export { PRODUCT_KEY_KINDS, apiKeyFromHeaders, createAuthService } from './auth.service.js';
export type { AuthRequirement, AuthService, Caller } from './auth.service.js';
export { SESSION_COOKIE, callerOf, installAuth } from './auth.routes.js';
export type { AuthDeps } from './auth.routes.js';
