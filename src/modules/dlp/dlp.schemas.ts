import { Type } from 'typebox';

export const MAX_TEXT_CHARS = 200_000;

export const AnalyzeBody = Type.Object(
  {
    text: Type.String({ minLength: 1, maxLength: MAX_TEXT_CHARS, description: 'text to tokenize' }),
    organizationId: Type.Optional(
      Type.String({ maxLength: 64, description: 'must be the organization of the key' }),
    ),
    sessionId: Type.Optional(
      Type.String({
        maxLength: 64,
        description: 'add to an existing session (sess_…) instead of opening one',
      }),
    ),
  },
  { additionalProperties: false },
);

export const TokenRecord = Type.Object({
  token: Type.String({ description: 'TKN_<TYPE>_<suffix>' }),
  type: Type.String({ description: 'lower-case entity type: name, email, iban, phone, card, avs, ssn, …' }),
  domain: Type.String({ description: 'DLP domain: PERSONAL, FINANCIAL, CREDENTIALS, IDENTITY, …' }),
  original: Type.Literal('[REDACTED]'),
  sessionId: Type.String(),
});

export const AnalyzeResponse = Type.Object({
  tokenized: Type.String(),
  tokens: Type.Array(TokenRecord),
  sessionId: Type.String(),
  stats: Type.Object({
    totalDetected: Type.Integer(),
    categories: Type.Array(Type.String()),
    processingMs: Type.Integer(),
  }),
});

export const RehydrateBody = Type.Object(
  {
    text: Type.String({ maxLength: MAX_TEXT_CHARS * 2 }),
    sessionId: Type.String({ minLength: 1, maxLength: 64 }),
  },
  { additionalProperties: false },
);

export const RehydrateResponse = Type.Object({
  rehydrated: Type.String(),
  count: Type.Integer({ description: 'tokens restored' }),
  unknownTokens: Type.Array(Type.String(), {
    description: 'token-shaped strings this session does not know',
  }),
});

const CustomPatternSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z][A-Za-z0-9_]*$' }),
    domain: Type.String({ minLength: 1, maxLength: 32 }),
    regex: Type.String({ minLength: 1, maxLength: 500 }),
    flags: Type.Optional(Type.String({ pattern: '^[imsu]*$', maxLength: 4 })),
  },
  { additionalProperties: false },
);

const TypeList = Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { maxItems: 50 });

export const DlpSettingsSchema = Type.Object(
  {
    types: Type.Optional(TypeList),
    ignoreTypes: Type.Optional(TypeList),
    allowValues: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 500 })),
    customPatterns: Type.Optional(Type.Array(CustomPatternSchema, { maxItems: 50 })),
    blockTypes: Type.Optional(TypeList),
    sessionTtlHours: Type.Optional(Type.Integer({ minimum: 1, maximum: 24 * 30 })),
    phoneRegion: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$' })),
  },
  { additionalProperties: false },
);
