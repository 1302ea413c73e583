/**
 * Completes the OpenAPI document that @fastify/swagger derives from the route schemas with what the schemas
 * cannot say: who may call each operation (security, from the route's declared authentication through a
 * describer that the auth layer installs), the headers every response carries (X-Request-Id, X-RateLimit-*),
 * the error statuses every route can answer with the one error body, and streamed answers. It works on the
 * routes' options only, so a route added by any module is documented the same way without doing anything.
 */

/** What a route may add about itself, in `config.docs`. */
export interface RouteDocs {
  /** The 200 answer can also be Server-Sent Events (when the body asks for `stream: true`): what they carry. */
  eventStream?: string;
  /** Response headers of the success answer, by name, with their meaning (e.g. x-svc-*). */
  responseHeaders?: Record<string, string>;
  /** Media type of an answer by status, where it is not JSON (e.g. an HTML page). */
  mediaTypes?: Record<string, string>;
}

/** A route as registered, with the options the document is derived from. */
export interface DocumentedRoute {
  method: string;
  url: string;
  auth: unknown;
  docs?: RouteDocs | undefined;
}

/** What the authentication layer says about one route. */
export interface OperationSecurity {
  /** OpenAPI security requirements (alternatives); empty for a public route. */
  security: Array<Record<string, string[]>>;
  /** One sentence: which credentials, roles, plan. */
  summary: string;
  /** Request headers the route reads besides the credentials (e.g. X-Service-Organization). */
  headers?: Array<{ name: string; required: boolean; description: string }>;
  /** Whether a request can be refused for its credentials (401) or rights (403). */
  authenticated: boolean;
}

export interface SecurityDescriber {
  schemes: Record<string, Record<string, unknown>>;
  describe(route: DocumentedRoute): OperationSecurity;
}

type Json = Record<string, unknown>;
type Operation = {
  description?: string;
  summary?: string;
  parameters?: Json[];
  requestBody?: Json;
  responses: Record<string, Json>;
  security?: Array<Record<string, string[]>>;
};

const ERROR_REF = { $ref: '#/components/schemas/ErrorBody' };

/** Meaning of each error status the server itself can answer, whatever the route. */
const STATUS_TEXT: Record<string, string> = {
  '400': 'Bad request: malformed JSON or a field that does not validate (the message names it)',
  '401': 'Not authenticated: missing, unknown, revoked or expired credentials',
  '402': 'Quota exhausted',
  '403': 'Authenticated but not allowed: key kind, role, or plan',
  '404': 'Not found, or a resource of another organization',
  '405': 'Method not allowed on this path',
  '409': 'Conflict with the current state',
  '413': 'Request body too large',
  '414': 'Request path and query too long',
  '415': 'Unsupported Content-Type (send application/json)',
  '422': 'Refused by a protection rule',
  '429': 'Rate limited; see Retry-After and X-RateLimit-*',
  '500': 'Internal error; quote the request id',
  '502': 'The upstream provider failed',
  '503': 'Temporarily unavailable',
  '504': 'The upstream provider timed out',
};

const RATE_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

