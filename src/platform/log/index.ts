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

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      serializers: {
        req: (req: { id?: string; method?: string; url?: string; ip?: string }) => ({
          id: req.id,
          method: req.method,
          // Query strings can hold keys or text; the path alone is enough to follow a request.
          url: typeof req.url === 'string' ? req.url.split('?')[0] : undefined,
          ip: req.ip,
        }),
        res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      },
    },
    destination,
  );
}
