import type { paths } from './api-schema';

// Talks to the API server over HTTP only, with the HttpOnly session cookie (never a key in storage).

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Op<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : never;
type Responses<O> = O extends { responses: infer R } ? R : never;
export type Ok<O> = JsonOf<Responses<O>[Extract<keyof Responses<O>, 200 | 201 | 202>]>;
type BodyOf<O> = O extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type PathOf<O> = O extends { parameters: { path: infer X } } ? X : never;
type QueryOf<O> = O extends { parameters: { query?: infer X } } ? X : never;

export interface CallOptions<O> {
  path?: PathOf<O>;
  query?: QueryOf<O>;
  body?: BodyOf<O>;
}

/** The answer of a call as typed by the server's OpenAPI document. */
export type Result<P extends keyof paths, M extends Method> = Ok<Op<P, M>>;

/** The spec's error body: what the server said, shown to the user as is. */
export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  requestId?: string;
  details?: unknown;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.message);
  }
}

/** Called on a 401 from anything but the login: the session ended, so the app shows the sign-in page. */
let onUnauthorized: () => void = () => {};
export function setUnauthorizedHandler(fn: () => void): void {
  onUnauthorized = fn;
}

export function buildUrl(template: string, path?: object, query?: object): string {
  let url = template.replace(/\{(\w+)\}/g, (_, k: string) =>
    encodeURIComponent(String((path as Record<string, unknown> | undefined)?.[k] ?? '')),
  );
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  }
  const s = q.toString();
  if (s) url += `?${s}`;
  return url;
}

async function errorOf(res: Response): Promise<ApiError> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as ErrorBody;
    if (body && typeof body.message === 'string') return new ApiError(res.status, body);
  } catch {
    // not the spec's error body (a proxy in between): show the status line
  }
  return new ApiError(res.status, {
    statusCode: res.status,
    error: 'http_error',
    message: `${res.status} ${res.statusText || 'error'}`,
  });
}

export async function send(
  method: string,
  url: string,
  body?: unknown,
  init: RequestInit = {},
): Promise<Response> {
  const res = await fetch(url, {
    method: method.toUpperCase(),
    credentials: 'same-origin',
    headers:
      body === undefined
        ? { accept: 'application/json' }
        : { 'content-type': 'application/json', accept: 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...init,
  });
  if (!res.ok) {
    const err = await errorOf(res);
    if (res.status === 401 && !url.startsWith('/api/dashboard/auth/login')) onUnauthorized();
    throw err;
  }
  return res;
}

/** One typed call: `api('post', '/api/webhooks/{id}/test', { path: { id }, body: { eventType } })`. */
export async function api<P extends keyof paths, M extends Method>(
  method: M,
  template: P,
  options: CallOptions<Op<P, M>> = {},
): Promise<Ok<Op<P, M>>> {
  const res = await send(
    method,
    buildUrl(template as string, options.path as object, options.query as object),
    options.body,
  );
  return (await res.json()) as Ok<Op<P, M>>;
}
