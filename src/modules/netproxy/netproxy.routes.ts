import type { TLSSocket } from 'node:tls';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors/index.js';
import { type App, errorResponses, callerOf } from '../../platform/http/index.js';
import { disconnectSignal } from '../gateway/index.js';
import { isNetProvider } from './formats.js';
import { providerOfHost } from './hosts.js';
import type { NetProxy } from './netproxy.service.js';
import { NetproxySettingsSchema } from './netproxy.schemas.js';
import { isOwnError, ownErrorBody } from './wire.js';
import type { NetproxySettingsService } from './settings.service.js';
import { errorFormatOf } from './settings.js';

const PREFIX = '/proxy/';
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The provider path and query after /proxy/:provider, exactly as the client sent them. */
function restOf(request: FastifyRequest, provider: string): string {
  const url = request.url;
  const at = url.indexOf(PREFIX) + PREFIX.length + provider.length;
  const rest = url.slice(at);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** Bodies arrive as bytes (whatever their type or coding), so a request the proxy does not read goes on as it came. */
function rawBodies(app: App, bodyLimit: number): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_req, body, done) => done(null, body));
}

/** One proxied call: prepare (inspect, tokenize), send, relay; the same for both ways in. */
async function forward(
  proxy: NetProxy,
  request: FastifyRequest,
  reply: FastifyReply,
  provider: string,
  pathAndQuery: string,
  clientBase: string,
): Promise<unknown> {
  const caller = callerOf(request);
  const call = await proxy.prepare(
    {
      org: caller.org,
      userId: caller.user?.id ?? null,
      apiKeyId: caller.key?.id ?? null,
      sourceIp: request.ip,
      userAgent: request.headers['user-agent'] ?? null,
    },
    provider,
    request.method,
    pathAndQuery,
    request.headers,
    Buffer.isBuffer(request.body) ? request.body : undefined,
    clientBase,
  );
  const gone = disconnectSignal(reply);
  let upstream: Awaited<ReturnType<NetProxy['send']>>;
  try {
    upstream = await proxy.send(call, gone);
  } catch (err) {
    const failure = proxy.failure(call, err);
    // The vault's commit went on while the request travelled: a failed one is the request's failure (a
    // 500, logged), not left unseen behind the provider's.
    await call.stored;
    request.log.warn(
      { code: 'upstream_error', detail: `${call.provider}: ${failure.status}` },
      'upstream failed',
    );
    return reply
      .status(failure.status)
      .headers({ 'x-svc-tokenized-count': String(call.tokenCount) })
      .type('application/json')
      .serializer(JSON.stringify)
      .send(failure.body);
  }
  await proxy.confirmStored(call, upstream);
  const headers = reply.getHeaders() as Record<string, string | number | string[]>;
  reply.hijack();
  await proxy.relay(call, upstream, reply.raw, headers).catch((err: unknown) => {
    request.log.error({ err }, 'network proxy relay failed');
    if (!reply.raw.headersSent) reply.raw.writeHead(502);
    reply.raw.destroy();
  });
  return undefined;
}

/**
 * Parapet's own errors on these routes (rate limit, quota, force mode, a block, a body it cannot read) keep
 * the spec's Error body, unless the organization chose `errorFormat: native`: then they go out in the
 * provider's error format, so the caller's SDK shows the message. Before the organization is known (401)
 * there is no choice to read: the spec's body.
 */
function nativeErrors(app: App, providerOf: (request: FastifyRequest) => string | undefined): void {
  app.addHook('preSerialization', (request, reply, payload, done) => {
    const provider = providerOf(request);
    const org = request.caller?.org;
    if (
      reply.statusCode < 400 ||
      !org ||
      errorFormatOf(org.settings) !== 'native' ||
      !provider ||
      !isNetProvider(provider) ||
      !isOwnError(payload)
    ) {
      done(null, payload);
      return;
    }
    done(null, ownErrorBody(provider, payload));
  });
}

/** `/proxy/:provider/*` in every method. */
export function netproxyRoutes(proxy: NetProxy, opts: { bodyLimit: number }) {
  return async (app: App) => {
    rawBodies(app, opts.bodyLimit);
    nativeErrors(app, (request) => (request.params as { provider?: string } | undefined)?.provider);
    app.route({
      method: METHODS as ['GET'],
      url: '/proxy/:provider/*',
      config: { auth: { mode: 'serviceKey', product: 'netproxy' } },
      schema: { hide: true },
      handler: async (request, reply) => {
        const { provider } = request.params as { provider: string };
        // The address the client used (scheme and host as a balancer reports them under
        // PARAPET_TRUST_PROXY): where an answer's URL for a later call is moved to (Anthropic's results_url).
        const base = `${request.protocol}://${request.host}/proxy/${provider}`;
        return forward(proxy, request, reply, provider, restOf(request, provider), base);
      },
    });
  };
}

/**
 * Transparent mode: the providers' own paths on their own host names, reached over TLS by clients whose
 * DNS or firewall sends those names here. The provider comes from the TLS server name (the certificate
 * was issued for it), which the Host header must repeat; the organization from X-Service-Key when sent,
 * else from the client's address and the organizations' client networks.
 */
export function interceptRoutes(proxy: NetProxy, opts: { bodyLimit: number }) {
  return async (app: App) => {
    rawBodies(app, opts.bodyLimit);
    nativeErrors(app, (request) => providerOfHost((request.raw.socket as TLSSocket).servername ?? undefined));
    app.route({
      method: METHODS as ['GET'],
      url: '/*',
      config: { auth: { mode: 'serviceKeyOrNetwork', product: 'netproxy' } },
      schema: { hide: true },
      handler: async (request, reply) => {
        const servername = (request.raw.socket as TLSSocket).servername ?? undefined;
        const provider = providerOfHost(servername);
        if (!provider) {
          throw new AppError('not_found', "This proxy answers only for the LLM providers' API host names.");
        }
        if (providerOfHost(request.hostname) !== provider) {
          throw new AppError(
            'invalid_request',
            `The Host header does not name ${String(servername)}, the host this TLS connection was opened for.`,
          );
        }
        // originalUrl: the path as the client sent it, before the server's /v1 → /api/v1 alias.
        return forward(proxy, request, reply, provider, request.originalUrl, `https://${request.host}`);
      },
    });
  };
}

/** The organization's network-proxy settings (its client networks), on the API server. */
export function netproxySettingsRoutes(settings: NetproxySettingsService) {
  return async (app: App) => {
    app.get(
      '/api/dashboard/netproxy/settings',
      {
        config: { auth: { mode: 'session' } },
        schema: {
          operationId: 'getNetproxySettings',
          tags: ['netproxy'],
          summary:
            "Network proxy settings: the client networks that identify the organization in transparent mode, what is done with uninspected requests, and the body of the proxy's own errors",
          response: { 200: NetproxySettingsSchema, ...errorResponses(401, 429) },
        },
      },
      async (request) => settings.get(callerOf(request).org),
    );
    app.put(
      '/api/dashboard/netproxy/settings',
      {
        config: { auth: { mode: 'session', roles: ['owner', 'admin'] } },
        schema: {
          operationId: 'putNetproxySettings',
          tags: ['netproxy'],
          summary:
            "Replace the client networks (CIDRs; none may overlap another organization's), what is done with uninspected requests, and the body of the proxy's own errors",
          body: NetproxySettingsSchema,
          response: { 200: NetproxySettingsSchema, ...errorResponses(400, 401, 403, 409, 429) },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return settings.update(caller.org, request.body, {
          userId: caller.user?.id ?? null,
          apiKeyId: caller.key?.id ?? null,
        });
      },
    );
  };
}
