/**
 * The closed set of machine codes the API answers with. Every error body comes from here so that a code
 * can never drift from its status. The documentation of each code is docs/errors.md.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  plan_required: 403,
  entitlement_missing: 403,
  quota_exceeded: 403,
  gateway_force_blocked: 403,
  password_change_required: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  analysis_budget_exceeded: 422,
  rate_limit_exceeded: 429,
  headers_too_large: 431,
  internal_error: 500,
  upstream_error: 502,
  service_unavailable: 503,
  upstream_timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly retryAfter: number | undefined;
  readonly headers: Record<string, string>;
  /** Extra body fields a client acts on (e.g. `reenroll` on a device token refused); documented per route. */
  readonly fields: Record<string, unknown> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    extra: {
      retryAfter?: number;
      headers?: Record<string, string>;
      cause?: unknown;
      fields?: Record<string, unknown>;
    } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'AppError';
    this.code = code;
    this.statusCode = ERROR_STATUS[code];
    this.retryAfter = extra.retryAfter;
    this.headers = extra.headers ?? {};
    this.fields = extra.fields;
  }
}

export interface ErrorBody {
  error: ErrorCode;
  message: string;
  statusCode: number;
  retryAfter?: number;
  requestId?: string;
  [field: string]: unknown;
}

export function errorBody(err: AppError, requestId?: string): ErrorBody {
  const body: ErrorBody = {
    ...err.fields,
    error: err.code,
    message: err.message,
    statusCode: err.statusCode,
  };
  if (err.retryAfter !== undefined) body.retryAfter = err.retryAfter;
  if (requestId !== undefined) body.requestId = requestId;
  return body;
}

export const notFound = (what: string) => new AppError('not_found', `${what} was not found.`);
export const invalid = (message: string) => new AppError('invalid_request', message);
