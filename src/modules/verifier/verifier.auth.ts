import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors/index.js';
import { type App, setAnonymousLimit, setAnonymousRateLimiter } from '../../platform/http/index.js';
import { type RateState, type RateWindows, rateLimitedError, rateLimitHeaders } from '../limits/index.js';
import type { KeyRow } from './verifier.repo.js';
import type { VerifierService } from './verifier.service.js';

export type VerifierRole = 'admin' | 'user';

declare module 'fastify' {
  interface FastifyRequest {
    verifierKey: KeyRow | null;
  }
}

/** The verification server's per-minute windows (docs/verifier.md, "Rate limits"). */
export interface VerifierRateLimits {
  /** The one limiter of the service (limits module), over the verifier's own cache. */
  windows: RateWindows;
  /** Requests a minute per API key (PARAPET_VERIFIER_RATE_PER_MINUTE). */
  perKey: number;
  /** Requests a minute per address to public and unknown routes (PARAPET_ANONYMOUS_PER_MINUTE). */
  perAddress: number;
  /** Failed authentications a minute per address (PARAPET_AUTH_FAILURES_PER_MINUTE). */
  authFailures: number;
}

function secretOf(request: FastifyRequest): string | null {
  const auth = request.headers.authorization;
  if (typeof auth === 'string' && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, '').trim();
  const key = request.headers['x-api-key'];
  return typeof key === 'string' ? key.trim() : null;
}

/** Every response carries the window it counted in; past its limit, 429 with Retry-After. */
function admit(reply: FastifyReply, state: RateState): void {
  for (const [k, v] of Object.entries(rateLimitHeaders(state))) reply.header(k, v);
  if (state.exceeded) throw rateLimitedError(state);
}

/**
 * Authentication and rate limits of every request to the verification server, on the root instance so
 * that public routes, unknown routes and the API docs are counted too. The order is the API server's
 * (docs/errors.md): the key (401, counted in the address's failure window so keys cannot be guessed at
 * speed), then the key's window (429), then its role (403). Without a key required, the address's window.
 * Errors raised before routing (malformed requests) are counted in the address's window by the HTTP layer.
 */
export function installVerifierAuth(app: App, service: VerifierService, limits: VerifierRateLimits): void {
  const { windows } = limits;
  app.decorateRequest('verifierKey', null);
  setAnonymousLimit(app, limits.perAddress);
  setAnonymousRateLimiter(app, async (ip) =>
    rateLimitHeaders(await windows.hit(`rl:verifier:anon:${ip}`, limits.perAddress)),
  );
  app.addHook('onRequest', async (request, reply) => {
    const role = (request.routeOptions.config as { verifierRole?: VerifierRole } | undefined)?.verifierRole;
    if (!role) {
      admit(reply, await windows.hit(`rl:verifier:anon:${request.ip}`, limits.perAddress));
      return;
    }
    const secret = secretOf(request);
    const key = secret ? await service.authenticate(secret) : null;
    if (!key) {
      admit(reply, await windows.hit(`rl:verifier:authfail:${request.ip}`, limits.authFailures));
      throw new AppError('unauthorized', 'A valid verifier API key is required (Authorization: Bearer …).');
    }
    admit(reply, await windows.hit(`rl:verifier:key:${key.id}`, limits.perKey));
    if (role === 'admin' && key.role !== 'admin')
      throw new AppError('forbidden', 'This operation needs an administrator key.');
    request.verifierKey = key;
  });
}
