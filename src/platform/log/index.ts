import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Paths that may carry keys, prompts or personal data. Request bodies are never logged at all (the
 * serializers below drop them); these paths catch the same values if someone logs an object by hand.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-service-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers["x-service-key"]',
  'headers.cookie',
  '*.password',
  '*.secret',
  '*.apiKey',
  '*.token',
  '*.text',
  '*.original',
  '*.prompt',
  'body',
  '*.body',
];

interface LoggedRequest {
  id?: string;
  method?: string;
  url?: string;
  ip?: string;
  routeOptions?: { url?: string };
}

/**
 * The path a request line shows: its route's pattern (`/api/v1/gateway/conversations/:id`), never the
 * path as sent. A caller writes the path as freely as a body (an id, an e-mail address or an IBAN put in a
 * segment by mistake or on purpose: audit finding F3), and query strings can hold keys or text. A request
 * no route matched shows none of its path; its request id, method and status follow it either way.
 */
function loggedUrl(req: LoggedRequest): string | undefined {
  const route = req.routeOptions?.url;
  if (typeof route === 'string' && route !== '' && route !== '*') return route;
  // Not even its first segment: that may be the value itself (`/jane.roe@example.com`).
  return typeof req.url === 'string' ? '(no route)' : undefined;
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      serializers: {
        req: (req: LoggedRequest) => ({
          id: req.id,
          method: req.method,
          url: loggedUrl(req),
          ip: req.ip,
        }),
        res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      },
    },
    destination,
  );
}

/**
 * The logger Fastify gives each request, bound to its request id. Fastify makes a pino child for every
 * request, which costs an object and its serialized bindings on each of them, while at the usual levels a
 * request logs nothing unless something goes wrong. This one makes the child on its first enabled line;
 * its methods live on the prototype, so a request costs one small object.
 */
class LazyChildLogger {
  private made: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: pino.Bindings,
    private readonly options: pino.ChildLoggerOptions,
  ) {}

  private real(): Logger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  private write(level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace', args: unknown[]): void {
    if (!(this.made ?? this.parent).isLevelEnabled(level)) return;
    (this.real()[level] as (...a: unknown[]) => void)(...args);
  }

  get level(): string {
    return (this.made ?? this.parent).level;
  }
  set level(value: string) {
    this.real().level = value;
  }
  isLevelEnabled(level: string): boolean {
    return (this.made ?? this.parent).isLevelEnabled(level);
  }
  child(bindings: pino.Bindings, options?: pino.ChildLoggerOptions): Logger {
    return this.real().child(bindings, options);
  }
  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}
}

export function lazyChildLogger(
  parent: Logger,
  bindings: pino.Bindings,
  options: pino.ChildLoggerOptions = {},
): Logger {
  // A child with a level of its own (a route's logLevel) is made at once: the parent's level would decide
  // for it until then, and a route more verbose than the server would lose its lines.
  if (options.level !== undefined) return parent.child(bindings, options);
  return new LazyChildLogger(parent, bindings, options) as unknown as Logger;
}
