import { Type } from 'typebox';
import { patternText } from '../../platform/http/index.js';

const Iso = Type.String({ format: 'date-time' });

export const CONVERSATION_ID_PATTERN = '^conv_[0-9A-Za-z]{22}$';

/**
 * A conversation id wherever one is given (the path of the conversation routes, the chat's
 * `conversationId`): another form is 400 naming the field, a well-formed unknown one 404 (docs/errors.md).
 */
export const conversationIdText = (description?: string) =>
  patternText(
    CONVERSATION_ID_PATTERN,
    'conv_ followed by 22 letters or digits',
    description ? { description } : {},
  );

export const ConversationParams = Type.Object({ id: conversationIdText() });

export const ConversationListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
  },
  { additionalProperties: false },
);

const ConversationFields = {
  id: Type.String(),
  model: Type.String({ description: 'catalog key of the model that answered last' }),
  createdAt: Iso,
  updatedAt: Iso,
  expiresAt: Iso,
};

export const ConversationSummarySchema = Type.Object({
  ...ConversationFields,
  messages: Type.Integer({ description: 'number of stored messages (at most 40, plus the system prompt)' }),
});

export const ConversationListSchema = Type.Object({
  conversations: Type.Array(ConversationSummarySchema),
  total: Type.Integer({ description: 'live conversations of the organization' }),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

export const ConversationSchema = Type.Object({
  ...ConversationFields,
  sessionId: Type.String({
    description: 'vault session of the conversation: /api/v1/dlp/rehydrate restores its tokens',
  }),
  messages: Type.Array(
    Type.Object({
      role: Type.String(),
      content: Type.String({ description: 'as stored: personal data is tokenized (TKN_…)' }),
    }),
  ),
});

export const UsageQuery = Type.Object(
  {
    from: Type.Optional(
      Type.String({ maxLength: 40, description: 'inclusive; default: start of the current UTC month' }),
    ),
    to: Type.Optional(
      Type.String({ maxLength: 40, description: 'exclusive; default: start of the next UTC month' }),
    ),
  },
  { additionalProperties: false },
);

const Counts = {
  requests: Type.Integer({ description: 'provider calls' }),
  promptTokens: Type.Integer(),
  completionTokens: Type.Integer(),
  cost: Type.Number({
    description: 'USD from the catalog prices, rounded to the micro-dollar (costMicroUsd / 1,000,000)',
  }),
  costMicroUsd: Type.Integer({
    description: 'the same amount in integer micro-dollars (millionths of a USD)',
  }),
};

export const UsageReportSchema = Type.Object({
  from: Iso,
  to: Iso,
  ...Counts,
  byModel: Type.Array(
    Type.Object({
      provider: Type.String(),
      model: Type.String(),
      ...Counts,
      estimated: Type.Integer({
        description: 'calls whose usage was estimated, not reported by the provider',
      }),
    }),
  ),
  byEndpoint: Type.Array(
    Type.Object({
      endpoint: Type.String({ description: 'chat or proxy' }),
      requests: Type.Integer(),
      cost: Type.Number({ description: 'USD, rounded to the micro-dollar' }),
      costMicroUsd: Type.Integer({ description: 'integer micro-dollars' }),
    }),
  ),
});
