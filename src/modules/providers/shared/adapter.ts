import { ProviderError } from '../errors.js';
import type {
  CallContext,
  ChatChunk,
  ChatRequest,
  ChatResponse,
  ProviderAdapter,
  ProviderId,
} from '../types.js';
import { CallSignal } from './call-signal.js';
import { postJson, readJson, type UpstreamRequest } from './http.js';
import { readSse, type SseEvent } from './sse.js';

/** What differs between providers; the HTTP, abort and error plumbing is shared. */
export interface WireFormat {
  id: ProviderId;
  buildRequest(req: ChatRequest, ctx: CallContext, baseUrl: string, stream: boolean): UpstreamRequest;
  parseResponse(body: unknown, req: ChatRequest): ChatResponse;
  translateStream(events: AsyncIterable<SseEvent>, req: ChatRequest): AsyncGenerator<ChatChunk>;
}

export function createHttpAdapter(
  format: WireFormat,
  configuredBaseUrl: string | undefined,
): ProviderAdapter {
  const id = format.id;
  const baseUrlFor = (ctx: CallContext): string => {
    const base = ctx.baseUrl ?? configuredBaseUrl;
    if (!base) {
      throw new ProviderError(`${id} has no base URL configured`, {
        provider: id,
        status: 400,
        code: 'config_error',
        retryable: false,
      });
    }
    return base;
  };

  return {
    id,
    async chat(req, ctx) {
      const call = new CallSignal(id, ctx);
      try {
        const upstream = format.buildRequest(req, ctx, baseUrlFor(ctx), false);
        const response = await postJson(upstream, call);
        const body = await readJson(id, response, call);
        return format.parseResponse(body, req);
      } finally {
        call.dispose();
      }
    },
    async *stream(req, ctx) {
      const call = new CallSignal(id, ctx);
      let ended = false;
      try {
        const upstream = format.buildRequest(req, ctx, baseUrlFor(ctx), true);
        upstream.headers = { accept: 'text/event-stream', ...upstream.headers };
        const response = await postJson(upstream, call);
        yield* format.translateStream(readSse(id, response, call), req);
        ended = true;
      } finally {
        // Reached on normal end, on error and when the consumer breaks out early: in the last two cases
        // this is what cancels the upstream request. After a normal end there is nothing left to cancel.
        if (!ended) call.stop('consumer');
        call.dispose();
      }
    },
  };
}

export function invalidResponse(provider: ProviderId, what: string, body?: unknown): ProviderError {
  return new ProviderError(`${provider} returned an unexpected ${what}`, {
    provider,
    status: 502,
    code: 'invalid_response',
    retryable: false,
    body,
  });
}

export function streamEndedEarly(provider: ProviderId): ProviderError {
  return new ProviderError(`${provider} ended the stream before it finished`, {
    provider,
    status: 502,
    code: 'stream_error',
    retryable: true,
  });
}
