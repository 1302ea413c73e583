import type { FastifyRequest } from 'fastify';
import type { App } from '../../platform/http/index.js';
import { callerOf } from '../auth/index.js';
import type { NetProxy } from './netproxy.service.js';

const PREFIX = '/proxy/';

/** The provider path and query after /proxy/:provider, exactly as the client sent them. */
function restOf(request: FastifyRequest, provider: string): string {
  const url = request.url;
  const at = url.indexOf(PREFIX) + PREFIX.length + provider.length;
  const rest = url.slice(at);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/**
 * `/proxy/:provider/*` in every method: bodies arrive as bytes (whatever their type or coding), so that a
 * request the proxy does not read is forwarded exactly as it came.
 */
export function netproxyRoutes(proxy: NetProxy, opts: { bodyLimit: number }) {
  return async (app: App) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: opts.bodyLimit }, (_req, body, done) =>
      done(null, body),
    );

    app.route({
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url: '/proxy/:provider/*',
      config: { auth: { mode: 'serviceKey', product: 'netproxy' } },
      schema: { hide: true },
      handler: async (request, reply) => {
        const caller = callerOf(request);
        const { provider } = request.params as { provider: string };
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
          restOf(request, provider),
          request.headers,
          Buffer.isBuffer(request.body) ? request.body : undefined,
        );
        const gone = new AbortController();
        reply.raw.once('close', () => {
          if (!reply.raw.writableFinished) gone.abort();
        });
        let upstream: Awaited<ReturnType<NetProxy['send']>>;
        try {
          upstream = await proxy.send(call, gone.signal);
        } catch (err) {
          const failure = proxy.failure(call, err);
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
        const headers = reply.getHeaders() as Record<string, string | number | string[]>;
        reply.hijack();
        await proxy.relay(call, upstream, reply.raw, headers).catch((err: unknown) => {
          request.log.error({ err }, 'network proxy relay failed');
          if (!reply.raw.headersSent) reply.raw.writeHead(502);
          reply.raw.destroy();
        });
      },
    });
  };
}
