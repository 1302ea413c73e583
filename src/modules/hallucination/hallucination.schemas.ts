import { Type } from 'typebox';
import { LIMITS } from '../../engines/hallucination/index.js';

/** Per-organization cap on stored corrections: each one is read on every check (docs/hallucination.md). */
export const MAX_CORRECTIONS_PER_ORG = 500;
export const MAX_CORRECTION_FIELD_CHARS = 2_000;
export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

/**
 * Sources may be up to 20 × 50,000 characters, more than the server-wide body limit once encoded as UTF-8
 * JSON; this route accepts up to 4 MiB (escaped non-ASCII text can take six bytes a character).
 */
export const CHECK_BODY_LIMIT = 4 * 1024 * 1024;

const VERDICTS = ['supported', 'contradicted', 'unsupported', 'partially_supported'];

export const CheckBody = Type.Object(
  {
    claim: Type.String({
      minLength: 1,
      maxLength: LIMITS.maxClaimChars,
      description: 'one sentence or a whole LLM answer',
    }),
    sources: Type.Array(
      Type.String({ minLength: 1, maxLength: LIMITS.maxSourceChars, description: 'a source document' }),
      { minItems: 1, maxItems: LIMITS.maxSources, description: 'the documents to check the claim against' },
    ),
    mode: Type.Optional(
      Type.String({
        enum: ['local', 'llm'],
        description:
          "local: the built-in checker only (offline); llm: also ask a model of a provider the organization configured. Default: the organization's setting, else local",
      }),
    ),
    model: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'with mode llm: the model to ask (provider/model); default: the cheapest configured one',
      }),
    ),
  },
  { additionalProperties: false },
);

export const HallucinationSettingsSchema = Type.Object(
  {
    mode: Type.String({ enum: ['local', 'llm'], description: 'the mode of a check that names none' }),
    model: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'the model the LLM judge prefers' }),
    ),
  },
  { additionalProperties: false },
);

const VerdictSchema = Type.String({ enum: VERDICTS });

export const EvidenceSchema = Type.Object({
  claim: Type.String({ description: 'the sub-claim this evidence is for' }),
  source_index: Type.Integer({ minimum: 0, description: 'zero-based index into the submitted sources' }),
  match: Type.String({ description: 'the matching source text' }),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  verdict: VerdictSchema,
});

export const CorrectionEvidenceSchema = Type.Object({
  claim: Type.String({ description: "the sub-claim that restates a correction's originalClaim" }),
  correctionId: Type.Optional(Type.String({ description: 'the stored correction that decided it (cor_…)' })),
  correctedClaim: Type.String({ description: "the correction's correctedClaim: what is right instead" }),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  verdict: Type.String({ enum: ['contradicted'] }),
});

export const CheckResponse = Type.Object({
  score: Type.Number({ minimum: 0, maximum: 1, description: '1 = fully supported' }),
  verdict: VerdictSchema,
  evidence: Type.Array(EvidenceSchema, {
    description: 'source evidence: at most one item per sub-claim for which a source passage was retrieved',
  }),
  corrections: Type.Array(CorrectionEvidenceSchema, {
    description: "the sub-claims an organization's stored correction decided (contradicted), one item each",
  }),
  claims: Type.Array(
    Type.Object({
      text: Type.String(),
      verdict: VerdictSchema,
      score: Type.Number({ minimum: 0, maximum: 1 }),
    }),
    { description: 'the atomic sub-claims the claim was split into' },
  ),
  language: Type.String({ description: 'en, fr, de, or und when undetermined' }),
  mode: Type.String({
    enum: ['local', 'llm'],
    description: "llm when a model's verdicts were combined in; local otherwise (judge.fallback says why)",
  }),
  judge: Type.Optional(
    Type.Object({
      model: Type.Optional(Type.String({ description: 'the model that judged (provider/model)' })),
      fallback: Type.Optional(
        Type.String({
          enum: ['no_provider', 'provider_error', 'unreadable_answer'],
          description: 'why the local verdict stands alone although mode llm was asked',
        }),
      ),
    }),
  ),
});

const correctionField = (description: string) =>
  Type.String({ minLength: 1, maxLength: MAX_CORRECTION_FIELD_CHARS, description });

export const CorrectBody = Type.Object(
  {
    originalClaim: correctionField('the claim that is wrong'),
    correctedClaim: correctionField('what is right instead'),
    source: correctionField('where the corrected fact comes from: a document, URL or person'),
  },
  { additionalProperties: false },
);

export const CorrectionSchema = Type.Object({
  id: Type.String({ description: 'prefix cor_' }),
  originalClaim: Type.String(),
  correctedClaim: Type.String(),
  source: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
});

export const ListQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
    perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE })),
  },
  { additionalProperties: false },
);

export const ListResponse = Type.Object({
  corrections: Type.Array(CorrectionSchema),
  pagination: Type.Object({
    total: Type.Integer(),
    page: Type.Integer(),
    perPage: Type.Integer(),
    limit: Type.Integer({ description: 'how many corrections the organization may store' }),
  }),
});

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const DeleteResponse = Type.Object({ deleted: Type.Boolean(), id: Type.String() });
