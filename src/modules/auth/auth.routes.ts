import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../platform/errors/index.js';
import {
  type App,
  type Authenticator,
  callerOf,
  errorResponses,
  sendError,
} from '../../platform/http/index.js';
import { type LimitsService, type RateState, rateLimitHeaders, rateLimitedError } from '../limits/index.js';
import type { OrgsService } from '../orgs/index.js';
import type { Feature, Role } from '../plans/index.js';
import { securityDescriber } from './auth.openapi.js';
import {
  type AuthRequirement,
  type AuthService,
  type Caller,
  SESSION_COOKIE,
  acceptsAdminKey,
  apiKeyFromHeaders,
} from './auth.service.js';

export { SESSION_COOKIE };
const SESSION_RATE_PER_MINUTE = 600;
const LOGIN_FAILURES_PER_MINUTE = 20;

export interface AuthDeps {
  auth: AuthService;
  orgs: OrgsService;
  limits: LimitsService;
  authFailuresPerMinute: number;
  /** Requests per minute and client address to public and unknown routes (PARAPET_ANONYMOUS_PER_MINUTE). */
  anonymousPerMinute: number;
  cookieSecure: 'auto' | 'true' | 'false';
  sessionTtlHours: number;
  /** Requests per minute and device token (device operations). */
  deviceRatePerMinute?: number;
  /** The organization whose client networks contain an address (transparent network proxy only). */
  orgByNetwork?: (ip: string) => Promise<string | undefined>;
}

function applyRate(reply: FastifyReply, state: RateState): void {
  for (const [k, v] of Object.entries(rateLimitHeaders(state))) reply.header(k, v);
  if (state.exceeded) throw rateLimitedError(state);
}

const LOGIN_PATH = '/api/dashboard/auth/login';
const LOGOUT_PATH = '/api/dashboard/auth/logout';
const ME_PATH = '/api/dashboard/auth/me';
const PASSWORD_PATH = '/api/dashboard/auth/me/password';
/**
 * What a session whose user must change their password may call (docs/auth.md): the change itself, who am I
 * (so the dashboard knows to ask for it) and sign-out. Everything else answers 403 password_change_required.
 */
const WHILE_PASSWORD_CHANGE_DUE: ReadonlySet<string> = new Set([PASSWORD_PATH, ME_PATH, LOGOUT_PATH]);
const HEALTH_PATH = '/api/health';
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence of the cookie-authenticated routes, on top of the SameSite=Strict cookie: a state-changing
 * request that a browser marks as coming from another site (Origin of another host, or Sec-Fetch-Site
 * cross-site/same-site) is refused. Browsers send Origin on every cross-origin POST, PUT, PATCH and
 * DELETE; clients that are not browsers send neither header and carry no ambient cookie to abuse.
 */
export function refuseCrossSite(request: FastifyRequest): void {
  if (SAFE_METHODS.has(request.method)) return;
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') {
    throw new AppError(
      'forbidden',
      'Cross-site request refused: dashboard changes must come from the dashboard.',
    );
  }
  const origin = request.headers.origin;
  if (origin === undefined) return;
  let host: string | undefined;
  try {
    host = origin === 'null' ? undefined : new URL(origin).host;
  } catch {
    host = undefined;
  }
  if (host === undefined || host !== request.host) {
    throw new AppError(
      'forbidden',
      'Cross-site request refused: the Origin header does not match this server.',
    );
  }
}

/**
 * What each authentication mode means (docs/auth.md): which credential, which rate-limit window, which
 * plan, entitlement and quota checks. The hook of platform/http calls it for every request, driven by
 * the route's `config.auth`.
 */
