import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { AppError } from '../errors/index.js';
import { patternRule } from './schemas.js';

// ajv-formats is published as CommonJS with a default export that NodeNext sees one level down.
const addFormats =
  (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    strict: false,
  });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  return ajv;
}

// Bodies are validated without coercion (a number is not a string); query strings and path parameters are
// text on the wire, so they are coerced to the declared types.
const bodyAjv = makeAjv(false);
const textAjv = makeAjv(true);

type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** The properties of an object schema that hold one literal value (TypeBox Literal: `{const: …}`). */
function literalProperties(schema: unknown): Array<[string, unknown]> {
  const props = (schema as { properties?: Record<string, { const?: unknown }> }).properties;
  if (!props || typeof props !== 'object') return [];
  return Object.entries(props)
    .filter(([, p]) => p && typeof p === 'object' && 'const' in p)
    .map(([k, p]) => [k, p.const]);
}

/**
 * A body that is a union of object shapes told apart by a literal field (SIEM integrations: `platform`
 * or `type`) fails, with Ajv, on the first branch's first error: `{"type":"WAZUH"}` without its
 * credentials was answered "'platform' is required". When exactly one branch's literal fields all match
 * the body, its own errors are the ones to report; otherwise Ajv's stand.
 */
function compileNarrowing(ajv: Ajv, schema: unknown): Validate {
  const validate = ajv.compile(schema as object) as Validate;
  const branches = (schema as { anyOf?: unknown[] }).anyOf;
  if (!Array.isArray(branches)) return validate;
  let tagged: Array<{ literals: Array<[string, unknown]>; schema: unknown; validate?: Validate }> | undefined;
  const wrapped: Validate = (data: unknown) => {
    if (validate(data)) {
      wrapped.errors = null;
      return true;
    }
    wrapped.errors = validate.errors ?? null;
    if (data === null || typeof data !== 'object' || Array.isArray(data)) return false;
    tagged ??= branches
      .map((b) => ({ literals: literalProperties(b), schema: b }))
      .filter((b) => b.literals.length > 0);
    const record = data as Record<string, unknown>;
    const hits = tagged.filter((b) => b.literals.every(([k, v]) => record[k] === v));
    const only = hits.length === 1 ? hits[0] : undefined;
    if (only) {
      try {
        only.validate ??= compileNarrowing(ajv, only.schema);
      } catch {
        return false; // a branch Ajv cannot compile alone (an $id met twice): keep the union's errors
      }
      if (!only.validate(data) && only.validate.errors?.length) wrapped.errors = only.validate.errors;
    }
    return false;
  };
  return wrapped;
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  return compileNarrowing(ajv, schema) as ReturnType<FastifySchemaCompiler<unknown>>;
};

/**
 * The validator compiler of a route whose body is checked against `envelope` rather than the schema it
 * documents: the parts the envelope leaves open (the entries of a batch) are checked one by one by the
 * service with `compileBodyCheck`, so one bad part does not refuse the others. OpenAPI still shows the
 * documented schema.
 */
export function bodyCheckedAs(envelope: unknown): FastifySchemaCompiler<unknown> {
  return (route) => validatorCompiler(route.httpPart === 'body' ? { ...route, schema: envelope } : route);
}

/**
 * A check of one part of a body on its own, with the same rules and sentences as a whole body: null when
 * valid, else the sentence naming the field under `at` (a JSON pointer such as `/entries/3`).
 */
export function compileBodyCheck(schema: unknown): (data: unknown, at: string) => string | null {
  const validate = compileNarrowing(bodyAjv, schema);
  return (data, at) =>
    validate(data)
      ? null
      : describeValidationError(
          validate.errors?.map((e) => ({ ...e, instancePath: `${at}${e.instancePath}` })),
          'body',
        );
}

/** One part of a batch refused on its own: its index, its own id when it had a valid one, and why. */
export interface RejectedPart {
  index: number;
  id?: string;
  error: 'invalid_request';
  message: string;
}

