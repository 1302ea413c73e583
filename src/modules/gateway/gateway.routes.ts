import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  type App,
  addServerTiming,
  elapsedMs,
  errorResponses,
  formatMs as ms,
  logUpstreamFailure,
  callerOf,
} from '../../platform/http/index.js';
import { AppError } from '../../platform/errors/index.js';
import { holdsServiceSecret } from '../keys/index.js';
import { AbortEmitter, type ChatRequest, ProviderError } from '../providers/index.js';
import { metaEvent, streamChat } from './chat.stream.js';
import type { Gateway } from './gateway.service.js';
import { CHAT_SESSION_ROLES } from './history.routes.js';
import {
  ChatBodySchema,
  ChatResultSchema,
  DeletedSchema,
  ForceStatusSchema,
  ForceSwitchBody,
  ForceSwitchResult,
  ProviderKeyBody,
  ProviderKeyList,
  ProviderKeySchema,
  ProviderParams,
  ProxyBodySchema,
  ProxyResponseSchema,
} from './gateway.schemas.js';
import { providerFailure } from './chat.service.js';
import { openSse } from '../protection/index.js';

const MANAGERS = ['owner', 'admin'] as const;
// The proxy's answer has the provider's shape, not a schema's: plain JSON, without a compiled serializer.
const toJson = (payload: unknown) => JSON.stringify(payload);

/**
 * Says 'abort' when the client goes away before its answer was sent: the upstream call's signal. An
 * AbortEmitter, not an AbortController: on Node 20 an AbortSignal given to undici outlived the request
 * (it was among the largest sources of objects promoted to the old generation in the network proxy's
 * sampling heap profile), and it costs more to make.
 */
export function disconnectSignal(reply: FastifyReply): AbortEmitter {
  const gone = new AbortEmitter();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) gone.abort();
  });
  return gone;
}

function providerKeyOf(request: FastifyRequest): string | undefined {
  const key = providerKeyHeader(request);
  // The provider key goes to the provider: a Parapet key there (an SDK's apiKey set to it) never does.
  if (key !== undefined && holdsServiceSecret(key)) {
    throw new AppError(
      'invalid_request',
      "The provider key (Authorization: Bearer, or api-key) is a Parapet key, which is never sent to a provider: send it as X-Service-Key and the provider's own key as Bearer.",
    );
  }
  return key;
}

function providerKeyHeader(request: FastifyRequest): string | undefined {
  const auth = request.headers['authorization'];
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(.+)$/i.exec(auth.trim());
    if (m?.[1]) return m[1].trim();
  }
  const azure = request.headers['api-key'];
  return typeof azure === 'string' && azure.trim() ? azure.trim() : undefined;
}

/**
 * Relays an upstream HTTP error as the provider sent it, with the time the provider took; our own
 * failures (network, timeout) in our shape. Anything that is not a provider's failure is rethrown.
 */
function relayProviderError(
  request: FastifyRequest,
  reply: FastifyReply,
  err: unknown,
  upstreamMs: number,
): FastifyReply | never {
  if (!(err instanceof ProviderError)) throw err;
  addServerTiming(request, 'upstream', upstreamMs);
  if (err.body === null || err.body === undefined || err.code === 'network_error' || err.code === 'timeout') {
    throw providerFailure(err);
  }
  // A 4xx is the caller's request or key (or its own rate limit), answered to the caller, not an outage.
  // Not err.message: it quotes the provider's error text, which may echo the prompt.
  if (err.status >= 500)
    logUpstreamFailure(request, 'upstream_status', `${err.provider} responded ${err.status}`);
  if (err.retryAfter !== undefined) reply.header('retry-after', String(err.retryAfter));
  return reply
    .status(err.status >= 400 && err.status <= 599 ? err.status : 502)
    .type('application/json; charset=utf-8')
    .serializer((p: unknown) => (typeof p === 'string' ? p : JSON.stringify(p)))
    .send(typeof err.body === 'string' ? JSON.stringify({ error: { message: err.body } }) : err.body);
}

