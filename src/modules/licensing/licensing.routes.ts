import { Type } from 'typebox';
import { AppError, notFound } from '../../platform/errors/index.js';
import { type App, errorResponses, oneOf, callerOf } from '../../platform/http/index.js';
import { type LimitsService, rateLimitHeaders, rateLimitedError } from '../limits/index.js';
import type { Licensing } from './licensing.service.js';

const TAGS = ['licenses'];
const VALIDATE_PER_MINUTE = 60;

/** A licence as the API shows it (also in the endpoint overview). */
export const LicenseView = Type.Object({
  id: Type.String({ description: 'prefix lic_' }),
  organizationId: Type.String(),
  plan: Type.String(),
  seats: Type.Integer(),
  products: Type.Array(Type.String()),
  features: Type.Array(Type.String()),
  issuedAt: Type.String({ format: 'date-time' }),
  expiresAt: Type.String({ format: 'date-time' }),
  status: oneOf(['active', 'expired', 'revoked'] as const),
});

const ValidateBody = Type.Object(
  { licenseKey: Type.String({ minLength: 1, maxLength: 8000, description: 'plk_…' }) },
  { additionalProperties: false },
);

const Validation = Type.Object({
  valid: Type.Boolean(),
  reason: Type.Optional(
    oneOf(['malformed', 'bad_signature', 'expired', 'revoked', 'unknown', 'product_not_licensed'] as const, {
      description:
        'unknown: signed with this secret but not issued by this server; product_not_licensed: a licence of ' +
        'the organization that lacks the product asked about (endpoint validation)',
    }),
  ),
  license: Type.Union([LicenseView, Type.Null()]),
});

/** An organization's pattern bundle as an on-premise verifier receives it (docs/verifier.md). */
const PatternBundleView = Type.Object({
  version: Type.String({ description: 'changes whenever the content does' }),
  engineVersion: Type.String({ description: 'the release whose built-in detectors the bundle is for' }),
  detect: Type.Object({
    types: Type.Optional(Type.Array(Type.String())),
    ignoreTypes: Type.Optional(Type.Array(Type.String())),
    allowValues: Type.Optional(Type.Array(Type.String())),
    customPatterns: Type.Optional(
      Type.Array(
        Type.Object({
          name: Type.String(),
          domain: Type.String(),
          regex: Type.String(),
          flags: Type.Optional(Type.String()),
        }),
      ),
    ),
    phoneRegion: Type.Optional(Type.String()),
  }),
});

export interface PatternBundleOut {
  version: string;
  engineVersion: string;
  detect: Record<string, unknown>;
}

/** `/api/v1/license/*` (on-premise and endpoint licences) and `/api/v1/endpoint/license/validate`. */
export function licensingRoutes(deps: {
  licensing: Licensing;
  limits: LimitsService;
  /** The organization's pattern bundle (its DLP settings as a verifier applies them). */
  patterns?: (orgId: string) => Promise<PatternBundleOut | null>;
}) {
  const { licensing } = deps;
  return async (app: App) => {
    app.post(
      '/api/v1/license/validate',
      {
        // The licence itself is the credential (an on-premise container may hold nothing else).
        config: { auth: { mode: 'public' } },
        schema: {
          operationId: 'validateLicense',
          tags: TAGS,
          summary: 'Validate a licence key: signature, expiry and the revocation list',
          body: ValidateBody,
          response: { 200: Validation, ...errorResponses(429) },
        },
      },
      async (request, reply) => {
        const rate = await deps.limits.hitWindow(`rl:license:${request.ip}`, VALIDATE_PER_MINUTE);
        for (const [k, v] of Object.entries(rateLimitHeaders(rate))) reply.header(k, v);
        if (rate.exceeded) throw rateLimitedError(rate);
        return licensing.validate(request.body.licenseKey);
      },
    );

    app.post(
      '/api/v1/license/patterns',
      {
        // The on-premise licence is the credential, as for validate: the verifier holds no other cloud key.
        config: { auth: { mode: 'public' } },
        schema: {
          operationId: 'licensePatterns',
          tags: TAGS,
          summary:
            "The licence holder's pattern bundle for an on-premise verifier (custom DLP patterns, allow-values)",
          body: ValidateBody,
          response: { 200: PatternBundleView, ...errorResponses(403, 404, 429) },
        },
      },
      async (request, reply) => {
        const rate = await deps.limits.hitWindow(`rl:license:${request.ip}`, VALIDATE_PER_MINUTE);
        for (const [k, v] of Object.entries(rateLimitHeaders(rate))) reply.header(k, v);
        if (rate.exceeded) throw rateLimitedError(rate);
        const out = await licensing.validate(request.body.licenseKey);
        if (!out.valid) throw new AppError('forbidden', `The licence is not valid (${out.reason}).`);
        if (!out.license.products.includes('onprem'))
          throw new AppError('forbidden', 'The licence does not cover the on-premise verifier.');
        const bundle = await deps.patterns?.(out.license.organizationId);
        if (!bundle) throw notFound('Organization');
        // The organization's allow-values are its own data (an address, a customer's name): no cache or
        // proxy between the verifier and the cloud keeps them (audit), as the device token answers.
        reply.header('cache-control', 'no-store');
        return bundle;
      },
    );

    app.get(
      '/api/v1/license/status',
      {
        config: { auth: { mode: 'endpoint', accept: ['device', 'al', 'sw'] } },
        schema: {
          operationId: 'licenseStatus',
          tags: TAGS,
          summary: "The calling organization's licences and whether one is active",
          response: {
            200: Type.Object({ licensed: Type.Boolean(), licenses: Type.Array(LicenseView) }),
            ...errorResponses(401, 403, 429),
          },
        },
      },
      async (request) => {
        const licenses = await licensing.list(callerOf(request).org.id);
        return { licensed: licenses.some((l) => l.status === 'active'), licenses };
      },
    );

    app.post(
      '/api/v1/endpoint/license/validate',
      {
        config: { auth: { mode: 'endpoint', accept: ['device', 'al', 'sw'], feature: 'endpoint' } },
        schema: {
          operationId: 'validateEndpointLicense',
          tags: ['endpoint-devices'],
          summary: "Validate an endpoint licence key of the caller's organization",
          body: ValidateBody,
          response: { 200: Validation, ...errorResponses(401, 403, 404, 429) },
        },
      },
      async (request) => {
        const out = await licensing.validate(request.body.licenseKey);
        // Another organization's licence is not this caller's to learn about.
        if (out.license && out.license.organizationId !== callerOf(request).org.id) throw notFound('License');
        if (out.valid && !out.license.products.includes('endpoint')) {
          // Issued here and genuine: "unknown" would send an admin looking for a forged or foreign key.
          return { valid: false, reason: 'product_not_licensed' as const, license: out.license };
        }
        return out;
      },
    );
  };
}