/**
 * The check of a batch whose parts are judged one by one (POST /api/v1/endpoint/log, the shadow-AI report):
 * the parts that pass `schema` and `extra` (a rule a schema cannot say: a sentence given the part's field
 * name such as `detections[1]`, or null), and each refused one with its index and the sentence. `at` is the JSON pointer of the array
 * (`/entries`). A part's `id` is given back when it is one a client could have sent, so it can find it.
 */
export function compilePartsCheck<T>(
  schema: unknown,
  at: string,
  extra?: (part: T, field: string) => string | null,
): (parts: readonly unknown[]) => { valid: Array<{ index: number; part: T }>; rejected: RejectedPart[] } {
  const check = compileBodyCheck(schema);
  return (parts) => {
    const valid: Array<{ index: number; part: T }> = [];
    const rejected: RejectedPart[] = [];
    parts.forEach((part, index) => {
      const pointer = `${at}/${index}`;
      const message = check(part, pointer) ?? extra?.(part as T, fieldOf(pointer)) ?? null;
      if (message === null) {
        valid.push({ index, part: part as T });
        return;
      }
      const id = (part as { id?: unknown } | null)?.id;
      const known = typeof id === 'string' && id.length > 0 && id.length <= 100;
      rejected.push({ index, ...(known ? { id } : {}), error: 'invalid_request', message });
    });
    return { valid, rejected };
  };
}

/** The refusal of a batch none of whose parts passed (400 with every reason in `rejected`). */
export function noValidPart(rejected: readonly RejectedPart[], parts: string, taken: string): AppError {
  return new AppError(
    'invalid_request',
    `None of the ${rejected.length} ${parts} can be ${taken}; 'rejected' gives the reason for each. First: ${rejected[0]?.message ?? ''}`,
    { fields: { rejected } },
  );
}

/** What a string `format` means, in words a caller can act on (Ajv says `must match format "date-time"`). */
const FORMAT_NAMES: Record<string, string> = {
  'date-time': 'an ISO 8601 date and time such as 2026-01-31T12:00:00Z',
  date: 'an ISO 8601 date such as 2026-01-31',
  email: 'an e-mail address',
  uri: 'an absolute URL',
};

/** A JSON pointer as the field name sentences show: `/entries/1/kind` → `entries[1].kind`. */
function fieldOf(pointer: string): string {
  return pointer
    .split('/')
    .filter(Boolean)
    .map((seg) => (/^\d+$/.test(seg) ? `[${seg}]` : `.${seg}`))
    .join('')
    .replace(/^\./, '');
}

/**
 * How a sentence names a place of each request part (Fastify's validation contexts), in the words of the
 * control-character refusals (server.ts) and docs/errors.md: `body field 'routing.maxCost'`, `query
 * parameter 'perPage'`, `path parameter 'id'`, and the part itself when the error is about all of it.
 */
const PART_WORDS: Record<string, { one: string; whole: string }> = {
  body: { one: 'body field', whole: 'request body' },
  querystring: { one: 'query parameter', whole: 'query string' },
  params: { one: 'path parameter', whole: 'request path' },
  headers: { one: 'header', whole: 'request headers' },
};

