import { Type } from 'typebox';
import { conversationIdText } from './history.schemas.js';

export const MAX_MESSAGE_CHARS = 200_000;

export const ChatBodySchema = Type.Object(
  {
    message: Type.String({ minLength: 1, maxLength: MAX_MESSAGE_CHARS, description: "the user's message" }),
    autoSelect: Type.Optional(
      Type.Boolean({
        description: 'pick the cheapest adequate model (default false: the preferred or cheapest model)',
      }),
    ),
    stream: Type.Optional(Type.Boolean({ description: 'answer as Server-Sent Events (default false)' })),
    conversationId: Type.Optional(
      conversationIdText(
        'continue a stored conversation: conv_ followed by 22 letters or digits (another form gives 400, an unknown one 404)',
      ),
    ),
    routing: Type.Optional(
      Type.Object(
        {
          preferredModel: Type.Optional(
            Type.String({ maxLength: 200, description: 'catalog key (openai/gpt-4o-mini) or model id' }),
          ),
          maxCost: Type.Optional(Type.Number({ minimum: 0, description: 'USD ceiling for this request' })),
        },
        { additionalProperties: false },
      ),
    ),
    system: Type.Optional(
      Type.String({
        maxLength: MAX_MESSAGE_CHARS,
        description: 'system prompt; first turn of a conversation only',
      }),
    ),
    temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2 })),
    maxTokens: Type.Optional(Type.Integer({ minimum: 1, maximum: 200_000 })),
  },
  { additionalProperties: false },
);

export const UsageSchema = Type.Object({
  promptTokens: Type.Integer(),
  completionTokens: Type.Integer(),
  totalTokens: Type.Integer(),
  cost: Type.Number({
    description: 'USD from the catalog prices, rounded to the micro-dollar (costMicroUsd / 1,000,000)',
  }),
  costMicroUsd: Type.Integer({
    description: 'the same amount in integer micro-dollars (millionths of a USD)',
  }),
});

export const ProtectionSchema = Type.Object({
  pgScore: Type.Integer({ description: 'injection score of the message, 0..100' }),
  pgBlocked: Type.Boolean({ description: 'true when the message was blocked and no provider was called' }),
  tokensDetected: Type.Integer({ description: 'personal-data tokens placed in this turn' }),
  tokenizedFields: Type.Array(Type.String(), { description: 'message, system, history' }),
  rehydrated: Type.Boolean({ description: 'true when tokens in the answer were restored' }),
});

export const ChatResultSchema = Type.Object({
  response: Type.String(),
  model: Type.String({ description: 'catalog key of the model that answered; empty when blocked' }),
  conversationId: Type.Union([Type.String(), Type.Null()], {
    description:
      'null when nothing of a new conversation was stored: its first message was blocked, or its answer was cut off (length limit, content filter) before any of it was finished',
  }),
  usage: UsageSchema,
  protection: ProtectionSchema,
});

const Message = Type.Object(
  {
    role: Type.String({ minLength: 1 }),
  },
  { additionalProperties: true },
);

export const ProxyBodySchema = Type.Object(
  {
    model: Type.String({ minLength: 1, maxLength: 200 }),
    messages: Type.Array(Message, { minItems: 1 }),
    temperature: Type.Optional(Type.Number()),
    stream: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true, description: 'OpenAI chat-completions request' },
);

export const ProxyResponseSchema = Type.Object(
  {
    id: Type.String(),
    object: Type.String(),
    model: Type.String(),
    choices: Type.Array(Type.Unknown()),
    usage: Type.Optional(Type.Unknown()),
  },
  {
    additionalProperties: true,
    description:
      'OpenAI chat completion (or, with stream: true, text/event-stream of chat.completion.chunk). Upstream errors keep the provider status and error body.',
  },
);

export const ProviderParams = Type.Object({ provider: Type.String({ maxLength: 32 }) });

export const ForceStatusSchema = Type.Object({
  enabled: Type.Boolean(),
  enabledAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  enabledBy: Type.Union([Type.String({ description: 'user id' }), Type.Null()]),
  config: Type.Object({
    blockDirectProxy: Type.Boolean(),
    allowedEndpoints: Type.Array(Type.String()),
  }),
});

export const ForceSwitchBody = Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false });

export const ForceSwitchResult = Type.Object({
  success: Type.Boolean(),
  enabled: Type.Boolean(),
  enabledAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const ProviderKeySchema = Type.Object({
  provider: Type.String(),
  configured: Type.Boolean(),
  keyHint: Type.Union([Type.String(), Type.Null()], {
    description: 'last four characters; the key is never returned',
  }),
  baseUrl: Type.Union([Type.String(), Type.Null()]),
  updatedAt: Type.Union([Type.String(), Type.Null()]),
  builtIn: Type.Boolean({ description: 'the offline model: always available, needs no key' }),
});

export const ProviderKeyList = Type.Object({ providers: Type.Array(ProviderKeySchema) });

export const ProviderKeyBody = Type.Object(
  {
    apiKey: Type.String({ minLength: 8, maxLength: 1000 }),
    baseUrl: Type.Optional(
      Type.String({ maxLength: 500, description: 'https; required for azure (resource URL)' }),
    ),
  },
  { additionalProperties: false },
);

export const DeletedSchema = Type.Object({ success: Type.Boolean() });
