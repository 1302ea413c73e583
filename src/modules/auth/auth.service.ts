import type { Clock } from '../../platform/clock/index.js';
import { AppError } from '../../platform/errors/index.js';
import type { ApiKey, DeviceIdentity, DeviceTokens, KeyKind, KeysService } from '../keys/index.js';
import type { Organization, OrgsService, User } from '../orgs/index.js';
import { type Feature, type Product, type Role, planExpiresAt, planHasFeature } from '../plans/index.js';

/** The dashboard session cookie (docs/auth.md). */
export const SESSION_COOKIE = 'parapet_session';

/** Which key kind may call which product (docs/auth.md). */
export const PRODUCT_KEY_KINDS: Record<Product, readonly KeyKind[]> = {
  detection: ['al', 'sw'],
  tokenization: ['al', 'sw'],
  hallucination: ['al', 'sw'],
  netproxy: ['al', 'sw'],
  chat: ['sw'],
};

export type AuthRequirement =
  | { mode: 'public' }
  /**
   * `session: true`: a dashboard session is accepted too when no key is sent (the dashboard's chat page).
   * `sessionRoles`: the roles such a session needs (a viewer only reads; docs/auth.md); any role when unset.
   * `readOut: true`: the route reads back (or erases) what the product kept, and is no use of the product:
   * it takes the product's key kinds and counts against the rate limit, but neither needs nor spends the
   * monthly quota (docs/auth.md), so reading one's usage neither costs a request nor fails once it is spent.
   */
  | {
      mode: 'apiKey';
      product: Product;
      feature?: Feature;
      session?: true;
      sessionRoles?: readonly Role[];
      readOut?: true;
    }
  /** The provider proxy: the service key travels in X-Service-Key, Authorization carries the provider's key. */
  | { mode: 'serviceKey'; product: Product; feature?: Feature }
  /**
   * The transparent network proxy: X-Service-Key when the client sends one, else the organization whose
   * client networks contain the client's address (AuthDeps.orgByNetwork).
   */
  | { mode: 'serviceKeyOrNetwork'; product: Product; feature?: Feature }
  /**
   * The dashboard's routes. `adminKey`: an API key of the admin scope is accepted too, standing for an admin
   * (so it passes a roles list that names admin, never an owner-only one); when not set, it follows the
   * path (acceptsAdminKey): the administration API under /api/webhooks and /api/saas/ takes one.
   */
  | { mode: 'session'; roles?: readonly Role[]; feature?: Feature; adminKey?: boolean }
  /**
   * Organization-wide read-outs (reports): an API key of any kind, counted against the rate limit but no
   * product quota, or a dashboard session with one of `roles`.
   */
  | { mode: 'apiKeyOrSession'; roles?: readonly Role[]; feature?: Feature }
  /**
   * Device operations and endpoint administration by API: a device token (`dt_live_`) and/or API keys of
   * the listed kinds, in Authorization: Bearer (or X-API-Key). No product quota is spent; devices have a
   * rate limit of their own (docs/endpoint.md).
   */
  | { mode: 'endpoint'; accept: readonly EndpointCredential[]; feature?: Feature };

export type EndpointCredential = 'device' | KeyKind;

/** Paths of the administration API that scripts call with an admin key as well as a session (docs/auth.md). */
export const ADMIN_KEY_PREFIXES = ['/api/webhooks', '/api/saas/'] as const;

/** "an al_live_ key", "a sw_live_ key": the article follows how the prefix is read out. */
const aKey = (kind: string): string => `${kind === 'al' ? 'an' : 'a'} ${kind}_live_ key`;

/** Whether a route of this requirement and path accepts an API key of the admin scope. */
export function acceptsAdminKey(need: AuthRequirement | undefined, url: string): boolean {
  if (need?.mode !== 'session') return false;
  if (need.adminKey !== undefined) return need.adminKey;
  return ADMIN_KEY_PREFIXES.some((p) => url === p || url.startsWith(p.endsWith('/') ? p : `${p}/`));
}

/** The role an admin key stands for in a route's roles list. */
export const ADMIN_KEY_ROLE: Role = 'admin';

/** The role a caller acts with: a session's user's, an admin-scope key's (an admin's), else none. */
export function callerRole(caller: Pick<Caller, 'user' | 'key'>): Role | undefined {
  return caller.user?.role ?? (caller.key?.scope === 'admin' ? ADMIN_KEY_ROLE : undefined);
}

// The caller and requirement types of the authentication hook in platform/http (which imports no module).
declare module '../../platform/http/auth.js' {
  // Spelled as imports: inside this block a bare name would mean the augmented module's own alias.
  interface AuthTypes {
    caller: import('./auth.service.js').Caller;
    requirement: import('./auth.service.js').AuthRequirement;
  }
}

export interface Caller {
  org: Organization;
  via: 'apiKey' | 'session' | 'device' | 'network';
  key?: ApiKey;
  user?: User;
  /** Set when a device token authenticated the request. */
  device?: DeviceIdentity;
}

/** The 401 a device acts on: its token is unknown or revoked, so it enrolls again (like osquery's node_invalid). */
export function reenrollError(): AppError {
  return new AppError('unauthorized', 'The device token is unknown or revoked; enroll the device again.', {
    fields: { reenroll: true },
  });
}

const ORG_CACHE_MS = 5_000;

/** Extracts the service key from the headers the spec allows, without trusting its shape. */
export function apiKeyFromHeaders(
  headers: Record<string, string | string[] | undefined>,
  mode: 'apiKey' | 'serviceKey',
) {
  if (mode === 'serviceKey') {
    const v = headers['x-service-key'];
    return typeof v === 'string' ? v.trim() : undefined;
  }
  const auth = headers['authorization'];
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m?.[1]) return m[1];
  }
  const x = headers['x-api-key'];
  return typeof x === 'string' ? x.trim() : undefined;
}