/** One readable sentence naming the field, from Ajv's first error; never Ajv's own wording. */
export function describeValidationError(errors: ErrorObject[] | undefined, part: string): string {
  const words = PART_WORDS[part] ?? { one: `${part} field`, whole: `request ${part}` };
  const e = errors?.[0];
  if (!e) return `The ${words.whole} is invalid.`;
  const path = fieldOf(e.instancePath);
  const where = (name: string) => (name ? `${words.one} '${name}'` : words.whole);
  // A map key that failed its `propertyNames` schema (mapOf): Ajv reports the key's own keyword on the
  // map's path, which would read as if the map itself were too long or malformed. The key is not echoed:
  // it is whatever the caller sent, possibly long.
  if ('propertyName' in e && e.keyword !== 'propertyNames') {
    const p = e.params as { limit?: number; pattern?: string };
    const rule =
      e.keyword === 'maxLength'
        ? `be at most ${p.limit} characters long`
        : e.keyword === 'minLength'
          ? `be at least ${p.limit} characters long`
          : e.keyword === 'pattern'
            ? `match the pattern "${p.pattern}"`
            : 'be valid';
    return `Each key of the ${where(path)} must ${rule}.`;
  }
  switch (e.keyword) {
    case 'required': {
      const missing = (e.params as { missingProperty: string }).missingProperty;
      return `The ${where(path ? `${path}.${missing}` : missing)} is required.`;
    }
    case 'additionalProperties': {
      const extra = (e.params as { additionalProperty: string }).additionalProperty;
      return `The ${where(path ? `${path}.${extra}` : extra)} is not allowed.`;
    }
    case 'type':
      return `The ${where(path)} must be of type ${(e.params as { type: string }).type}.`;
    case 'minLength':
      return (e.params as { limit: number }).limit === 1
        ? `The ${where(path)} must not be empty.`
        : `The ${where(path)} must be at least ${(e.params as { limit: number }).limit} characters long.`;
    case 'maxLength':
      return `The ${where(path)} must be at most ${(e.params as { limit: number }).limit} characters long.`;
    case 'enum':
      return `The ${where(path)} must be one of: ${((e.params as { allowedValues: unknown[] }).allowedValues ?? []).join(', ')}.`;
    case 'const': {
      // A union of literals (Type.Union([Type.Literal('al'), Type.Literal('sw')])) fails as one `const` error
      // per branch, then `anyOf`: list every allowed value instead of Ajv's "must be equal to constant".
      const values = (errors ?? [])
        .filter((x) => x.keyword === 'const' && x.instancePath === e.instancePath)
        .map((x) => (x.params as { allowedValue: unknown }).allowedValue);
      return values.length > 1
        ? `The ${where(path)} must be one of: ${values.join(', ')}.`
        : `The ${where(path)} must be ${String(values[0])}.`;
    }
    case 'format': {
      const format = (e.params as { format: string }).format;
      const what = FORMAT_NAMES[format];
      return what
        ? `The ${where(path)} must be ${what}.`
        : `The ${where(path)} must match format "${format}".`;
    }
    case 'minItems': {
      const limit = (e.params as { limit: number }).limit;
      return limit === 1
        ? `The ${where(path)} must not be empty.`
        : `The ${where(path)} must have at least ${limit} items.`;
    }
    case 'maxItems':
      return `The ${where(path)} must have at most ${(e.params as { limit: number }).limit} items.`;
    case 'uniqueItems': {
      const { i, j } = e.params as { i: number; j: number };
      return `The ${where(path)} must not repeat an item (items ${Math.min(i, j)} and ${Math.max(i, j)} are the same).`;
    }
    case 'minProperties': {
      const limit = (e.params as { limit: number }).limit;
      return limit === 1
        ? `The ${where(path)} must have at least one field.`
        : `The ${where(path)} must have at least ${limit} fields.`;
    }
    case 'maxProperties':
      return `The ${where(path)} must have at most ${(e.params as { limit: number }).limit} entries.`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      const limit = (e.params as { limit: number }).limit;
      const bound = {
        minimum: 'at least',
        maximum: 'at most',
        exclusiveMinimum: 'greater than',
        exclusiveMaximum: 'less than',
      }[e.keyword];
      return `The ${where(path)} must be ${bound} ${limit}.`;
    }
    case 'multipleOf':
      return `The ${where(path)} must be a multiple of ${(e.params as { multipleOf: number }).multipleOf}.`;
    case 'pattern': {
      // A pattern with words (the name rule, ids made with patternText) says them; others are quoted.
      const pattern = (e.params as { pattern: string }).pattern;
      const rule = patternRule(pattern);
      return rule
        ? `The ${where(path)} must be ${rule}.`
        : `The ${where(path)} must match the pattern "${pattern}".`;
    }
    case 'anyOf':
    case 'oneOf':
      return `The ${where(path)} matches none of the forms it may take.`;
    default:
      return `The ${where(path)} is invalid (${e.keyword}).`;
  }
}
