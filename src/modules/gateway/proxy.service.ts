import { AppError } from '../../platform/errors/index.js';
import type { VaultSession } from '../dlp/index.js';
import type { Organization } from '../orgs/index.js';
import {
  type CallContext,
  type CancelSignal,
  type ChatChunk,
  type ChatRequest,
  type ChatResponse,
  estimateCost,
  estimateMessagesTokens,
  estimateTokens,
  findModel,
  isProviderId,
  openStreamWithFallback,
  type ProviderAdapter,
  ProviderError,
  type ProviderId,
  type Providers,
  type Usage,
} from '../providers/index.js';
import {
  ChunkRehydrator,
  type Protection,
  type ProtectedCaller,
  promptTexts,
  rehydrateResponse,
  requestFields,
  type SseSink,
} from '../protection/index.js';
import type { ForceService } from './force.service.js';
import type { UsageRecorder } from './usage.recorder.js';

/** The path detection events of the provider proxy name, with the provider in place of `:provider`. */
const PROXY_PATH = '/api/v1/proxy/:provider/v1/chat/completions';

/** Provider values of the proxy path: the spec's list plus groq; "the service itself" is the offline model. */
export const PROXY_ALIASES: Record<string, ProviderId> = { parapet: 'parapet', service: 'parapet' };

export function proxyProviderOf(value: string): ProviderId {
  const id = PROXY_ALIASES[value] ?? value;
  if (!isProviderId(id)) {
    throw new AppError(
      'invalid_request',
      `Unknown provider '${value}'. Use openai, anthropic, google, mistral, azure, cohere, openrouter, together, fireworks, groq or parapet.`,
    );
  }
  return id;
}

export type ProxyCaller = ProtectedCaller;

export interface ProxyCall {
  org: Organization;
  provider: ProviderId;
  adapter: ProviderAdapter;
  request: ChatRequest;
  ctx: CallContext;
  session: VaultSession | null;
  tokenCount: number;
  /**
   * The vault's commit of `session`, going on while the request travels upstream: awaited before any of
   * the answer reaches the client, so no answer arrives for a session that is not stored.
   */
  stored: Promise<void> | undefined;
  dlpMs: number;
  /** Time in the provider call (for streams: up to the first chunk); set also when the call fails. */
  upstreamMs: number;
}

/**
 * Ends a stream opened but not relayed. The fallback's stream is a generator that has not started yet,
 * and return() on such a generator skips its cleanup: taking the chunk it already holds first makes
 * return() run the code that cancels the upstream request.
 */
async function discard(stream: AsyncIterable<ChatChunk>): Promise<void> {
  const it = stream[Symbol.asyncIterator]();
  await it.next().catch(() => undefined);
  await it.return?.().catch(() => undefined);
}

function asksForUsage(request: ChatRequest): boolean {
  return (
    (request['stream_options'] as { include_usage?: unknown } | null | undefined)?.include_usage === true
  );
}