export function gatewayRoutes(gw: Gateway) {
  return async (app: App) => {
    app.post(
      '/api/v1/gateway/chat',
      {
        // session too: the dashboard's protected chat page calls this with its cookie, never with a key
        config: {
          auth: { mode: 'apiKey', product: 'chat', session: true, sessionRoles: CHAT_SESSION_ROLES },
          docs: {
            eventStream:
              'With stream: true. Each event is a line `data: <json>`: {"type":"token","content":"…"} for each piece of the answer, then {"type":"meta","model":"…","conversationId":"…","usage":{…},"protection":{…}}; the stream ends with `data: [DONE]`. An error after the stream started is sent as {"type":"error","error":"<code>","message":"…","statusCode":…} before the meta event.',
          },
        },
        schema: {
          operationId: 'gatewayChat',
          tags: ['gateway'],
          summary:
            'Protected chat: injection check, tokenization, routing, provider call, rehydration (stream: true answers with Server-Sent Events)',
          body: ChatBodySchema,
          response: { 200: ChatResultSchema, ...errorResponses(401, 403, 404, 413, 422, 429, 502, 503, 504) },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const prepared = await gw.chat.prepare(
          {
            org: caller.org,
            userId: caller.user?.id ?? null,
            apiKeyId: caller.key?.id ?? null,
            sourceIp: request.ip,
            userAgent: request.headers['user-agent'] ?? null,
          },
          request.body,
        );
        if (request.body.stream) {
          const dlpPhase = prepared.kind === 'ready' ? `, dlp;dur=${ms(prepared.dlpMs)}` : '';
          const headers = reply.getHeaders();
          reply.hijack();
          const sink = openSse(reply.raw, {
            ...headers,
            'server-timing': `app;dur=${ms(elapsedMs(request))}${dlpPhase}`,
          });
          if (prepared.kind === 'blocked') {
            await sink.data({ type: 'token', content: prepared.result.response });
            await sink.data(metaEvent(prepared.result));
            await sink.data('[DONE]');
            sink.end();
            return;
          }
          await streamChat(gw.chat, prepared, sink).catch((err: unknown) => {
            request.log.error({ err }, 'chat stream failed');
            sink.end();
          });
          return;
        }
        if (prepared.kind === 'blocked') return prepared.result;
        addServerTiming(request, 'dlp', prepared.dlpMs);
        const { upstreamMs, ...result } = await gw.chat.complete(prepared, disconnectSignal(reply));
        addServerTiming(request, 'upstream', upstreamMs);
        return result;
      },
    );

    const proxyRoute = (url: string, operationId: string, hide: boolean) =>
      app.post(
        url,
        {
          config: {
            auth: { mode: 'serviceKey', product: 'netproxy' },
            docs: {
              eventStream:
                "With stream: true: the provider's chat-completion chunks (`data: <chunk json>`), rehydrated, ending with `data: [DONE]`; x-svc-rehydrated-count then comes as a trailer.",
              responseHeaders: {
                'x-svc-vault-session': 'Vault session identifier (when personal data was tokenized)',
                'x-svc-tokenized-count': 'Number of tokens detected in the request',
                'x-svc-rehydrated-count':
                  'Number of tokens rehydrated in the response (a trailer on streamed answers)',
              },
            },
          },
          schema: {
            operationId,
            tags: ['gateway'],
            summary:
              'Provider proxy in the OpenAI chat-completions format: your provider key in Authorization, the service key in X-Service-Key',
            ...(hide ? { hide: true } : {}),
            params: ProviderParams,
            body: ProxyBodySchema,
            response: {
              200: ProxyResponseSchema,
              ...errorResponses(401, 403, 404, 413, 422, 429, 502, 503, 504),
            },
          },
        },
        async (request, reply) => {
          const caller = callerOf(request);
          const signal = disconnectSignal(reply);
          const call = await gw.proxy.prepare(
            {
              org: caller.org,
              userId: caller.user?.id ?? null,
              apiKeyId: caller.key?.id ?? null,
              sourceIp: request.ip,
              userAgent: request.headers['user-agent'] ?? null,
            },
            request.params.provider,
            request.body as unknown as ChatRequest,
            providerKeyOf(request),
            signal,
          );
          addServerTiming(request, 'dlp', call.dlpMs);
          const svc: Record<string, string> = { 'x-svc-tokenized-count': String(call.tokenCount) };
          if (call.session) svc['x-svc-vault-session'] = call.session.id;

          if (!request.body.stream) {
            let out: Awaited<ReturnType<typeof gw.proxy.complete>>;
            try {
              out = await gw.proxy.complete(call);
            } catch (err) {
              // Not the provider's failure (the vault's commit): no session header for a session not stored.
              if (!(err instanceof ProviderError)) throw err;
              return relayProviderError(request, reply.headers(svc), err, call.upstreamMs);
            }
            addServerTiming(request, 'upstream', call.upstreamMs);
            return reply
              .headers({ ...svc, 'x-svc-rehydrated-count': String(out.restored) })
              .type('application/json; charset=utf-8')
              .serializer(toJson)
              .send(out.response);
          }

          let stream: Awaited<ReturnType<typeof gw.proxy.open>>;
          try {
            stream = await gw.proxy.open(call);
          } catch (err) {
            // Not the provider's failure (the vault's commit): no session header for a session not stored.
            if (!(err instanceof ProviderError)) throw err;
            return relayProviderError(request, reply.headers(svc), err, call.upstreamMs);
          }
          const headers = reply.getHeaders();
          reply.hijack();
          const sink = openSse(
            reply.raw,
            {
              ...headers,
              ...svc,
              'server-timing': `app;dur=${ms(elapsedMs(request))}, dlp;dur=${ms(call.dlpMs)}, upstream;dur=${ms(call.upstreamMs)}`,
            },
            { trailers: ['x-svc-rehydrated-count'], flushHeaders: false },
          );
          try {
            const restored = await gw.proxy.pump(call, stream, sink);
            if (!sink.closed) reply.raw.addTrailers({ 'x-svc-rehydrated-count': String(restored) });
          } catch (err) {
            request.log.error({ err }, 'proxy stream failed');
          }
          sink.end();
        },
      );
    proxyRoute('/api/v1/proxy/:provider/v1/chat/completions', 'providerProxy', false);
    proxyRoute('/v1/proxy/:provider/v1/chat/completions', 'providerProxyShort', true);

    app.get(
      '/api/dashboard/gateway/force',
      {
        config: { auth: { mode: 'session' } },
        schema: {
          operationId: 'forceStatus',
          tags: ['gateway'],
          summary: 'Force mode status',
          response: { 200: ForceStatusSchema, ...errorResponses(401, 403, 429) },
        },
      },
      async (request) => gw.force.status(callerOf(request).org.id),
    );

    app.post(
      '/api/dashboard/gateway/force',
      {
        config: { auth: { mode: 'session', roles: MANAGERS } },
        schema: {
          operationId: 'forceSwitch',
          tags: ['gateway'],
          summary: 'Switch force mode on or off (owner or admin)',
          body: ForceSwitchBody,
          response: { 200: ForceSwitchResult, ...errorResponses(401, 403, 429) },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return gw.force.switch(caller.org, caller.user?.id ?? '', request.body.enabled);
      },
    );

    app.get(
      '/api/dashboard/gateway/providers',
      {
        config: { auth: { mode: 'session', roles: MANAGERS } },
        schema: {
          operationId: 'providerKeysList',
          tags: ['gateway'],
          summary: "The organization's provider keys for the protected chat (never the keys themselves)",
          response: { 200: ProviderKeyList, ...errorResponses(401, 403, 429) },
        },
      },
      async (request) => ({ providers: await gw.keys.list(callerOf(request).org.id) }),
    );

    app.get(
      '/api/dashboard/gateway/providers/:provider',
      {
        config: { auth: { mode: 'session', roles: MANAGERS } },
        schema: {
          operationId: 'providerKeyGet',
          tags: ['gateway'],
          summary: 'Whether a key is stored for one provider',
          params: ProviderParams,
          response: { 200: ProviderKeySchema, ...errorResponses(401, 403, 404, 429) },
        },
      },
      async (request) => gw.keys.get(callerOf(request).org.id, request.params.provider),
    );

    app.put(
      '/api/dashboard/gateway/providers/:provider',
      {
        config: { auth: { mode: 'session', roles: MANAGERS } },
        schema: {
          operationId: 'providerKeyPut',
          tags: ['gateway'],
          summary:
            'Store (or replace) the provider key the protected chat uses; sealed at rest, never returned',
          params: ProviderParams,
          body: ProviderKeyBody,
          response: { 200: ProviderKeySchema, ...errorResponses(401, 403, 429) },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        return gw.keys.put(
          caller.org,
          request.params.provider,
          {
            apiKey: request.body.apiKey,
            ...(request.body.baseUrl !== undefined ? { baseUrl: request.body.baseUrl } : {}),
          },
          caller.user?.id ?? null,
        );
      },
    );

    app.delete(
      '/api/dashboard/gateway/providers/:provider',
      {
        config: { auth: { mode: 'session', roles: MANAGERS } },
        schema: {
          operationId: 'providerKeyDelete',
          tags: ['gateway'],
          summary: 'Remove a stored provider key',
          params: ProviderParams,
          response: { 200: DeletedSchema, ...errorResponses(401, 403, 404, 429) },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        await gw.keys.remove(caller.org, request.params.provider, caller.user?.id ?? null);
        return { success: true };
      },
    );
  };
}
