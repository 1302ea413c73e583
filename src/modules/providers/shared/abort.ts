import { EventEmitter } from 'node:events';

/**
 * Says 'abort' once. An EventEmitter rather than an AbortController: the proxy makes two per request (the
 * client going away, and each upstream call), and on Node 20 an AbortSignal and its EventTarget listeners
 * cost an order of magnitude more than this. undici accepts it as a request's `signal` as it is.
 */
export class AbortEmitter extends EventEmitter {
  aborted = false;

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.emit('abort');
  }
}

/** What a provider call can be cancelled with: either kind of signal. */
export type CancelSignal = AbortSignal | AbortEmitter;

/** Calls `listener` once when the signal aborts; returns the function that stops listening. */
export function onAbort(signal: CancelSignal, listener: () => void): () => void {
  if (signal instanceof AbortEmitter) {
    signal.once('abort', listener);
    return () => signal.removeListener('abort', listener);
  }
  signal.addEventListener('abort', listener, { once: true });
  return () => signal.removeEventListener('abort', listener);
}
