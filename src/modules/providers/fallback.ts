import { ProviderError } from './errors.js';
import type { CallContext, ChatChunk, ChatRequest, ChatResponse, ProviderAdapter } from './types.js';

/** One way to answer a request: an adapter, the request for its model, and the context for its key. */
export interface Attempt {
  adapter: ProviderAdapter;
  request: ChatRequest;
  ctx: CallContext;
}

export interface FallbackResult<T> {
  value: T;
  /** Index into the attempts of the one that answered. */
  attempt: number;
  /** Failures of the attempts tried before it, in order. */
  errors: ProviderError[];
}

/**
 * Told of every attempt that failed before its answer began (the one whose error is thrown included), with
 * its index: the caller accounts each failed provider call, which `errors` alone would not show when all fail.
 */
export type OnAttemptFailure = (attempt: number, err: unknown) => void;

/** Retryable failures move on to the next attempt; a caller abort or a 4xx (bad request, bad key) does not. */
function shouldFallBack(err: unknown): err is ProviderError {
  return err instanceof ProviderError && err.retryable && err.code !== 'aborted';
}

export async function chatWithFallback(
  attempts: Attempt[],
  onFailure?: OnAttemptFailure,
): Promise<FallbackResult<ChatResponse>> {
  const errors: ProviderError[] = [];
  for (const [i, a] of attempts.entries()) {
    try {
      return { value: await a.adapter.chat(a.request, a.ctx), attempt: i, errors };
    } catch (err) {
      onFailure?.(i, err);
      if (!shouldFallBack(err) || i === attempts.length - 1) throw err;
      errors.push(err);
    }
  }
  throw new Error('chatWithFallback needs at least one attempt');
}

/**
 * Opens a stream, falling back only until the first chunk arrives: after that bytes may have reached the
 * client and a switch of model would show. The returned stream replays that first chunk, then continues.
 */
export async function openStreamWithFallback(
  attempts: Attempt[],
  onFailure?: OnAttemptFailure,
): Promise<FallbackResult<AsyncIterable<ChatChunk>>> {
  const errors: ProviderError[] = [];
  for (const [i, a] of attempts.entries()) {
    const iterator = a.adapter.stream(a.request, a.ctx)[Symbol.asyncIterator]();
    let first: IteratorResult<ChatChunk>;
    try {
      first = await iterator.next();
    } catch (err) {
      onFailure?.(i, err);
      if (!shouldFallBack(err) || i === attempts.length - 1) throw err;
      errors.push(err);
      continue;
    }
    return { value: resume(first, iterator), attempt: i, errors };
  }
  throw new Error('openStreamWithFallback needs at least one attempt');
}

async function* resume(
  first: IteratorResult<ChatChunk>,
  iterator: AsyncIterator<ChatChunk>,
): AsyncGenerator<ChatChunk> {
  let completed = false;
  try {
    if (first.done) {
      completed = true;
      return;
    }
    yield first.value;
    while (true) {
      const next = await iterator.next();
      if (next.done) {
        completed = true;
        return;
      }
      yield next.value;
    }
  } finally {
    // The consumer stopped early: pass that on so the adapter cancels the upstream request.
    if (!completed) await iterator.return?.();
  }
}
