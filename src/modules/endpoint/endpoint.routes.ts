import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError, notFound } from '../../platform/errors/index.js';
import { type App, bodyCheckedAs, errorResponses, type Caller, callerOf } from '../../platform/http/index.js';
import { type LimitsService, rateLimitHeaders, rateLimitedError } from '../limits/index.js';
import type { Actor } from './endpoint.events.js';
import {
  AlertBody,
  BindUserBody,
  Enrolled,
  EnrollBody,
  HeartbeatBody,
  HeartbeatReply,
  LogBody,
  LogEnvelope,
  LogPartialReply,
  LogReply,
  RegisterBody,
  UnenrollBody,
} from './endpoint.schemas.js';
import type { Endpoint } from './index.js';

const TAGS = ['endpoint-devices'];
const DEVICE = { mode: 'endpoint', accept: ['device'], feature: 'endpoint' } as const;
const ENROLL_ATTEMPTS_PER_MINUTE = 30;

export function actorOf(c: Caller): Actor {
  return { userId: c.user?.id ?? null, apiKeyId: c.key?.id ?? null, deviceId: c.device?.deviceId ?? null };
}

/** The calling device; routes that only a device token reaches. */
function deviceOf(request: FastifyRequest): { orgId: string; deviceId: string } {
  const c = callerOf(request);
  if (!c.device) throw new AppError('forbidden', 'This operation needs a device token.');
  return { orgId: c.org.id, deviceId: c.device.deviceId };
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

function blockPageHtml(page: { message?: string; contactEmail?: string }): string {
  const email = escapeHtml(page.contactEmail ?? '');
  // The contact address is optional: without one the page has no contact line.
  const contact = email ? `<p>Questions: <a href="mailto:${email}">${email}</a></p>` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Blocked</title></head><body><h1>This AI service is blocked</h1><p>${escapeHtml(page.message ?? '')}</p>${contact}</body></html>`;
}

export interface EndpointRouteDeps {
  endpoint: Endpoint;
  limits: LimitsService;
  loadOrg: (id: string) => Promise<{ id: string; plan: string } | undefined>;
  forceEnabled: (orgId: string) => Promise<boolean>;
}

/** The device operations, `/api/v1/endpoint/*` (docs/endpoint.md has every payload). */
export function endpointRoutes(deps: EndpointRouteDeps) {
  const { endpoint } = deps;
  return async (app: App) => {
    app.post(
      '/api/v1/endpoint/register',
      {
        config: { auth: { mode: 'endpoint', accept: ['al', 'sw'], feature: 'endpoint' } },
        schema: {
          operationId: 'registerDevice',
          tags: TAGS,
          summary: 'Register a device with an API key of its organization; the device token is shown once',
          body: RegisterBody,
          response: { 201: Enrolled, ...errorResponses(401, 403, 429) },
        },
      },
      async (request, reply) => {
        const c = callerOf(request);
        reply.header('cache-control', 'no-store');
        return reply.status(201).send(await endpoint.devices.register(c.org, request.body, c.key?.id ?? ''));
      },
    );

    app.post(
      '/api/v1/endpoint/enroll',
      {
        // The enrollment code is the credential: it names the organization, group and user.
        config: { auth: { mode: 'public' } },
        schema: {
          operationId: 'enrollDevice',
          tags: TAGS,
          summary: 'Enroll a device with the code of an enrollment link; the device token is shown once',
          body: EnrollBody,
          response: { 201: Enrolled, ...errorResponses(401, 403, 429) },
        },
      },
      async (request, reply) => {
        const rate = await deps.limits.hitWindow(`rl:enroll:${request.ip}`, ENROLL_ATTEMPTS_PER_MINUTE);
        for (const [k, v] of Object.entries(rateLimitHeaders(rate))) reply.header(k, v);
        if (rate.exceeded) throw rateLimitedError(rate);
        const enrolled = await endpoint.devices.enroll(request.body, deps.loadOrg);
        reply.header('cache-control', 'no-store');
        return reply.status(201).send(enrolled);
      },
    );

    app.get(
      '/api/v1/endpoint/block-page',
      {
        // Browsers reach it through the DNS block address; they carry no credentials.
        config: { auth: { mode: 'public' }, docs: { mediaTypes: { '403': 'text/html' } } },
        schema: {
          operationId: 'dnsBlockPage',
          tags: TAGS,
          summary: 'The page a name blocked by DNS filtering shows (blockPage.message and contactEmail)',
          querystring: Type.Object({ org: Type.String({ minLength: 1, maxLength: 100 }) }),
          response: { 403: Type.String({ description: 'text/html' }), ...errorResponses(404) },
        },
      },
      async (request, reply) => {
        const dns = (await endpoint.state.get(request.query.org)).dns;
        if (!dns?.blockPage.enabled) throw notFound('Block page');
        return reply.status(403).type('text/html; charset=utf-8').send(blockPageHtml(dns.blockPage));
      },
    );

    app.post(
      '/api/v1/endpoint/bind-user',
      {
        config: { auth: { mode: 'endpoint', accept: ['device', 'al', 'sw'], feature: 'endpoint' } },
        schema: {
          operationId: 'bindDeviceUser',
          tags: TAGS,
          summary:
            'Associate a user (id or e-mail) with a device: the calling device, or deviceId with an API key',
          body: BindUserBody,
          response: {
            200: Type.Object({ deviceId: Type.String(), userId: Type.String() }),
            ...errorResponses(401, 403, 404, 429),
          },
        },
      },
      async (request) => {
        const c = callerOf(request);
        const own = c.device?.deviceId;
        const deviceId = own ?? request.body.deviceId;
        if (!deviceId)
          throw new AppError('invalid_request', 'deviceId is required when an API key calls bind-user.');
        if (own && request.body.deviceId && request.body.deviceId !== own) throw notFound('Device');
        return endpoint.devices.bindUser(c.org, deviceId, request.body, actorOf(c));
      },
    );

    app.post(
      '/api/v1/endpoint/heartbeat',
      {
        config: { auth: DEVICE },
        schema: {
          operationId: 'deviceHeartbeat',
          tags: TAGS,
          summary: 'Last seen, versions and statistics; answers the config version to compare',
          body: HeartbeatBody,
          response: { 200: HeartbeatReply, ...errorResponses(401, 403, 404, 429) },
        },
      },
      async (request) => {
        const d = deviceOf(request);
        const [beat, forceMode] = await Promise.all([
          endpoint.devices.heartbeat(d.orgId, d.deviceId, request.body),
          deps.forceEnabled(d.orgId),
        ]);
        return { ...beat, forceMode };
      },
    );

    app.get(
      '/api/v1/endpoint/config',
      {
        config: { auth: DEVICE },
        schema: {
          operationId: 'deviceConfig',
          tags: TAGS,
          summary: 'Effective policies and settings of the calling device; ETag / If-None-Match answers 304',
          response: {
            200: Type.Object(
              {
                organization: Type.Optional(
                  Type.Object(
                    { id: Type.String(), name: Type.String() },
                    { description: 'the organization the device is enrolled in (its name for the popup)' },
                  ),
                ),
              },
              { additionalProperties: true },
            ),
            304: Type.Null({ description: 'the config is the one named in If-None-Match' }),
            ...errorResponses(401, 403, 404, 429),
          },
        },
      },
      async (request, reply) => {
        const d = deviceOf(request);
        const match = request.headers['if-none-match'];
        const held =
          typeof match === 'string' ? match.split(',').map((m) => m.trim().replace(/^W\//, '')) : [];
        const { org } = callerOf(request);
        const { etag, body } = await endpoint.config.forDevice(d.orgId, d.deviceId, held, {
          plan: org.plan,
          name: org.name,
        });
        reply.header('etag', etag).header('cache-control', 'private, no-cache');
        if (body === null) return reply.status(304).send(null);
        return body;
      },
    );

    app.post(
      '/api/v1/endpoint/alert',
      {
        config: { auth: DEVICE },
        schema: {
          operationId: 'deviceAlert',
          tags: TAGS,
          summary: 'Report a DLP alert (redacted preview only); published as dlp.blocked or dlp.violation',
          body: AlertBody,
          response: {
            201: Type.Object({
              id: Type.String(),
              duplicate: Type.Boolean(),
              event: Type.Union([Type.String(), Type.Null()]),
            }),
            200: Type.Object({
              id: Type.String(),
              duplicate: Type.Boolean(),
              event: Type.Union([Type.String(), Type.Null()]),
            }),
            ...errorResponses(401, 403, 404, 429),
          },
        },
      },
      async (request, reply) => {
        const d = deviceOf(request);
        const org = callerOf(request).org;
        const out = await endpoint.activity.alert(org, d.deviceId, request.body, request.ip);
        return reply.status(out.duplicate ? 200 : 201).send(out);
      },
    );

    app.post(
      '/api/v1/endpoint/log',
      {
        config: { auth: DEVICE },
        // Only the envelope is validated with the request; each entry is checked on its own by the service.
        validatorCompiler: bodyCheckedAs(LogEnvelope),
        schema: {
          operationId: 'deviceLog',
          tags: TAGS,
          summary: 'Send a batch of activity logs; entries are idempotent by their client id',
          description:
            'Each entry is checked on its own. 200: every entry was taken (stored or a duplicate). 207: some ' +
            'were refused and are listed in `rejected` (index, id, error, message); the others were stored. 400 ' +
            'with `rejected`: no entry could be stored. A refused entry is refused for good: do not send it again.',
          body: LogBody,
          response: {
            200: LogReply,
            207: LogPartialReply,
            ...errorResponses(401, 403, 404, 413, 422, 429, 503),
          },
        },
      },
      async (request, reply) => {
        const d = deviceOf(request);
        // The body was validated as its envelope (above), not as the documented LogBody.
        const batch = request.body as unknown as LogEnvelope;
        const out = await endpoint.activity.log(callerOf(request).org, d.deviceId, batch);
        return reply.status('rejected' in out ? 207 : 200).send(out);
      },
    );

    app.post(
      '/api/v1/endpoint/unenroll',
      {
        config: { auth: DEVICE },
        schema: {
          operationId: 'unenrollDevice',
          tags: TAGS,
          summary:
            'The calling device leaves its organization (the user unenrolled, or it enrolled again): revoked, audited as unenrolled or replaced',
          body: UnenrollBody,
          response: {
            200: Type.Object({ deviceId: Type.String(), status: Type.Literal('revoked') }),
            ...errorResponses(401, 403, 404, 429),
          },
        },
      },
      async (request) => {
        const d = deviceOf(request);
        const out = await endpoint.devices.unenroll(callerOf(request).org, d.deviceId, request.body);
        return { deviceId: out.deviceId, status: 'revoked' as const };
      },
    );

    app.post(
      '/api/v1/endpoint/token/rotate',
      {
        config: { auth: DEVICE },
        schema: {
          operationId: 'rotateDeviceToken',
          tags: TAGS,
          summary: 'Replace the calling device token with a new one (shown once); the old one stops working',
          response: {
            200: Type.Object({ deviceId: Type.String(), deviceToken: Type.String() }),
            ...errorResponses(401, 403, 404, 429),
          },
        },
      },
      async (request, reply) => {
        const d = deviceOf(request);
        reply.header('cache-control', 'no-store');
        return endpoint.devices.rotate(d.orgId, d.deviceId);
      },
    );
  };
}
