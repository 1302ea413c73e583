import { type TSchema, Type } from 'typebox';
import { ERROR_STATUS, type ErrorCode } from '../errors/index.js';

/** One part of a batch refused on its own (endpoint logs, shadow-AI detections), the others being kept. */
export const RejectedPartSchema = Type.Object({
  index: Type.Integer({ description: 'position of the entry in the batch, from 0' }),
  id: Type.Optional(Type.String({ description: "the entry's own id, when it had a valid one" })),
  error: Type.String({ description: 'machine code, see docs/errors.md', enum: Object.keys(ERROR_STATUS) }),
  message: Type.String({ description: 'what is wrong with the entry, naming the field' }),
});

export const ErrorBodySchema = Type.Object(
  {
    error: Type.String({ description: 'machine code, see docs/errors.md', enum: Object.keys(ERROR_STATUS) }),
    message: Type.String({ description: 'human-readable explanation' }),
    statusCode: Type.Integer({ description: 'HTTP status' }),
    retryAfter: Type.Optional(Type.Integer({ description: 'seconds to wait; rate-limit errors only' })),
    reenroll: Type.Optional(
      Type.Boolean({
        description: 'device operations: the device token is unknown or revoked; enroll again',
      }),
    ),
    rejected: Type.Optional(
      Type.Array(RejectedPartSchema, {
        description:
          'batches (endpoint logs, shadow-AI reports): why each part was refused, when none could be stored',
      }),
    ),
    requestId: Type.Optional(
      Type.String({ description: 'id of the request, also in the X-Request-Id header' }),
    ),
  },
  { $id: 'ErrorBody', title: 'ErrorBody' },
);

const errorRef = Type.Unsafe<{ error: ErrorCode; message: string; statusCode: number }>(
  Type.Ref('ErrorBody'),
);

/**
 * Response schemas for the error statuses a route can answer, so OpenAPI documents every status.
 * Statuses every authenticated route shares are included by default.
 */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const s of new Set([400, 500, ...statuses])) out[s] = errorRef;
  return out;
}

export const AUTHENTICATED_ERRORS = [400, 401, 403, 429, 500] as const;

/** A string that is one of the given values, typed as their union (Type.Union over a mapped list is not). */
export function oneOf<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) {
  return Type.Unsafe<T[number]>(
    Type.Union(
      values.map((v) => Type.Literal(v)),
      options,
    ),
  );
}

/**
 * An object used as a map whose keys are checked too. `Type.Record(Type.String({ … }), V)` keeps only the
 * value schema (`patternProperties: {"^.*$": V}`): the key's maxLength is dropped, and a key pattern becomes
 * the only pattern property, so a key outside it is an additional property nobody checks, value included.
 * Here every value is checked against `value` and every key against `key` (JSON Schema `propertyNames`).
 */
export function mapOf<V extends TSchema>(
  key: { pattern?: string; minLength?: number; maxLength?: number; description?: string },
  value: V,
  options: Record<string, unknown> = {},
) {
  return Type.Record(Type.String(), value, { ...options, propertyNames: { type: 'string', ...key } });
}

/**
 * What no user-visible name may hold (docs/conventions.md, "Names"): C0 and C1 control characters, which
 * break lines, logs and CSV cells, and the bidirectional embeddings, overrides (U+202A–U+202E) and isolates
 * (U+2066–U+2069), which make a name read differently from what it is ("\u202Eexe.pdf"). A JSON-Schema
 * pattern, so Ajv, TypeBox's own checks and the OpenAPI document all carry the same rule.
 */
export const NAME_PATTERN = '^[^\\u0000-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069]*$';

/** The rule in words, for the 400 that names the field (validation.ts). */
export const NAME_RULE =
  'free of control characters (U+0000–U+001F, U+007F–U+009F) and bidirectional overrides or isolates (U+202A–U+202E, U+2066–U+2069)';

// Patterns the 400 states in words rather than quoting the expression (validation.ts), by pattern text.
const PATTERN_RULES = new Map<string, string>([[NAME_PATTERN, NAME_RULE]]);

/**
 * A string of a fixed form (an id such as `conv_…`) whose refusal says the form in words: "The path
 * parameter 'id' must be conv_ followed by 22 letters or digits." instead of Ajv's quoted expression. The
 * words are the field's description too, so the OpenAPI document says the same.
 */
export function patternText(pattern: string, rule: string, options: Record<string, unknown> = {}) {
  PATTERN_RULES.set(pattern, rule);
  return Type.String({ pattern, description: rule, ...options });
}

/** The words of a pattern made with patternText (or the name rule), for the 400 that names the field. */
export function patternRule(pattern: string): string | undefined {
  return PATTERN_RULES.get(pattern);
}

/**
 * The name rule for callers that are not HTTP routes (the CLI): what is wrong with `value` in words, or
 * undefined when it passes. The same pattern as nameText's, so `parapet user create --name` and
 * `POST /api/dashboard/users` refuse the same names; a name of blanks only is refused too (it shows as nothing).
 */
export function nameProblem(value: string, max = 200): string | undefined {
  if (value.trim() === '') return 'must hold a visible character';
  if (value.length > max) return `must be at most ${max} characters`;
  if (!new RegExp(NAME_PATTERN).test(value)) return `must be ${NAME_RULE}`;
  return undefined;
}

/** A user-visible name (keys, users, the organization, groups, policies, integrations…): 1 to `max` characters. */
export function nameText(max = 200, options: Record<string, unknown> = {}) {
  return Type.String({ minLength: 1, maxLength: max, pattern: NAME_PATTERN, ...options });
}