const COMMON_HEADERS: Record<string, Json> = {
  'X-Request-Id': {
    description:
      'Id of the request (the one sent in X-Request-Id when it was well-formed); quote it in reports',
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': {
    description: 'Requests allowed in the current one-minute window',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current window',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': {
    description: 'When the current window ends, in Unix seconds',
    schema: { type: 'integer' },
  },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
};

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** `/a/:id/b` → `/a/{id}/b`, as @fastify/swagger writes paths. */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function withHeaders(response: Json, names: readonly string[], extra: Record<string, Json> = {}): Json {
  const headers = { ...((response.headers as Json | undefined) ?? {}) };
  for (const n of names) headers[n] ??= headerRef(n);
  Object.assign(headers, extra);
  return { ...response, headers };
}

const isErrorBody = (response: Json | undefined) =>
  JSON.stringify((response?.content as Json | undefined)?.['application/json'] ?? {}) ===
  JSON.stringify({ schema: ERROR_REF });

function errorResponse(status: string, existing: Json | undefined): Json {
  // A route's own answer for this status that is not an error body (an HTML page) stays as declared.
  if (existing && !isErrorBody(existing)) return existing;
  const description =
    existing?.description && existing.description !== 'Default Response'
      ? existing.description
      : (STATUS_TEXT[status] ?? 'Error');
  return {
    ...(existing ?? {}),
    description,
    content: { 'application/json': { schema: ERROR_REF } },
  };
}

function decorateOperation(op: Operation, route: DocumentedRoute, describer?: SecurityDescriber): void {
  const sec = describer?.describe(route);
  const isApi = route.url.startsWith('/api/') || route.url.startsWith('/v1/');
  if (sec) {
    op.security = sec.security;
    op.description = [op.description, `Authentication: ${sec.summary}`].filter(Boolean).join('\n\n');
    op.parameters ??= [];
    const params = op.parameters;
    for (const h of sec.headers ?? []) {
      if (params.some((p) => p.in === 'header' && String(p.name).toLowerCase() === h.name.toLowerCase())) {
        continue;
      }
      params.push({
        in: 'header',
        name: h.name,
        required: h.required,
        description: h.description,
        schema: { type: 'string' },
      });
    }
  }

  // Every status the server can answer for this route, each with the one error body.
  const statuses = new Set(Object.keys(op.responses).filter((s) => /^[45]\d\d$/.test(s)));
  for (const s of ['400', '414', '429', '500']) statuses.add(s);
  if (sec?.authenticated) {
    statuses.add('401');
    statuses.add('403');
  }
  if (op.requestBody) {
    statuses.add('413');
    statuses.add('415');
  }
  if (/\/:/.test(route.url)) statuses.add('404');
  for (const s of statuses) op.responses[s] = errorResponse(s, op.responses[s]);

  const rate = isApi ? RATE_HEADERS : [];
  for (const [status, response] of Object.entries(op.responses)) {
    const names = ['X-Request-Id', ...rate, ...(status === '429' || status === '503' ? ['Retry-After'] : [])];
    const extra: Record<string, Json> = {};
    if (/^2/.test(status)) {
      for (const [name, description] of Object.entries(route.docs?.responseHeaders ?? {})) {
        extra[name] = { description, schema: { type: 'string' } };
      }
    }
    op.responses[status] = withHeaders(response, names, extra);
  }

  for (const [status, type] of Object.entries(route.docs?.mediaTypes ?? {})) {
    const response = op.responses[status];
    const content = response?.content as Record<string, Json> | undefined;
    if (response && content?.['application/json']) {
      response.content = { [type]: content['application/json'] };
    }
  }

  if (route.docs?.eventStream) {
    const ok = op.responses['200'];
    if (ok) {
      ok.content = {
        ...((ok.content as Json | undefined) ?? {}),
        'text/event-stream': {
          schema: { type: 'string', description: route.docs.eventStream },
        },
      };
    }
  }
}

/**
 * Adds security, headers, error responses and streams to a generated document. `routes` is the server's
 * route table; operations without a matching route (none, normally) are left as generated.
 */
export function decorateOpenApi(
  doc: Json,
  routes: readonly DocumentedRoute[],
  describer: SecurityDescriber | undefined,
): Json {
  const byOperation = new Map<string, DocumentedRoute>();
  for (const r of routes) byOperation.set(`${r.method.toLowerCase()} ${openApiPath(r.url)}`, r);
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Operation>>;
  for (const [path, ops] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const route = byOperation.get(`${method} ${path}`);
      if (route && op && typeof op === 'object' && op.responses) decorateOperation(op, route, describer);
    }
  }
  const components = ((doc.components as Json | undefined) ?? {}) as Json;
  components.headers = { ...((components.headers as Json | undefined) ?? {}), ...COMMON_HEADERS };
  if (describer) {
    components.securitySchemes = {
      ...((components.securitySchemes as Json | undefined) ?? {}),
      ...describer.schemes,
    };
  }
  doc.components = components;
  return doc;
}

const describers = new WeakMap<object, SecurityDescriber>();

/** Installed by the authentication layer: how each route's declared authentication reads in OpenAPI. */
export function setSecurityDescriber(app: object, describer: SecurityDescriber): void {
  describers.set(app, describer);
}

export function securityDescriberOf(app: object): SecurityDescriber | undefined {
  return describers.get(app);
}
