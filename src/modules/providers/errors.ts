import type { ProviderId } from './types.js';

export type ProviderErrorCode =
  | 'upstream_error'
  | 'rate_limited'
  | 'network_error'
  | 'timeout'
  | 'aborted'
  | 'stream_error'
  | 'invalid_response'
  | 'config_error';

export interface ProviderErrorInit {
  provider: ProviderId;
  status: number;
  body?: unknown;
  code?: ProviderErrorCode;
  retryable?: boolean;
  retryAfter?: number;
  cause?: unknown;
}

/**
 * Any failure of a provider call. `status` is the upstream HTTP status when there was one (also for errors
 * reported inside a stream); otherwise 502 (network/stream cut), 504 (timeout) or 499 (caller aborted).
 * `body` is the upstream error body in the provider's own shape, so the proxy can relay it unchanged.
 */
export class ProviderError extends Error {
  readonly provider: ProviderId;
  readonly status: number;
  readonly body: unknown;
  readonly code: ProviderErrorCode;
  readonly retryable: boolean;
  /** Seconds, from the upstream Retry-After header when it sent one. */
  readonly retryAfter: number | undefined;

  constructor(message: string, init: ProviderErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ProviderError';
    this.provider = init.provider;
    this.status = init.status;
    this.body = init.body ?? null;
    this.code = init.code ?? (init.status === 429 ? 'rate_limited' : 'upstream_error');
    this.retryable = init.retryable ?? isRetryableStatus(init.status);
    this.retryAfter = init.retryAfter;
  }
}

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

export function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** Digs the human message out of the usual error shapes, so ours says more than "status 400". */
export function upstreamMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return body.slice(0, 300) || undefined;
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const err = b['error'];
  if (typeof err === 'string') return err;
  if (err && typeof err === 'object') {
    const m = (err as Record<string, unknown>)['message'];
    if (typeof m === 'string') return m;
  }
  if (typeof b['message'] === 'string') return b['message'];
  return undefined;
}
