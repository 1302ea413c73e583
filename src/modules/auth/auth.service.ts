import type { Clock } from '../../platform/clock/index.js';
import { AppError } from '../../platform/errors/index.js';
import type { ApiKey, KeyKind, KeysService } from '../keys/index.js';
import type { Organization, OrgsService, User } from '../orgs/index.js';
import { type Feature, type Product, type Role, planHasFeature } from '../plans/index.js';

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
  /** `session: true`: a dashboard session is accepted too when no key is sent (the dashboard's chat page). */
  | { mode: 'apiKey'; product: Product; feature?: Feature; session?: true }
  /** The provider proxy: the service key travels in X-Service-Key, Authorization carries the provider's key. */
  | { mode: 'serviceKey'; product: Product; feature?: Feature }
  | { mode: 'session'; roles?: readonly Role[]; feature?: Feature };

export interface Caller {
  org: Organization;
  via: 'apiKey' | 'session';
  key?: ApiKey;
  user?: User;
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

export function createAuthService(deps: { keys: KeysService; orgs: OrgsService; clock: Clock }) {
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
      req: { product: Product; mode: 'apiKey' | 'serviceKey'; organizationHeader?: string },
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
      const kinds = PRODUCT_KEY_KINDS[req.product];
      if (!kinds.includes(key.kind)) {
        throw new AppError(
          'forbidden',
          `This endpoint needs a ${kinds.map((k) => `${k}_live_`).join(' or ')} key; the key sent is a ${key.kind}_live_ key.`,
        );
      }
      return { org, via: 'apiKey', key };
    },

    /** Plan and entitlement checks shared by every authentication mode. */
    checkAccess(
      caller: Caller,
      need: { product?: Product; feature?: Feature; roles?: readonly Role[] },
    ): void {
      if (need.roles && (!caller.user || !need.roles.includes(caller.user.role))) {
        throw new AppError('forbidden', `This operation needs one of the roles: ${need.roles.join(', ')}.`);
      }
      if (need.product && !caller.org.products.includes(need.product)) {
        throw new AppError(
          'entitlement_missing',
          `The ${need.product} product is not enabled for this organization.`,
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
