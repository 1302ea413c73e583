import { type Static, Type } from 'typebox';

export const RETENTION_DAYS = 90;

/**
 * The `metadata` part of an upload (a JSON text): the spec's fields, plus `tokenTypes` (one DLP type per
 * token, e.g. ["EMAIL", "IBAN"]) from which the server recomputes the risk score. Other fields are allowed
 * and dropped: only these are stored.
 */
export const ProofMetadata = Type.Object({
  hash: Type.String({ pattern: '^sha256:[0-9a-fA-F]{64}$', description: 'sha256:<hex> of the PDF bytes' }),
  timestamp: Type.String({ format: 'date-time' }),
  platform: Type.String({ minLength: 1, maxLength: 100 }),
  tokenCount: Type.Integer({ minimum: 0, maximum: 100_000 }),
  riskScore: Type.Integer({ minimum: 0, maximum: 100 }),
  epsVersion: Type.String({ minLength: 1, maxLength: 40, pattern: '^[0-9A-Za-z.+_-]+$' }),
  tier: Type.String({ minLength: 1, maxLength: 40 }),
  tokenTypes: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z][A-Za-z0-9_]*$' }), {
      maxItems: 100_000,
    }),
  ),
});
export type ProofMetadata = Static<typeof ProofMetadata>;

export const UploadReply = Type.Object({
  id: Type.String({ description: 'prefix proof_' }),
  uploadedAt: Type.String({ format: 'date-time' }),
  retentionDays: Type.Integer(),
  expiresAt: Type.String({ format: 'date-time' }),
  riskScoreMismatch: Type.Boolean({
    description: 'the declared riskScore differs from the one recomputed from tokenTypes',
  }),
});

export const ProofView = Type.Object({
  id: Type.String(),
  deviceId: Type.String(),
  userId: Type.Union([Type.String(), Type.Null()]),
  hash: Type.String(),
  sizeBytes: Type.Integer(),
  metadata: Type.Object({
    timestamp: Type.String(),
    platform: Type.String(),
    tokenCount: Type.Integer(),
    riskScore: Type.Integer(),
    epsVersion: Type.String(),
    tier: Type.String(),
    tokenTypes: Type.Optional(Type.Array(Type.String())),
  }),
  computedRiskScore: Type.Union([Type.Integer(), Type.Null()]),
  riskScoreMismatch: Type.Boolean(),
  uploadedAt: Type.String(),
  expiresAt: Type.String(),
  retentionDays: Type.Integer(),
});

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
export const GetQuery = Type.Object(
  { download: Type.Optional(Type.Union([Type.Literal('1'), Type.Literal('true'), Type.Literal('0')])) },
  { additionalProperties: false },
);
export const ListQuery = Type.Object(
  {
    deviceId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
    perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  },
  { additionalProperties: false },
);
export type ListQuery = Static<typeof ListQuery>;
export const ProofList = Type.Object({
  proofs: Type.Array(ProofView),
  pagination: Type.Object({ total: Type.Integer(), page: Type.Integer(), perPage: Type.Integer() }),
});
