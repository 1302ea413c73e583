import { Type } from 'typebox';
import { type App, errorResponses, callerOf, nameText } from '../../platform/http/index.js';
import type { KeysService } from './keys.service.js';

const ApiKeyView = Type.Object({
  id: Type.String({ description: 'prefix key_' }),
  kind: Type.Union([Type.Literal('al'), Type.Literal('sw')]),
  scope: Type.Union([Type.Literal('products'), Type.Literal('admin')], {
    description: 'admin: also manages webhooks, SIEM integrations and every /api/saas/* route (docs/auth.md)',
  }),
  name: Type.String(),
  prefix: Type.String({ description: 'first characters of the key, to recognise it' }),
  status: Type.Union([Type.Literal('active'), Type.Literal('revoked'), Type.Literal('expired')]),
  createdBy: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

const CreateKeyBody = Type.Object(
  {
    name: nameText(200),
    kind: Type.Union([Type.Literal('al'), Type.Literal('sw')], {
      description:
        'al: detection, tokenization, hallucination, network proxy; sw: protected chat and everything else',
    }),
    scope: Type.Optional(
      Type.Union([Type.Literal('products'), Type.Literal('admin')], {
        description:
          'products (default): the products of its kind only; admin: also the administration API (webhooks, SIEM integrations, /api/saas/*), as an admin of the dashboard may',
      }),
    ),
    expiresAt: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);

const KeyIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
const MANAGE = ['owner', 'admin'] as const;

export function keysRoutes(keys: KeysService) {
  return async (app: App) => {
    app.get(
      '/api/dashboard/keys',
      {
        config: { auth: { mode: 'session' } },
        schema: {
          operationId: 'listApiKeys',
          tags: ['api-keys'],
          summary: 'List the API keys of the organization (never their secrets)',
          response: { 200: Type.Object({ keys: Type.Array(ApiKeyView) }), ...errorResponses(401, 429) },
        },
      },
      async (request) => ({ keys: await keys.list(callerOf(request).org.id) }),
    );

    app.post(
      '/api/dashboard/keys',
      {
        config: { auth: { mode: 'session', roles: MANAGE } },
        schema: {
          operationId: 'createApiKey',
          tags: ['api-keys'],
          summary: 'Create an API key; the secret is in this response only',
          body: CreateKeyBody,
          response: {
            201: Type.Object({ key: ApiKeyView, secret: Type.String({ description: 'shown once' }) }),
            ...errorResponses(401, 403, 429),
          },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const created = await keys.create({
          orgId: caller.org.id,
          kind: request.body.kind,
          name: request.body.name,
          scope: request.body.scope ?? 'products',
          expiresAt: request.body.expiresAt ? new Date(request.body.expiresAt).toISOString() : null,
          createdBy: caller.user?.id ?? null,
        });
        reply.header('cache-control', 'no-store');
        return reply.status(201).send(created);
      },
    );

    app.delete(
      '/api/dashboard/keys/:id',
      {
        config: { auth: { mode: 'session', roles: MANAGE } },
        schema: {
          operationId: 'revokeApiKey',
          tags: ['api-keys'],
          summary: 'Revoke an API key; it stops working at once (within seconds on other servers)',
          params: KeyIdParams,
          response: { 200: Type.Object({ key: ApiKeyView }), ...errorResponses(401, 403, 404, 429) },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return { key: await keys.revoke(caller.org.id, request.params.id, caller.user?.id ?? null) };
      },
    );
  };
}