export function createAuthenticator(deps: AuthDeps): Authenticator {
  const authenticate = async (
    request: FastifyRequest,
    reply: FastifyReply,
    need: AuthRequirement | undefined,
  ): Promise<void> => {
    if (!need || need.mode === 'public') {
      if (need && request.routeOptions.url === LOGIN_PATH) refuseCrossSite(request);
      // Public routes (health, pattern count, docs) and unknown routes: counted per client address, and
      // refused with 429 past the limit like everything else (SPEC: every response carries the headers).
      const counted = deps.limits.hitWindow(`rl:anon:${request.ip}`, deps.anonymousPerMinute);
      // The health check answers even when the shared counters (Redis) are down, without the headers it
      // could not count: it is what tells the operator that they are down (503 `degraded`).
      if (request.routeOptions.url === HEALTH_PATH) {
        const state = await counted.catch(() => null);
        if (state) applyRate(reply, state);
        return;
      }
      applyRate(reply, await counted);
      return;
    }

    if (need.mode === 'session') {
      const secret = apiKeyFromHeaders(request.headers, 'apiKey');
      // A key wins over a cookie when both are sent, as on the read-outs: a script means its key.
      if (secret !== undefined && acceptsAdminKey(need, request.routeOptions.url ?? '')) {
        return adminKeyCaller(request, reply, secret, need);
      }
      return sessionCaller(request, reply, need);
    }
    // A product route the dashboard reaches with its session (the chat page needs no key in the browser):
    // the same plan, entitlement and quota checks as a key.
    if (
      need.mode === 'apiKey' &&
      need.session === true &&
      apiKeyFromHeaders(request.headers, 'apiKey') === undefined &&
      request.cookies[SESSION_COOKIE] !== undefined
    ) {
      await sessionCaller(request, reply, {
        ...(need.feature ? { feature: need.feature } : {}),
        ...(need.sessionRoles ? { roles: need.sessionRoles } : {}),
      });
      deps.auth.checkAccess(callerOf(request), { product: need.product });
      if (need.readOut !== true) await deps.limits.checkQuota(callerOf(request).org, need.product);
      return;
    }
    if (need.mode === 'apiKeyOrSession') {
      const secret = apiKeyFromHeaders(request.headers, 'apiKey');
      // A key wins when both are sent: a script that also carries a browser cookie means the key.
      if (!secret && request.cookies[SESSION_COOKIE]) return sessionCaller(request, reply, need);
      const caller = await keyCaller(request, reply, secret);
      deps.auth.checkAccess(caller, need.feature ? { feature: need.feature } : {});
      return;
    }

    if (need.mode === 'endpoint') {
      let caller: Caller;
      try {
        caller = await deps.auth.authenticateEndpoint(
          apiKeyFromHeaders(request.headers, 'apiKey'),
          need.accept,
        );
      } catch (err) {
        if (err instanceof AppError && err.code === 'unauthorized') await countFailure(request, reply);
        throw err;
      }
      request.caller = caller;
      // A fleet of devices shares one organization: each device has its own window instead of the
      // plan's per-organization one, which 10,000 heartbeating devices would exhaust.
      applyRate(
        reply,
        caller.device
          ? await deps.limits.hitWindow(
              `rl:device:${caller.device.deviceId}`,
              deps.deviceRatePerMinute ?? 120,
            )
          : await deps.limits.hitRate(caller.org),
      );
      deps.auth.checkAccess(caller, need.feature ? { feature: need.feature } : {});
      return;
    }

    if (
      need.mode === 'serviceKeyOrNetwork' &&
      apiKeyFromHeaders(request.headers, 'serviceKey') === undefined
    ) {
      const orgId = await deps.orgByNetwork?.(request.ip);
      const found = orgId === undefined ? undefined : await deps.auth.loadOrg(orgId);
      if (!found) {
        await countFailure(request, reply);
        throw new AppError(
          'unauthorized',
          `No X-Service-Key was sent and the client address ${request.ip} is in no organization's client networks (network proxy settings).`,
        );
      }
      request.caller = { org: found, via: 'network' };
      applyRate(reply, await deps.limits.hitRate(found));
      deps.auth.checkAccess(request.caller, {
        product: need.product,
        ...(need.feature ? { feature: need.feature } : {}),
      });
      await deps.limits.checkQuota(found, need.product);
      return;
    }

    const org = request.headers['x-service-organization'];
    const keyMode = need.mode === 'apiKey' ? 'apiKey' : 'serviceKey';
    let caller: Caller;
    try {
      caller = await deps.auth.authenticateKey(apiKeyFromHeaders(request.headers, keyMode), {
        product: need.product,
        mode: keyMode,
        ...(typeof org === 'string' ? { organizationHeader: org } : {}),
      });
    } catch (err) {
      if (err instanceof AppError && err.code === 'unauthorized') await countFailure(request, reply);
      throw err;
    }
    request.caller = caller;
    applyRate(reply, await deps.limits.hitRate(caller.org));
    deps.auth.checkAccess(caller, {
      product: need.product,
      ...(need.feature ? { feature: need.feature } : {}),
    });
    if (need.mode === 'apiKey' && need.readOut === true) return;
    await deps.limits.checkQuota(caller.org, need.product);
  };

  async function sessionCaller(
    request: FastifyRequest,
    reply: FastifyReply,
    need: { roles?: readonly Role[]; feature?: Feature },
  ): Promise<void> {
    refuseCrossSite(request);
    const token = request.cookies[SESSION_COOKIE];
    const found = token ? await deps.orgs.resolveSession(token) : undefined;
    if (!found) {
      await countFailure(request, reply);
      throw new AppError('unauthorized', 'Log in first: this operation needs a dashboard session.');
    }
    request.caller = { org: found.org, via: 'session', user: found.user };
    applyRate(reply, await deps.limits.hitWindow(`rl:session:${found.user.id}`, SESSION_RATE_PER_MINUTE));
    // Before the role checks: a password someone else knows must not act for the user, whatever the role.
    // Read from the user's row on every request, so the change frees the session at once.
    if (found.user.mustChangePassword && !WHILE_PASSWORD_CHANGE_DUE.has(request.routeOptions.url ?? '')) {
      throw new AppError(
        'password_change_required',
        'Change your password first: it was set by an administrator (or printed at the first start). POST /api/dashboard/auth/me/password, or the Your account page of the dashboard.',
      );
    }
    deps.auth.checkAccess(request.caller, {
      ...(need.roles ? { roles: need.roles } : {}),
      ...(need.feature ? { feature: need.feature } : {}),
    });
  }

  /** An API key of the admin scope on an administration route: it stands for an admin of its organization. */
  async function adminKeyCaller(
    request: FastifyRequest,
    reply: FastifyReply,
    secret: string,
    need: { roles?: readonly Role[]; feature?: Feature },
  ): Promise<void> {
    try {
      await deps.auth.refuseDeviceToken(secret, 'a dashboard session or an API key of the admin scope');
    } catch (err) {
      if (err instanceof AppError && err.code === 'unauthorized') await countFailure(request, reply);
      throw err;
    }
    const caller = await keyCaller(request, reply, secret);
    if (caller.key?.scope !== 'admin') {
      throw new AppError(
        'forbidden',
        'This operation needs a dashboard session or an API key of the admin scope; the key sent may call products only.',
      );
    }
    deps.auth.checkAccess(caller, {
      ...(need.roles ? { roles: need.roles } : {}),
      ...(need.feature ? { feature: need.feature } : {}),
    });
  }

  /** An API key in Authorization or X-API-Key, counted in its organization's per-minute window. */
  async function keyCaller(request: FastifyRequest, reply: FastifyReply, secret: string | undefined) {
    let caller: Caller;
    try {
      caller = await deps.auth.authenticateKey(secret, { mode: 'apiKey' });
    } catch (err) {
      if (err instanceof AppError && err.code === 'unauthorized') await countFailure(request, reply);
      throw err;
    }
    request.caller = caller;
    applyRate(reply, await deps.limits.hitRate(caller.org));
    return caller;
  }

  // Failed authentications are limited per client address so keys cannot be guessed at speed; the
  // headers of that window are what an unauthenticated caller sees.
  async function countFailure(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const state = await deps.limits.hitWindow(`rl:authfail:${request.ip}`, deps.authFailuresPerMinute);
    applyRate(reply, state);
  }

  return {
    authenticate,
    async admitted(request, need) {
      if (need.mode === 'apiKey' && need.readOut === true) return;
      if (need.mode === 'apiKey' || need.mode === 'serviceKey' || need.mode === 'serviceKeyOrNetwork') {
        // counted whether the caller came with a key or with a dashboard session
        await deps.limits.consume(callerOf(request).org, need.product);
      }
    },
    anonymous: {
      perMinute: deps.anonymousPerMinute,
      headers: async (ip) =>
        rateLimitHeaders(await deps.limits.hitWindow(`rl:anon:${ip}`, deps.anonymousPerMinute)),
    },
    security: securityDescriber,
  };
}

const LoginBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 320 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: false },
);

const PasswordBody = Type.Object(
  {
    currentPassword: Type.String({ minLength: 1, maxLength: 1024 }),
    // The rule of user creation (orgs' checkPasswordStrength): at least 12 characters.
    newPassword: Type.String({ minLength: 12, maxLength: 1024 }),
  },
  { additionalProperties: false },
);

const SessionView = Type.Object({
  user: Type.Object({
    id: Type.String(),
    email: Type.String(),
    name: Type.String(),
    role: Type.String(),
    // true: every dashboard call but the password change, this one and sign-out answers 403
    // password_change_required until the user chooses their own password (docs/auth.md)
    mustChangePassword: Type.Boolean(),
  }),
  organization: Type.Object({ id: Type.String(), name: Type.String(), plan: Type.String() }),
  expiresAt: Type.Optional(Type.String({ format: 'date-time' })),
});

/** Dashboard login, logout and "who am I": ordinary routes of the API server. */
export function authRoutes(
  deps: Pick<AuthDeps, 'auth' | 'orgs' | 'limits' | 'cookieSecure' | 'sessionTtlHours'>,
) {
  return async (app: App): Promise<void> => {
    app.post(
      LOGIN_PATH,
      {
        config: { auth: { mode: 'public' } },
        schema: {
          operationId: 'login',
          tags: ['dashboard-auth'],
          summary: 'Log in to the dashboard; sets an HttpOnly session cookie',
          body: LoginBody,
          response: { 200: SessionView, ...errorResponses(401, 429) },
        },
      },
      async (request, reply) => {
        // Failed sign-ins per client address: every attempt is counted before the password is checked, so a
        // burst of parallel guesses cannot all pass, and a successful one is given back below. Counting
        // successes too refused the 21st colleague signing in within a minute behind one NAT address.
        const failKey = `rl:login:${request.ip}`;
        const fail = await deps.limits.hitWindow(failKey, LOGIN_FAILURES_PER_MINUTE);
        if (fail.exceeded) return sendError(request, reply, rateLimitedError(fail));
        // No catch of its own: a refused login (401) and an unexpected failure (500, logged with its request id
        // and without the body) both go through the server's error handler, like every other route.
        const ua = request.headers['user-agent'];
        const s = await deps.orgs.login(request.body.email, request.body.password, {
          sourceIp: request.ip,
          ...(typeof ua === 'string' ? { userAgent: ua } : {}),
          // The failed-login audit event is written after the answer; a failure to write it is logged.
          onFailedAudit: (err) => request.log.error({ err }, 'audit.login_failed could not be recorded'),
        });
        // The session exists: a counter that cannot be reached only leaves this attempt counted.
        await deps.limits
          .releaseWindow(failKey, fail)
          .catch((err) => request.log.warn({ err }, 'a successful sign-in could not be uncounted'));
        const org = await deps.auth.loadOrg(s.user.orgId);
        const secure =
          deps.cookieSecure === 'auto' ? request.protocol === 'https' : deps.cookieSecure === 'true';
        reply.setCookie(SESSION_COOKIE, s.sessionToken, {
          httpOnly: true,
          sameSite: 'strict',
          secure,
          path: '/',
          maxAge: deps.sessionTtlHours * 3600,
        });
        return {
          user: {
            id: s.user.id,
            email: s.user.email,
            name: s.user.name,
            role: s.user.role,
            mustChangePassword: s.user.mustChangePassword,
          },
          organization: { id: org?.id ?? s.user.orgId, name: org?.name ?? '', plan: org?.plan ?? '' },
          expiresAt: s.expiresAt,
        };
      },
    );

    app.post(
      LOGOUT_PATH,
      {
        config: { auth: { mode: 'session' } },
        schema: {
          operationId: 'logout',
          tags: ['dashboard-auth'],
          summary: 'End the dashboard session',
          response: { 200: Type.Object({ success: Type.Boolean() }), ...errorResponses(401, 429) },
        },
      },
      async (request, reply) => {
        const token = request.cookies[SESSION_COOKIE];
        if (token) await deps.orgs.logout(token);
        reply.clearCookie(SESSION_COOKIE, { path: '/' });
        return { success: true };
      },
    );

    app.post(
      PASSWORD_PATH,
      {
        config: { auth: { mode: 'session' } },
        schema: {
          operationId: 'changeOwnPassword',
          tags: ['dashboard-auth'],
          summary:
            'Change the signed-in user’s own password (the current one is checked); ends their other sessions',
          body: PasswordBody,
          response: {
            200: Type.Object({ success: Type.Boolean(), otherSessionsEnded: Type.Integer({ minimum: 0 }) }),
            ...errorResponses(400, 401, 403, 409, 429),
          },
        },
      },
      async (request, reply) => {
        const { user } = callerOf(request);
        const token = request.cookies[SESSION_COOKIE];
        // The session hook let only a session through; a key never reaches here (dashboard-only path).
        if (!user || !token)
          throw new AppError('unauthorized', 'Log in first: this operation needs a dashboard session.');
        // Counted like logins, per user: a session left open must not become a way to guess the password.
        // Counted before the check, as sign-ins are, and given back unless the current password was wrong: a
        // new password the rules refuse (400) or a reset that landed meanwhile (409) is no guess, and twenty
        // tries at the rules must not lock the user out of their own change for the minute.
        const triesKey = `rl:password:${user.id}`;
        const tries = await deps.limits.hitWindow(triesKey, LOGIN_FAILURES_PER_MINUTE);
        if (tries.exceeded) return sendError(request, reply, rateLimitedError(tries));
        const giveBack = () =>
          deps.limits
            .releaseWindow(triesKey, tries)
            .catch((err) => request.log.warn({ err }, 'a password change attempt could not be uncounted'));
        const ua = request.headers['user-agent'];
        let out: Awaited<ReturnType<OrgsService['changeOwnPassword']>>;
        try {
          out = await deps.orgs.changeOwnPassword(user, token, request.body, {
            sourceIp: request.ip,
            ...(typeof ua === 'string' ? { userAgent: ua } : {}),
          });
        } catch (err) {
          if (!(err instanceof AppError && err.code === 'forbidden')) await giveBack();
          throw err;
        }
        await giveBack();
        return { success: true, ...out };
      },
    );

    app.get(
      ME_PATH,
      {
        config: { auth: { mode: 'session' } },
        schema: {
          operationId: 'currentSession',
          tags: ['dashboard-auth'],
          summary: 'Who is logged in',
          response: { 200: SessionView, ...errorResponses(401, 429) },
        },
      },
      async (request) => {
        const { user, org } = callerOf(request);
        return {
          user: {
            id: user?.id ?? '',
            email: user?.email ?? '',
            name: user?.name ?? '',
            role: user?.role ?? '',
            mustChangePassword: user?.mustChangePassword ?? false,
          },
          organization: { id: org.id, name: org.name, plan: org.plan },
        };
      },
    );
  };
}
