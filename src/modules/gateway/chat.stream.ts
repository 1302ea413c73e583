import { StreamingRehydrator } from '../../engines/dlp/index.js';
import { type ModelInfo, openStreamWithFallback, ProviderError, type Usage } from '../providers/index.js';
import {
  type ChatResult,
  type ChatService,
  providerFailure,
  type ReadyChat,
  ZERO_USAGE,
} from './chat.service.js';
import { isCutFinish } from './cut-answer.js';
import type { SseSink } from '../protection/index.js';

/**
 * The protected chat as Server-Sent Events: `{type:"token",content}` events rehydrated on the fly, then
 * `{type:"meta",model,usage,conversationId,protection}` and `[DONE]`. A provider failure before the first
 * chunk falls back to the next model; after it, it becomes an in-band `{type:"error"}` event. When the
 * client goes away the upstream call is aborted (through sink.signal) and the usage so far is estimated.
 */
export async function streamChat(chat: ChatService, ready: ReadyChat, sink: SseSink): Promise<void> {
  let opened: Awaited<ReturnType<typeof openStreamWithFallback>>;
  try {
    opened = await openStreamWithFallback(ready.attempts(sink.signal), chat.failedAttempt(ready));
  } catch (err) {
    if (!sink.closed) {
      const e = err instanceof ProviderError ? providerFailure(err) : null;
      await sink.data({
        type: 'error',
        error: e?.code ?? 'internal_error',
        message: e?.message ?? 'The answer could not be produced.',
        statusCode: e?.statusCode ?? 500,
      });
      // No model answered and nothing was stored: a new conversation has no id the client could continue.
      await sink.data(
        metaEvent({
          model: '',
          usage: { ...ZERO_USAGE },
          conversationId: ready.conversation.isNew ? null : ready.conversation.id,
          protection: { ...ready.protection, rehydrated: false },
        }),
      );
      await sink.data('[DONE]');
    }
    sink.end();
    if (!(err instanceof ProviderError)) throw err;
    return;
  }

  const model = ready.models[opened.attempt] as ModelInfo;
  const rehydrator = new StreamingRehydrator(ready.session.map);
  let raw = '';
  let reported: Usage | null | undefined;
  let finishReason: string | null = null;
  let outcome: 'ok' | 'aborted' | 'error' = 'ok';
  let failure: ReturnType<typeof providerFailure> | null = null;
  try {
    for await (const chunk of opened.value) {
      if (chunk.usage) reported = chunk.usage;
      finishReason = chunk.choices[0]?.finish_reason ?? finishReason;
      const piece = chunk.choices[0]?.delta?.content;
      if (typeof piece !== 'string' || piece === '') continue;
      raw += piece;
      const out = rehydrator.push(piece);
      if (out && !(await sink.data({ type: 'token', content: out }))) {
        outcome = 'aborted';
        break;
      }
      if (sink.closed) {
        outcome = 'aborted';
        break;
      }
    }
  } catch (err) {
    if (sink.closed || (err instanceof ProviderError && err.code === 'aborted')) outcome = 'aborted';
    else {
      outcome = 'error';
      failure = err instanceof ProviderError ? providerFailure(err) : null;
      if (!failure) throw err;
    }
  }
  if (sink.closed && outcome === 'ok') outcome = 'aborted';

  const rest = rehydrator.flush();
  // An aborted or cut stream never reports usage: estimate it so the call is still accounted.
  const usage = chat.usageOf(ready, model, outcome === 'ok' ? reported : null, raw);
  // What is stored is `raw`, the upstream's own text (tokens), never the rehydrated text sent here.
  await chat.finish(ready, model, raw, usage, outcome, isCutFinish(finishReason));
  if (!sink.closed) {
    if (rest) await sink.data({ type: 'token', content: rest });
    if (failure) {
      await sink.data({
        type: 'error',
        error: failure.code,
        message: failure.message,
        statusCode: failure.statusCode,
      });
    }
    await sink.data(
      metaEvent({
        model: model.key,
        usage: usage.usage,
        conversationId: chat.storedId(ready),
        protection: { ...ready.protection, rehydrated: rehydrator.restored > 0 },
      }),
    );
    await sink.data('[DONE]');
  }
  sink.end();
}

/** The closing `meta` event: what the non-streamed answer says besides the text itself. */
export function metaEvent(result: Omit<ChatResult, 'response'>) {
  return {
    type: 'meta' as const,
    model: result.model,
    usage: result.usage,
    conversationId: result.conversationId,
    protection: result.protection,
  };
}