export function createAuthService(deps: {
  keys: KeysService;
  orgs: OrgsService;
  clock: Clock;
  deviceTokens?: DeviceTokens;
}) {
  const orgCache = new Map<string, { org: Organization; until: number }>();

  async function loadOrg(id: string): Promise<Organization | undefined> {
    const now = deps.clock.now().getTime();
    const hit = orgCache.get(id);
    if (hit && hit.until > now) return hit.org;
    const org = await deps.orgs.getOrg(id);
    if (org) orgCache.set(id, { org, until: now + ORG_CACHE_MS });
    return org;
  }

  return {
    loadOrg,
    forgetOrg(id: string) {
      orgCache.delete(id);
    },

    async authenticateKey(
      secret: string | undefined,
      req: { product?: Product; mode: 'apiKey' | 'serviceKey'; organizationHeader?: string },
    ): Promise<Caller> {
      const header = req.mode === 'serviceKey' ? 'X-Service-Key' : 'Authorization: Bearer (or X-API-Key)';
      if (!secret) throw new AppError('unauthorized', `An API key is required in ${header}.`);
      const key = await deps.keys.verify(secret);
      if (!key) throw new AppError('unauthorized', 'The API key is invalid, revoked or expired.');
      if (
        req.mode === 'serviceKey' &&
        req.organizationHeader !== undefined &&
        req.organizationHeader !== key.orgId
      ) {
        throw new AppError(
          'unauthorized',
          'X-Service-Organization does not match the organization of the key.',
        );
      }
      const org = await loadOrg(key.orgId);
      if (!org) throw new AppError('unauthorized', 'The API key is invalid, revoked or expired.');
      return { org, via: 'apiKey', key };
    },

    /**
     * A device token sent where an API key of the admin scope is taken (proof reads, /api/saas/): a valid
     * one is 403 naming what the operation needs, as a products key gets; it was read as a wrong API key
     * and answered 401 "invalid, revoked or expired", which sent the device to re-enroll for nothing.
     */
    async refuseDeviceToken(secret: string, needs: string): Promise<void> {
      if (!deps.deviceTokens?.owns(secret)) return;
      const device = await deps.deviceTokens.verify(secret);
      const org = device ? await loadOrg(device.orgId) : undefined;
      if (!device || !org) throw reenrollError();
      throw new AppError('forbidden', `This operation needs ${needs}; a device token cannot call it.`);
    },

    /** A device token or an API key of an accepted kind (the `endpoint` mode). */
    async authenticateEndpoint(
      secret: string | undefined,
      accept: readonly EndpointCredential[],
    ): Promise<Caller> {
      const names = accept.map((k) => (k === 'device' ? 'a device token' : aKey(k))).join(' or ');
      if (!secret)
        throw new AppError('unauthorized', `This operation needs ${names} in Authorization: Bearer.`);
      if (deps.deviceTokens?.owns(secret)) {
        const device = await deps.deviceTokens.verify(secret);
        const org = device ? await loadOrg(device.orgId) : undefined;
        if (!device || !org) throw reenrollError();
        if (!accept.includes('device')) {
          throw new AppError('forbidden', `This operation needs ${names}; a device token cannot call it.`);
        }
        return { org, via: 'device', device };
      }
      const key = await deps.keys.verify(secret);
      const org = key ? await loadOrg(key.orgId) : undefined;
      if (!key || !org) throw new AppError('unauthorized', 'The API key is invalid, revoked or expired.');
      if (!accept.includes(key.kind)) {
        throw new AppError('forbidden', `This operation needs ${names}; the key sent is ${aKey(key.kind)}.`);
      }
      return { org, via: 'apiKey', key };
    },

    /** Plan and entitlement checks shared by every authentication mode. */
    checkAccess(
      caller: Caller,
      need: { product?: Product; feature?: Feature; roles?: readonly Role[] },
    ): void {
      // The key kind is checked here, after the rate limit, so that the 403 carries X-RateLimit-* and counts.
      if (need.product && caller.key) {
        const kinds = PRODUCT_KEY_KINDS[need.product];
        if (!kinds.includes(caller.key.kind)) {
          throw new AppError(
            'forbidden',
            `This endpoint needs ${kinds.map(aKey).join(' or ')}; the key sent is ${aKey(caller.key.kind)}.`,
          );
        }
      }
      const role = callerRole(caller);
      if (need.roles && (!role || !need.roles.includes(role))) {
        throw new AppError('forbidden', `This operation needs one of the roles: ${need.roles.join(', ')}.`);
      }
      if (need.product && !caller.org.products.includes(need.product)) {
        throw new AppError(
          'entitlement_missing',
          `The ${need.product} product is not enabled for this organization.`,
        );
      }
      // A DEMO organization past its end date keeps its data but reaches nothing until it changes plan.
      const ends = planExpiresAt(caller.org);
      if (ends && deps.clock.now().getTime() >= ends.getTime()) {
        throw new AppError(
          'plan_required',
          `The ${caller.org.plan} plan of this organization ended on ${ends.toISOString().slice(0, 10)}; choose a plan to continue.`,
        );
      }
      if (need.feature && !planHasFeature(caller.org.plan, need.feature)) {
        throw new AppError(
          'plan_required',
          `This feature (${need.feature}) needs a higher plan than ${caller.org.plan}.`,
        );
      }
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