/** The provider proxy: OpenAI chat-completions in and out, tokenized on the way up, rehydrated on the way down. */
export function createProxyService(deps: {
  protection: Protection;
  providers: Providers;
  force: ForceService;
  usage: UsageRecorder;
  idleTimeoutMs?: number;
}) {
  const idleTimeoutMs = deps.idleTimeoutMs ?? 120_000;

  /** The call's model in the catalog (for its price), and the key its usage is recorded under. */
  function modelOf(call: ProxyCall) {
    const model = findModel(`${call.provider}/${call.request.model}`);
    // The catalog's key, as the chat records it, so a usage report counts one model once.
    return { model, key: model?.key ?? `${call.provider}/${String(call.request.model ?? '')}` };
  }

  function record(
    call: ProxyCall,
    reported: Usage | null | undefined,
    answer: string,
    outcome: 'ok' | 'aborted' | 'error',
  ) {
    const prompt = reported?.prompt_tokens ?? estimateMessagesTokens(call.request.messages);
    const completion = reported?.completion_tokens ?? estimateTokens(answer);
    const { model, key } = modelOf(call);
    deps.usage.record({
      orgId: call.org.id,
      endpoint: 'proxy',
      provider: call.provider,
      model: key,
      promptTokens: prompt,
      completionTokens: completion,
      cost: model ? estimateCost(model, prompt, completion) : 0,
      source: reported ? 'provider' : 'estimated',
      outcome,
    });
  }

  /** A provider call that ended before its answer began: aborted (estimated), or failed (usage.failed). */
  function recordFailure(call: ProxyCall, err: unknown) {
    if (!(err instanceof ProviderError)) return;
    if (err.code === 'aborted') return record(call, null, '', 'aborted');
    deps.usage.failed({
      orgId: call.org.id,
      endpoint: 'proxy',
      provider: call.provider,
      model: modelOf(call).key,
    });
  }

  return {
    async prepare(
      caller: ProxyCaller,
      providerParam: string,
      body: ChatRequest,
      providerKey: string | undefined,
      signal: CancelSignal,
    ): Promise<ProxyCall> {
      const provider = proxyProviderOf(providerParam);
      await deps.force.assertProxyAllowed(caller.org.id);
      const adapter = deps.providers.get(provider);
      if (!adapter) throw new AppError('invalid_request', `Provider '${providerParam}' is not available.`);
      if (provider !== 'parapet' && !providerKey) {
        throw new AppError(
          'invalid_request',
          'Send your provider key as Authorization: Bearer <key>; Parapet passes it through and never stores it.',
        );
      }
      // The injection check reads what the user wrote last (the system prompt as its context) and the tool
      // outputs of the newest turn; tokenization every string of the body but its structural and opaque
      // values (the chat-completions rule the network proxy applies too): `user`, `metadata`, file names
      // and fields this service does not know go up tokenized like message text. The event's endpoint
      // names the provider (a checked id), as the network proxy's does.
      await deps.protection.checkPrompt(
        caller,
        promptTexts('openai-chat', body as unknown as Record<string, unknown>),
        PROXY_PATH.replace(':provider', provider),
      );
      const { fields, commit } = requestFields('openai-chat', body);
      const started = performance.now();
      // Each proxied request has its own session, rehydrated from `session` below and never by id. Its
      // commit overlaps the provider call (the tokenized request holds no original); complete() and open()
      // await it before the answer goes on.
      const outcome = await deps.protection.tokenize(caller, fields, {
        cacheSession: false,
        deferCommit: true,
      });
      commit();
      return {
        org: caller.org,
        provider,
        adapter,
        request: body,
        ctx: { apiKey: providerKey ?? '', signal, idleTimeoutMs },
        session: outcome.session,
        tokenCount: outcome.tokenCount,
        stored: outcome.stored,
        dlpMs: performance.now() - started,
        upstreamMs: 0,
      };
    },

    /** Throws ProviderError for upstream failures, so the route can relay them in the provider's shape. */
    async complete(call: ProxyCall): Promise<{ response: ChatResponse; restored: number }> {
      const started = performance.now();
      let response: ChatResponse;
      try {
        response = await call.adapter.chat({ ...call.request, stream: false }, call.ctx);
      } catch (err) {
        recordFailure(call, err);
        // The provider's error goes to the client with x-svc-vault-session like an answer, so it too waits
        // for the vault's commit; a failed commit is thrown instead (a 500 without the session).
        await call.stored;
        throw err;
      } finally {
        call.upstreamMs = performance.now() - started;
      }
      if (call.stored) {
        try {
          await call.stored;
        } catch (err) {
          record(call, response.usage, '', 'error');
          throw err;
        }
      }
      const answer = response.choices
        .map((c) => (typeof c.message?.content === 'string' ? c.message.content : ''))
        .join('');
      record(call, response.usage, answer, 'ok');
      const restored = call.session ? rehydrateResponse(response, call.session.map) : 0;
      return { response, restored };
    },

    /** Opens the upstream stream up to its first chunk: errors before it still have an HTTP status to use. */
    async open(call: ProxyCall): Promise<AsyncIterable<ChatChunk>> {
      const started = performance.now();
      try {
        const opened = await openStreamWithFallback(
          [{ adapter: call.adapter, request: { ...call.request, stream: true }, ctx: call.ctx }],
          (_attempt, err) => recordFailure(call, err),
        );
        if (call.stored) {
          try {
            await call.stored;
          } catch (err) {
            await discard(opened.value);
            record(call, null, '', 'error');
            throw err;
          }
        }
        return opened.value;
      } catch (err) {
        // As in complete(): a provider's error waits for the commit, and a failed commit replaces it.
        if (err instanceof ProviderError) await call.stored;
        throw err;
      } finally {
        call.upstreamMs = performance.now() - started;
      }
    },

    /** Relays the chunks, rehydrated, as OpenAI SSE; returns the number of tokens restored. */
    async pump(call: ProxyCall, stream: AsyncIterable<ChatChunk>, sink: SseSink): Promise<number> {
      const rehydrator = call.session ? new ChunkRehydrator(call.session.map) : null;
      // The adapters ask every provider for usage so that streams are billed from it, but OpenAI sends its
      // usage-only chunk (empty choices) only to callers that asked: clients that read choices[0] of every
      // chunk would break on one they did not ask for.
      const relayUsage = asksForUsage(call.request);
      let last: ChatChunk | undefined;
      let reported: Usage | null | undefined;
      let answer = '';
      let outcome: 'ok' | 'aborted' | 'error' = 'ok';
      try {
        for await (const chunk of stream) {
          last = chunk;
          if (chunk.usage) reported = chunk.usage;
          if (chunk.usage && chunk.choices.length === 0 && !relayUsage) continue;
          for (const c of chunk.choices) if (typeof c.delta?.content === 'string') answer += c.delta.content;
          if (rehydrator && !rehydrator.transform(chunk)) continue;
          if (!(await sink.data(chunk)) || sink.closed) {
            outcome = 'aborted';
            break;
          }
        }
        if (outcome === 'ok') {
          const tail = rehydrator?.finish(last);
          if (tail) await sink.data(tail);
          await sink.data('[DONE]');
        }
      } catch (err) {
        if (sink.closed || (err instanceof ProviderError && err.code === 'aborted')) outcome = 'aborted';
        else {
          outcome = 'error';
          // After the first byte the status is sent: the error goes in-band, as OpenAI does.
          const body =
            err instanceof ProviderError && err.body && typeof err.body === 'object' && 'error' in err.body
              ? err.body
              : {
                  error: {
                    message: err instanceof ProviderError ? err.message : 'The stream failed.',
                    type: 'upstream_error',
                    code: err instanceof ProviderError ? err.code : 'internal_error',
                  },
                };
          await sink.data(body);
        }
      }
      record(call, outcome === 'ok' ? reported : null, answer, outcome);
      return rehydrator?.restored ?? 0;
    },
  };
}

export type ProxyService = ReturnType<typeof createProxyService>;
