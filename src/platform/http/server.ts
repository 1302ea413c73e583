import { createHash, randomUUID } from 'node:crypto';
import { type ServerResponse, STATUS_CODES } from 'node:http';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import FindMyWay from 'find-my-way';
import { AppError, errorBody } from '../errors/index.js';
import { type Logger, lazyChildLogger } from '../log/index.js';
import { parseJsonBody } from './json-body.js';
import { type RouteDocs, decorateOpenApi, securityDescriberOf } from './openapi.js';
import { applyServerTiming, markStarted } from './server-timing.js';
import { ErrorBodySchema } from './schemas.js';
import { describeValidationError, validatorCompiler } from './validation.js';

export interface HttpServerOptions {
  logger: Logger;
  bodyLimit: number;
  trustProxy: boolean | number | string[];
  version: string;
  title?: string;
  description?: string;
  /** Serve HTTPS with these TLS options (the transparent network proxy: certificates chosen per SNI). */
  https?: import('node:https').ServerOptions;
}

export type App = FastifyInstance<
  import('node:http').Server,
  import('node:http').IncomingMessage,
  import('node:http').ServerResponse,
  Logger,
  TypeBoxTypeProvider
>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the OpenAPI document says about the route beyond its schema (platform/http/openapi.ts). */
    docs?: RouteDocs;
  }
}

export interface RouteInfo {
  method: string;
  url: string;
  auth: unknown;
  docs?: RouteDocs | undefined;
}
const routeTables = new WeakMap<object, RouteInfo[]>();

/** Every route registered on the server with its declared authentication; for tests and docs. */
export function listRoutes(app: object): RouteInfo[] {
  return routeTables.get(app) ?? [];
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;
/** Longest request target (path and query) answered normally; longer ones get 414 uri_too_long. */
export const MAX_URL_LENGTH = 8 * 1024;

/**
 * Counts one response to a caller the server could not authenticate (an unknown route, a public route, a
 * malformed request) in the window of its address and returns the X-RateLimit-* headers to send. Installed
 * by the auth layer; the HTTP layer calls it for what never reaches a route (framework and parser errors).
 */
export type AnonymousRateLimiter = (ip: string) => Promise<Record<string, string>>;
const anonymousLimiters = new WeakMap<object, AnonymousRateLimiter>();

export function setAnonymousRateLimiter(app: object, limiter: AnonymousRateLimiter): void {
  anonymousLimiters.set(app, limiter);
}

const localWindows = new WeakMap<object, Map<string, { count: number; resetAt: number }>>();

/**
 * The same window kept in this process, answered synchronously: for parser and framework errors, whose
 * socket a client may already have half-closed. Waiting for a shared cache (Redis) there lost the answer,
 * since the server ends such a socket as soon as it reads the client's end.
 */
function localRateHeaders(app: object, ip: string | undefined, perMinute: number): Record<string, string> {
  if (!ip) return {};
  let windows = localWindows.get(app);
  if (!windows) {
    windows = new Map();
    localWindows.set(app, windows);
  }
  const now = Date.now();
  let w = windows.get(ip);
  if (!w || w.resetAt <= now) {
    if (windows.size > 10_000) windows.clear();
    w = { count: 0, resetAt: (Math.floor(now / 60_000) + 1) * 60_000 };
    windows.set(ip, w);
  }
  w.count++;
  return {
    'x-ratelimit-limit': String(perMinute),
    'x-ratelimit-remaining': String(Math.max(0, perMinute - w.count)),
    'x-ratelimit-reset': String(Math.floor(w.resetAt / 1000)),
  };
}

/**
 * The page a browser gets for an unknown address it navigated to (GET/HEAD, Accept naming text/html, not
 * under /api/): the dashboard's own not-found page, where a JSON error body would show raw. Installed by the
 * web module, which owns the page; API paths and other clients keep the JSON 404. Kept per HTTP server
 * (shared by every plugin context), since the module sees only its own encapsulated instance.
 */
export type NotFoundPage = (reply: FastifyReply) => FastifyReply;
const notFoundPages = new WeakMap<object, NotFoundPage>();

export function setNotFoundPage(app: { server: object }, page: NotFoundPage): void {
  notFoundPages.set(app.server, page);
}

function wantsPage(request: FastifyRequest, path: string): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (path === '/api' || path.startsWith('/api/')) return false;
  return /\btext\/html\b/i.test(request.headers.accept ?? '');
}

const anonymousLimits = new WeakMap<object, number>();

/** The per-minute limit of the anonymous window, for the synchronous error paths. */
export function setAnonymousLimit(app: object, perMinute: number): void {
  anonymousLimits.set(app, perMinute);
}

