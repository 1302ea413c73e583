import { ProviderError } from '../errors.js';
import type { CallContext, ProviderId } from '../types.js';
import { AbortEmitter, onAbort } from './abort.js';

type StopReason = 'caller' | 'timeout' | 'idle' | 'consumer';

/**
 * One abort signal per upstream call, fed by the caller's signal, the call timeout and the consumer
 * stopping a stream early, so we can tell afterwards which of them cut the request.
 */
export class CallSignal {
  readonly signal = new AbortEmitter();
  private stopReason: StopReason | undefined;
  private timer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private stopListening: (() => void) | undefined;

  constructor(
    private readonly provider: ProviderId,
    private readonly ctx: CallContext,
  ) {
    if (ctx.signal?.aborted) this.stop('caller');
    else if (ctx.signal) this.stopListening = onAbort(ctx.signal, () => this.stop('caller'));
    if (ctx.timeoutMs !== undefined && ctx.timeoutMs > 0) {
      this.timer = setTimeout(() => this.stop('timeout'), ctx.timeoutMs);
      this.timer.unref();
    }
    this.touch();
  }

  /** Called whenever bytes arrive: restarts the idle deadline (ctx.idleTimeoutMs). */
  touch(): void {
    const idle = this.ctx.idleTimeoutMs;
    if (idle === undefined || idle <= 0 || this.stopReason) return;
    if (this.idleTimer) this.idleTimer.refresh();
    else {
      this.idleTimer = setTimeout(() => this.stop('idle'), idle);
      this.idleTimer.unref();
    }
  }

  stop(reason: StopReason): void {
    if (this.stopReason) return;
    this.stopReason = reason;
    this.signal.abort();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.stopListening?.();
  }

  get stopped(): boolean {
    return this.stopReason !== undefined;
  }

  /** Turns whatever fetch or the body reader threw into a ProviderError that says what happened. */
  toError(err: unknown, phase: 'connect' | 'stream'): ProviderError {
    if (err instanceof ProviderError) return err;
    const provider = this.provider;
    if (this.stopReason === 'timeout' || this.stopReason === 'idle') {
      const what =
        this.stopReason === 'idle'
          ? `sent nothing for ${this.ctx.idleTimeoutMs} ms`
          : `did not answer within ${this.ctx.timeoutMs} ms`;
      return new ProviderError(`${provider} ${what}`, {
        provider,
        status: 504,
        code: 'timeout',
        retryable: true,
        cause: err,
      });
    }
    if (this.stopReason) {
      return new ProviderError(`${provider} request aborted`, {
        provider,
        status: 499,
        code: 'aborted',
        retryable: false,
        cause: err,
      });
    }
    const what = phase === 'connect' ? 'could not be reached' : 'dropped the connection mid-stream';
    return new ProviderError(`${provider} ${what}`, {
      provider,
      status: 502,
      code: phase === 'connect' ? 'network_error' : 'stream_error',
      retryable: true,
      cause: err,
    });
  }
}
