import { Type } from 'typebox';

export const MAX_TEXT_CHARS = 100_000;

export const UsageStatsSchema = Type.Object({
  period: Type.String({
    pattern: '^\\d{4}-\\d{2}$',
    description: 'quota period, labelled by the year-month it starts in',
  }),
  requestsUsed: Type.Integer(),
  requestsLimit: Type.Integer({ description: '-1 when the plan is unlimited' }),
  blocked: Type.Integer({ description: 'analyses whose action was block' }),
  avgScore: Type.Number({ description: 'mean risk score of the analyses of the period' }),
});

export const TextBody = Type.Object(
  {
    text: Type.String({
      minLength: 1,
      maxLength: MAX_TEXT_CHARS,
      description: 'the prompt or document to check',
    }),
    context: Type.Optional(
      Type.String({
        maxLength: 20_000,
        description:
          "the system prompt the text is sent with, or 'document', 'email', 'web' or 'tool' for text that did not come from the user (docs/detection.md)",
      }),
    ),
  },
  { additionalProperties: false },
);

const Severity = Type.Enum(['none', 'low', 'medium', 'high', 'critical']);
const Action = Type.Enum(['allow', 'log', 'warn', 'block']);

export const AnalysisSchema = Type.Object({
  score: Type.Integer({ minimum: 0, maximum: 100 }),
  severity: Severity,
  action: Action,
  categories: Type.Array(Type.String()),
  safe: Type.Boolean(),
  details: Type.Object({
    tfidf_score: Type.Number(),
    pattern_matches: Type.Integer(),
    semantic_similarity: Type.Number(),
    obfuscation: Type.Array(Type.String()),
    // The signal that gave the most points; a score no match explains names its category after it.
    top_signal: Type.Enum(['patterns', 'similarity', 'obfuscation', 'model', 'none']),
    language: Type.Optional(Type.String()),
    // The learned signal's contribution: its version, the logit of the most suspicious window, its points,
    // and with a system prompt as context whether the text is off its stated task.
    model: Type.Optional(
      Type.Object({
        version: Type.String(),
        logit: Type.Number(),
        points: Type.Number(),
        off_task: Type.Optional(Type.Boolean()),
      }),
    ),
  }),
  matches: Type.Array(
    Type.Object({
      patternId: Type.String(),
      category: Type.String(),
      start: Type.Integer(),
      end: Type.Integer(),
      weight: Type.Number(),
    }),
  ),
});

export const DetectionSchema = Type.Object({
  injection: Type.Boolean(),
  score: Type.Integer(),
  safe: Type.Boolean(),
});

export const SanitizationSchema = Type.Object({
  sanitized: Type.String(),
  removed: Type.Array(Type.String()),
  modifications: Type.Integer(),
});

export const DetectionSettingsSchema = Type.Object(
  {
    thresholds: Type.Optional(
      Type.Object(
        {
          log: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
          warn: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
          block: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
        },
        { additionalProperties: false },
      ),
    ),
    allowPhrases: Type.Optional(Type.Array(Type.String({ minLength: 3, maxLength: 500 }), { maxItems: 200 })),
  },
  { additionalProperties: false },
);