async function anonymousRateHeaders(app: object, ip: string | undefined): Promise<Record<string, string>> {
  const limiter = anonymousLimiters.get(app);
  if (!limiter || !ip) return {};
  try {
    return await limiter(ip);
  } catch {
    // A cache that is down must not turn a 400 into a hung socket.
    return {};
  }
}

// Control characters (C0 and DEL): no identifier, e-mail, search text or filter of this API has any, and
// U+0000 cannot be stored or even compared in PostgreSQL text.
const CONTROL = /[\u0000-\u001f\u007f]/;
const PARAMETER_NAME = /^[A-Za-z0-9_.[\]-]{1,64}$/;

/** Which part of the request target holds a control character ("path parameter 'id'"), or null. */
export function controlCharacterIn(request: FastifyRequest): string | null {
  const params = request.params as Record<string, unknown> | undefined;
  for (const [name, value] of Object.entries(params ?? {})) {
    if (typeof value === 'string' && CONTROL.test(value)) {
      return name === '*' ? 'request path' : `path parameter '${name}'`;
    }
  }
  const query = request.query as Record<string, unknown> | undefined;
  for (const [name, value] of Object.entries(query ?? {})) {
    // A name that itself holds one is not echoed back, like any text of the client's that is not a name.
    if (!PARAMETER_NAME.test(name)) {
      if (CONTROL.test(name)) return 'name of a query parameter';
    }
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'string' && CONTROL.test(v))) {
      return PARAMETER_NAME.test(name) ? `query parameter '${name}'` : 'query string';
    }
  }
  return null;
}

const newRequestId = () => `req_${randomUUID()}`;

/**
 * Errors of the HTTP parser, before Fastify has a request: the spec's error body with our codes, a fresh
 * request id, the rate-limit headers of the client address, and nothing of what the client sent.
 */
function clientErrorResponse(err: NodeJS.ErrnoException): AppError {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new AppError(
        'headers_too_large',
        'The request line and headers are larger than this server accepts.',
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return new AppError('request_timeout', 'The request was not received completely in time.');
    default:
      return new AppError(
        'invalid_request',
        'The request is not valid HTTP/1.1 (for example a body shorter than its Content-Length).',
      );
  }
}

function writeClientError(app: object, err: NodeJS.ErrnoException, socket: import('node:net').Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const appErr = clientErrorResponse(err);
  const id = newRequestId();
  {
    const perMinute = anonymousLimits.get(app);
    const rate = perMinute ? localRateHeaders(app, socket.remoteAddress, perMinute) : {};
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const body = JSON.stringify(errorBody(appErr, id));
    const head = [
      `HTTP/1.1 ${appErr.statusCode} ${STATUS_CODES[appErr.statusCode] ?? 'Error'}`,
      'content-type: application/json; charset=utf-8',
      `content-length: ${Buffer.byteLength(body)}`,
      `x-request-id: ${id}`,
      ...Object.entries(rate).map(([k, v]) => `${k}: ${v}`),
      'connection: close',
    ];
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  }
}
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Maps any thrown value to the one error body; internal messages never reach the client. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const fe = err as FastifyError & { validationContext?: string };
  if (fe?.validation) {
    return new AppError(
      'invalid_request',
      describeValidationError(fe.validation as never, fe.validationContext ?? 'body'),
    );
  }
  switch (fe?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'The request body is larger than this server accepts.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupported_media_type', 'Unsupported Content-Type; send application/json.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('invalid_request', 'The request body is empty; send a JSON object.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('invalid_request', 'The Content-Length header does not match the body.');
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_ASYNC_CONSTRAINT':
      return new AppError('invalid_request', 'The request URL is malformed (for example a bad %-escape).');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError(
        'uri_too_long',
        'A segment of the request path is longer than this server accepts.',
      );
  }
  if (typeof fe?.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    if (fe.statusCode === 413) return new AppError('payload_too_large', 'The request body is too large.');
    if (fe.statusCode === 415) return new AppError('unsupported_media_type', 'Unsupported Content-Type.');
    return new AppError('invalid_request', 'The request is malformed.');
  }
  return new AppError(
    'internal_error',
    'An internal error occurred; quote the request id when reporting it.',
    {
      cause: err,
    },
  );
}

export function sendError(request: FastifyRequest, reply: FastifyReply, err: AppError): FastifyReply {
  for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
  if (err.retryAfter !== undefined) reply.header('retry-after', String(err.retryAfter));
  return reply
    .status(err.statusCode)
    .type('application/json; charset=utf-8')
    .send(errorBody(err, request.id));
}

/**
 * A provider that is down, refusing or misconfigured is an operational condition, not a bug to trace: one
 * warn line without a stack, the same wherever it is noticed, so that one alert sees every such failure.
 * `detail` is our own summary, never the provider's body (which may echo the prompt).
 */
