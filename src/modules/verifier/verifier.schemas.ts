import { Type } from 'typebox';
import { mapOf, nameText } from '../../platform/http/index.js';

export const SOURCE_TYPES = ['website', 'api', 'file', 'database'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];
export const REFRESH_INTERVALS = ['daily', 'weekly', 'manual'] as const;
export type RefreshInterval = (typeof REFRESH_INTERVALS)[number];
export const SOURCE_STATUSES = ['pending', 'indexing', 'ready', 'failed'] as const;
export type SourceStatus = (typeof SOURCE_STATUSES)[number];

/** The longest answer one verify call checks: about ten pages of text. */
export const MAX_RESPONSE_CHARS = 20_000;
export const MAX_CONTEXT_CHARS = 20_000;
export const MAX_CRAWL_DEPTH = 5;
export const MIN_LLMS = 2;
export const MAX_LLMS = 30;
/** Uploaded files (multipart): larger documents are better given as a path the server can read. */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

const headersField = mapOf({ minLength: 1, maxLength: 200 }, Type.String({ maxLength: 8_000 }), {
  description: 'api sources: request headers (credentials); sealed at rest, never shown again',
});

export const SourceBody = Type.Object(
  {
    type: Type.String({ enum: [...SOURCE_TYPES] }),
    url: Type.String({
      minLength: 1,
      maxLength: 4_000,
      description:
        'website or api: an http(s) URL; file: a path the server can read; database: a connection string (postgres://, mysql://, sqlite:/path)',
    }),
    name: Type.Optional(nameText(200)),
    crawlDepth: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_CRAWL_DEPTH,
        default: 1,
        description: 'websites: 0 = the start page only, 1 = plus the pages it links to, …',
      }),
    ),
    refreshInterval: Type.Optional(Type.String({ enum: [...REFRESH_INTERVALS], default: 'manual' })),
    allowedHosts: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 253 }), {
        maxItems: 50,
        description:
          "websites: other hosts the crawl may follow links and redirects to, as host or host:port (a bare host: on the start URL's scheme and port); the start URL's origin only otherwise",
      }),
    ),
    headers: Type.Optional(headersField),
    tables: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z_][A-Za-z0-9_.]*$' }), {
        maxItems: 100,
        description: 'databases: the tables to read (every column of every row)',
      }),
    ),
    query: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 10_000,
        description: 'databases: one read-only SELECT instead of tables; needs keyColumn',
      }),
    ),
    keyColumn: Type.Optional(
      Type.String({ minLength: 1, maxLength: 128, description: 'databases: the column a passage cites' }),
    ),
  },
  { additionalProperties: false },
);

export const SourceSchema = Type.Object({
  id: Type.String({ description: 'prefix src_' }),
  type: Type.String({ enum: [...SOURCE_TYPES] }),
  name: Type.String(),
  url: Type.String({ description: 'the URL or connection string without credentials' }),
  crawlDepth: Type.Integer(),
  refreshInterval: Type.String({ enum: [...REFRESH_INTERVALS] }),
  status: Type.String({ enum: [...SOURCE_STATUSES] }),
  statusReason: Type.Union([Type.String(), Type.Null()], { description: 'why indexing failed' }),
  documents: Type.Integer({ minimum: 0 }),
  passages: Type.Integer({ minimum: 0 }),
  validated: Type.Boolean({ description: 'marked trusted by an administrator: decides claims at 100 %' }),
  validatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  validatedBy: Type.Union([Type.String(), Type.Null()]),
  lastIndexedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  nextRefreshAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
});

export const SourceList = Type.Object({ sources: Type.Array(SourceSchema) });

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const DeleteResponse = Type.Object({ deleted: Type.Boolean(), id: Type.String() });

export const ValidateBody = Type.Object(
  {
    validated: Type.Optional(Type.Boolean({ default: true, description: 'false withdraws the validation' })),
    validatedBy: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const VerifyBody = Type.Object(
  {
    response: Type.String({ minLength: 1, maxLength: MAX_RESPONSE_CHARS, description: 'the LLM answer' }),
    context: Type.Optional(
      Type.String({
        maxLength: MAX_CONTEXT_CHARS,
        description: 'the original user question; never sent out',
      }),
    ),
    options: Type.Optional(
      Type.Object(
        {
          multiLlm: Type.Optional(Type.Boolean({ default: false })),
          llmCount: Type.Optional(Type.Integer({ minimum: MIN_LLMS, maximum: MAX_LLMS, default: 5 })),
          includeSourceUrls: Type.Optional(Type.Boolean({ default: true })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const VerifyResult = Type.Object({
  verified: Type.Boolean({ description: 'every claim supported, none contradicted' }),
  score: Type.Integer({
    minimum: 0,
    maximum: 100,
    description: 'mean trust of the claims (docs/verifier.md)',
  }),
  sources: Type.Array(
    Type.Object({
      type: Type.String(),
      url: Type.String({ description: 'the citation, or the source id when includeSourceUrls is false' }),
      confidence: Type.Integer({ minimum: 0, maximum: 100 }),
    }),
  ),
  claims: Type.Array(
    Type.Object({
      text: Type.String(),
      verified: Type.Boolean(),
      source: Nullable(Type.String({ description: 'what decided it: a citation, or "llm-consensus"' })),
      verdict: Type.String({ enum: ['supported', 'contradicted', 'not_found'] }),
      confidence: Type.Integer({ minimum: 0, maximum: 100 }),
      decidedBy: Type.String({ enum: ['validated_source', 'source', 'llm_consensus', 'none'] }),
      evidence: Nullable(Type.String({ description: 'the passage that decided it' })),
      votes: Type.Optional(
        Type.Object({
          asked: Type.Integer(),
          answered: Type.Integer(),
          agree: Type.Integer(),
          disagree: Type.Integer(),
          unsure: Type.Integer(),
        }),
      ),
    }),
  ),
  warnings: Type.Array(Type.String()),
});

export const ScoreResult = Type.Object({
  score: Type.Integer({ minimum: 0, maximum: 100, description: 'mean score of the verifications so far' }),
  sources: Type.Object({ connected: Type.Integer(), validated: Type.Integer() }),
  lastUpdate: Nullable(Type.String({ format: 'date-time', description: 'when a source was last indexed' })),
  verifications: Type.Integer({ description: 'verify calls answered since the process started' }),
  passages: Type.Integer({ description: 'passages in the index' }),
});
