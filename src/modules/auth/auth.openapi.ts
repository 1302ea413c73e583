import type { DocumentedRoute, OperationSecurity, SecurityDescriber } from '../../platform/http/index.js';
import { type AuthRequirement, PRODUCT_KEY_KINDS, SESSION_COOKIE, acceptsAdminKey } from './auth.service.js';

/**
 * The credentials of docs/auth.md as OpenAPI security schemes. The key kinds share one header, so each kind
 * is a scheme of its own (bearer with its prefix): a generated client and Swagger UI then know which key an
 * operation needs.
 */
const SCHEMES: Record<string, Record<string, unknown>> = {
  alKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'al_live_…',
    description: 'API key of the al kind: detection, tokenization, hallucination, network and provider proxy',
  },
  swKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'sw_live_…',
    description: 'API key of the sw kind: the protected chat and every product of the al kind',
  },
  adminKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'al_live_… or sw_live_… of the admin scope',
    description:
      'API key of the admin scope (created by an owner or admin): stands for an admin on the administration API (webhooks, SIEM integrations, /api/saas/*)',
  },
  apiKeyHeader: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'Any credential accepted in Authorization: Bearer may be sent here instead',
  },
  deviceToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'dt_live_…',
    description: 'Device token returned once by register or enroll (docs/endpoint.md)',
  },
  serviceKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Service-Key',
    description: 'The API key on the provider proxy, where Authorization carries the provider key',
  },
  providerKey: {
    type: 'http',
    scheme: 'bearer',
    description: "The caller's own LLM provider key, forwarded to the provider (provider proxy only)",
  },
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: 'Dashboard session, set by POST /api/dashboard/auth/login',
  },
};

const KIND_SCHEME = { al: 'alKey', sw: 'swKey', device: 'deviceToken' } as const;

function planNote(need: { feature?: string }): string {
  return need.feature ? `; needs a plan with the ${need.feature} feature (403 plan_required)` : '';
}

function roleNote(roles: readonly string[] | undefined): string {
  return roles ? ` with one of the roles ${roles.join(', ')}` : ' (any role)';
}

export function describeSecurity(route: DocumentedRoute): OperationSecurity {
  const need = route.auth as AuthRequirement | undefined;
  if (!need || need.mode === 'public') {
    return { security: [], summary: 'none (public)', authenticated: false };
  }
  switch (need.mode) {
    case 'apiKey': {
      const kinds = PRODUCT_KEY_KINDS[need.product];
      return {
        security: [
          ...kinds.map((k) => ({ [KIND_SCHEME[k]]: [] })),
          { apiKeyHeader: [] },
          ...(need.session ? [{ session: [] }] : []),
        ],
        summary: `an API key of the ${kinds.map((k) => `${k}_live_`).join(' or ')} kind${need.session ? `, or a dashboard session${need.sessionRoles ? roleNote(need.sessionRoles) : ''}` : ''}${need.readOut ? ' (rate limit only, no product quota)' : `; counts against the ${need.product} quota`}${planNote(need)}`,
        authenticated: true,
      };
    }
    case 'serviceKeyOrNetwork':
      return {
        // The transparent proxy: a client inside one of the organization's networks may send no service key.
        security: [{ serviceKey: [], providerKey: [] }, { providerKey: [] }],
        summary: `the API key in X-Service-Key, or none from an address inside the organization's client networks (docs/netproxy.md), and the provider's key as the provider expects it; counts against the ${need.product} quota${planNote(need)}`,
        authenticated: true,
      };
    case 'serviceKey':
      return {
        security: [{ serviceKey: [], providerKey: [] }],
        summary: `the API key in X-Service-Key and the provider's key in Authorization; counts against the ${need.product} quota${planNote(need)}`,
        headers: [
          {
            name: 'X-Service-Organization',
            required: false,
            description: "Id of the organization; when sent it must be the key's (401 otherwise)",
          },
        ],
        authenticated: true,
      };
    case 'session': {
      const admin = acceptsAdminKey(need, route.url);
      const roles = need.roles;
      const adminAllowed = !roles || roles.includes('admin');
      return {
        security: [
          { session: [] },
          ...(admin && adminAllowed ? [{ adminKey: [] }, { apiKeyHeader: [] }] : []),
        ],
        summary: `a dashboard session${roleNote(roles)}${admin && adminAllowed ? ', or an API key of the admin scope (it stands for an admin)' : ''}${planNote(need)}`,
        authenticated: true,
      };
    }
    case 'apiKeyOrSession':
      return {
        security: [{ alKey: [] }, { swKey: [] }, { apiKeyHeader: [] }, { session: [] }],
        summary: `an API key of either kind (rate limit only, no product quota), or a dashboard session${roleNote(need.roles)}${planNote(need)}`,
        authenticated: true,
      };
    case 'endpoint':
      return {
        security: [...need.accept.map((k) => ({ [KIND_SCHEME[k]]: [] })), { apiKeyHeader: [] }],
        summary: `${need.accept.map((k) => (k === 'device' ? 'a device token' : `an API key of the ${k}_live_ kind`)).join(' or ')} (device operations have their own rate limit)${planNote(need)}`,
        authenticated: true,
      };
  }
}

export const securityDescriber: SecurityDescriber = { schemes: SCHEMES, describe: describeSecurity };