export function logUpstreamFailure(request: FastifyRequest, code: string, detail: string): void {
  request.log.warn({ code, detail }, 'upstream failed');
}

/** Errors that report another service's failure (a model provider), answered with 502 or 504. */
const DEPENDENCY_FAILURES: ReadonlySet<string> = new Set(['upstream_error', 'upstream_timeout']);

/**
 * The one inline style of the API reference page: the <style> element of the Swagger logo that the top bar
 * draws while the page starts (swagger-ui-standalone-preset.js). Allowed by its hash, so no other inline
 * style applies; a Swagger UI whose logo changes shows up as a violation in test/web/api-docs.browser.test.ts.
 */
const SWAGGER_LOGO_STYLE = '.logo_small_svg__cls-2{fill:#fff}.logo_small_svg__cls-3{fill:#85ea2d}';

/**
 * The API reference page (/api/docs, Swagger UI) shares the dashboard's origin and its session cookie, so
 * it gets a policy as strict as the dashboard's, cut to what the page uses: its three scripts, two style
 * sheets and icons from /api/docs/static/, the document from /api/docs/json, and "Try it out" calls to
 * this server. No inline script, no eval, no other host (the product runs offline; Swagger UI's default
 * policy would let the page load styles and fonts from any https: host and the validator badge from
 * swagger.io). Images: the icons, and the data: SVGs of its style sheet.
 */
export const API_DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  `style-src 'self' 'sha256-${createHash('sha256').update(SWAGGER_LOGO_STYLE).digest('base64')}'`,
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

