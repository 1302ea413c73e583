import cookie from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors/index.js';
import { type SecurityDescriber, setSecurityDescriber } from './openapi.js';
import { type App, setAnonymousLimit, setAnonymousRateLimiter } from './server.js';

/**
 * The types of "who may call a route" and "who called it". The module that knows the credentials
 * (modules/auth) fills them in by augmenting this interface with `caller` and `requirement`, so this
 * layer imports no module while routes still get the precise types through `callerOf`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by declaration merging (modules/auth)
export interface AuthTypes {}

type Registered<K extends string, Fallback> = AuthTypes extends Record<K, infer T> ? T : Fallback;

/** The authenticated caller of a request (modules/auth's Caller). */
export type Caller = Registered<'caller', { org: { id: string } }>;
/** What a route declares in `config.auth` (modules/auth's AuthRequirement). */
export type RouteAuth = Registered<'requirement', { mode: string }>;

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    caller: Caller | null;
  }
}

/** The caller of a route that declared an authentication mode; routes call this instead of reading request.caller. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new AppError('unauthorized', 'Authentication is required.');
  return request.caller;
}

/**
 * How credentials are checked: supplied by the auth module, which knows keys, sessions, devices, plans and
 * limits. The hook below only decides when each part runs.
 */
export interface Authenticator {
  /**
   * Sets request.caller for a route that declared `need`, with its rate-limit headers on the reply, or
   * throws the AppError to answer. `need` is undefined for unknown routes and routes outside /api; those
   * and public routes are counted in the client address's window.
   */
  authenticate(request: FastifyRequest, reply: FastifyReply, need: RouteAuth | undefined): Promise<void>;
  /** After validation, before the handler: what an admitted request spends (the product quota). */
  admitted(request: FastifyRequest, need: RouteAuth): Promise<void>;
  /** The per-address window of callers that are not authenticated, for errors that never reach a route. */
  anonymous: { perMinute: number; headers(ip: string): Promise<Record<string, string>> };
  /** What each route's declared mode means in the OpenAPI document. */
  security: SecurityDescriber;
}

const PUBLIC_PREFIXES = ['/api/docs', '/api/openapi.json'];

/**
 * Authentication, rate limits, entitlements and quota checks for every route, driven by the route's
 * `config.auth`. Runs in onRequest so that refused requests cost no parsing; the quota is counted in
 * preHandler, after validation, so that malformed requests do not spend it.
 */
export async function installAuthHook(app: App, authenticator: Authenticator): Promise<void> {
  await app.register(cookie);
  app.decorateRequest('caller', null);
  setSecurityDescriber(app, authenticator.security);
  // What never reaches a route (parser and framework errors) is counted by the HTTP layer with this.
  setAnonymousLimit(app, authenticator.anonymous.perMinute);
  setAnonymousRateLimiter(app, (ip) => authenticator.anonymous.headers(ip));

  app.addHook('onRequest', async (request, reply) => {
    const need = request.routeOptions.config.auth;
    if (!need) {
      const url = request.routeOptions.url ?? '';
      if (url.startsWith('/api/') && !PUBLIC_PREFIXES.some((p) => url.startsWith(p))) {
        throw new AppError('internal_error', `route ${url} declares no authentication mode`);
      }
    }
    await authenticator.authenticate(request, reply, need);
  });

  app.addHook('preHandler', async (request) => {
    const need = request.routeOptions.config.auth;
    if (request.caller && need) await authenticator.admitted(request, need);
  });
}