export async function createHttpServer(options: HttpServerOptions): Promise<App> {
  // Referenced by the handlers below, which only run once the server listens.
  // biome-ignore lint/style/useConst: assigned once, after the options that close over it
  let app: App;
  app = Fastify({
    ...(options.https ? { https: options.https } : {}),
    loggerInstance: options.logger,
    bodyLimit: options.bodyLimit,
    // a hop count is accepted at run time although the type omits it
    trustProxy: options.trustProxy as boolean | string[],
    requestIdHeader: false,
    // A request's logger is made when it first logs (most never do at the usual levels).
    childLoggerFactory: (logger, bindings, opts) => lazyChildLogger(logger as Logger, bindings, opts),
    // SPEC: "the base address also serves /v1/*": every /api/v1 route answers under /v1 too (the provider
    // proxy's short /v1/proxy/… form is a route of its own).
    rewriteUrl: (req) => {
      const url = req.url ?? '/';
      return url.startsWith('/v1/') && !url.startsWith('/v1/proxy/') ? `/api${url}` : url;
    },
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : newRequestId();
    },
    // Errors Fastify raises before routing (a bad %-escape, an over-long path segment) get the same
    // treatment as every other error instead of Fastify's own body with its FST_* code and the URL.
    frameworkErrors: (err, request, reply) => {
      const appErr = toAppError(err);
      const perMinute = anonymousLimits.get(app);
      const rate = perMinute ? localRateHeaders(app, request.ip, perMinute) : {};
      reply.header('x-request-id', request.id);
      for (const [k, v] of Object.entries(rate)) reply.header(k, v);
      sendError(request, reply, appErr);
    },
    clientErrorHandler: (err, socket) => writeClientError(app, err, socket),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    ajv: { customOptions: { coerceTypes: false } },
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;

  // A stop (app.close) waits for every connection to end. Idle ones are closed once, when it starts; a
  // connection whose request was still running then (a stream) stayed open on keep-alive after its answer
  // (72 s), so a stop with any request in flight ran out its grace and exited 1, every request answered.
  // While closing, the end of each answer closes its connection if that left it idle: the stop waits on
  // the requests in flight and ends with the last of them (or at the grace, stopOnSignals), with no timer.
  let closing = false;
  const closeIdle = () =>
    (app.server as { closeIdleConnections?: () => void } & typeof app.server).closeIdleConnections?.();
  app.server.on('request', (_req: unknown, res: ServerResponse) => {
    res.once('close', () => {
      if (closing) closeIdle();
    });
  });
  app.addHook('preClose', (done) => {
    closing = true;
    closeIdle();
    done();
  });

  app.setValidatorCompiler(validatorCompiler);
  app.addSchema(ErrorBodySchema);

  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    // Clients and generated SDKs send Content-Type: application/json on every call, DELETE and body-less
    // POST actions (rotate a token, refresh a source) included. A DELETE carries no body in this API, nor
    // does a route that declares no body schema: an empty one is no body rather than malformed JSON. A route
    // with a body schema still needs its JSON object.
    if ((body as Buffer).length === 0 && (req.method === 'DELETE' || !req.routeOptions.schema?.body)) {
      done(null, undefined);
      return;
    }
    // The API reads bodies as sent: a compressed body would otherwise fail as "not valid UTF-8" or, worse,
    // be read as plain text. Say what is wrong instead (the network proxy, which relays SDK traffic, does
    // decompress; docs/netproxy.md).
    const coding = req.headers['content-encoding']?.trim().toLowerCase();
    if (coding && coding !== 'identity') {
      done(
        new AppError(
          'unsupported_media_type',
          'Content-Encoding is not supported here; send the JSON body uncompressed.',
        ),
        undefined,
      );
      return;
    }
    try {
      done(null, parseJsonBody(body as Buffer));
    } catch (err) {
      done(err as Error, undefined);
    }
  });

  // A second router that only knows which methods each path has, to tell 405 from 404.
  const methodsByPath = FindMyWay({ ignoreTrailingSlash: true });
  const table: RouteInfo[] = [];
  routeTables.set(app, table);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const m of methods) {
      if (m === 'HEAD' || m === 'OPTIONS') continue;
      const config = route.config as { auth?: unknown; docs?: RouteDocs } | undefined;
      table.push({ method: m, url: route.url, auth: config?.auth, docs: config?.docs });
      try {
        methodsByPath.on(m as 'GET', route.url, () => {});
      } catch {
        // the same method and path registered twice by a plugin; the first is enough here
      }
    }
  });

  // Callback-style hooks: they run on every request, and an async hook costs a promise and a microtask.
  app.decorateRequest('startedAt', 0);
  app.decorateRequest('timingPhases', '');
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    markStarted(request);
    if (request.url.length > MAX_URL_LENGTH) {
      // Refused before any route or authentication, so it is counted here in the address's window.
      void anonymousRateHeaders(app, request.ip).then((rate) => {
        for (const [k, v] of Object.entries(rate)) reply.header(k, v);
        done(
          new AppError(
            'uri_too_long',
            `The request path and query are longer than ${MAX_URL_LENGTH} characters.`,
          ),
        );
      });
      return;
    }
    const control = controlCharacterIn(request);
    if (control) {
      // Refused before any route or authentication (PostgreSQL text cannot even hold U+0000, whose query
      // failed with a 500), so it is counted here in the address's window.
      void anonymousRateHeaders(app, request.ip).then((rate) => {
        for (const [k, v] of Object.entries(rate)) reply.header(k, v);
        done(
          new AppError(
            'invalid_request',
            `The ${control} contains a control character (U+0000 to U+001F or U+007F); none is accepted.`,
          ),
        );
      });
      return;
    }
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    applyServerTiming(request, reply);
    done(null, payload);
  });

  app.setErrorHandler((err, request, reply) => {
    const appErr = toAppError(err);
    if (DEPENDENCY_FAILURES.has(appErr.code)) logUpstreamFailure(request, appErr.code, appErr.message);
    else if (appErr.statusCode >= 500) {
      request.log.error({ err: appErr.cause ?? err }, 'request failed');
    }
    return sendError(request, reply, appErr);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = METHODS.filter((m) => m !== request.method && methodsByPath.find(m, path) !== null);
    if (allowed.length > 0) {
      return sendError(
        request,
        reply,
        new AppError(
          'method_not_allowed',
          `${request.method} is not allowed here; use ${allowed.join(', ')}.`,
          {
            headers: { allow: allowed.join(', ') },
          },
        ),
      );
    }
    const page = notFoundPages.get(app.server);
    if (page && wantsPage(request, path)) return page(reply.status(404));
    // The path is not echoed: an error body never repeats what the client sent.
    return sendError(request, reply, new AppError('not_found', 'No route matches this method and path.'));
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: options.title ?? 'Parapet API',
        version: options.version,
        description: options.description ?? 'The Parapet protection service.',
      },
      // Relative: Swagger UI's "Try it out" calls the server that served the document.
      servers: [{ url: '/', description: 'this server' }],
    },
    // Security per route, headers, every error status and streamed answers (openapi.ts).
    transformObject: (documentObject) =>
      decorateOpenApi(
        (documentObject as { openapiObject: Record<string, unknown> }).openapiObject,
        table,
        securityDescriberOf(app),
      ) as never,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (json.$id as string) ?? `def-${i}`,
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { docExpansion: 'list' },
    staticCSP: API_DOCS_CONTENT_SECURITY_POLICY,
    // The reference shares the dashboard's origin (and its session cookie): it may not be framed or
    // sniffed either.
    uiHooks: {
      onRequest: (_request, reply, done) => {
        reply.headers({
          'x-frame-options': 'DENY',
          'x-content-type-options': 'nosniff',
          'referrer-policy': 'no-referrer',
        });
        done();
      },
    },
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  return app;
}
