import { Type } from 'typebox';
import { mapOf } from '../../platform/http/index.js';
import { EVENT_TYPES } from './event-types.js';

const Iso = Type.String({ format: 'date-time' });
const NullableIso = Type.Union([Iso, Type.Null()]);
const NullableInt = Type.Union([Type.Integer(), Type.Null()]);

export const EventTypeName = Type.Union(
  Object.keys(EVENT_TYPES).map((t) => Type.Literal(t)),
  { description: 'one of the webhook event types' },
);
const Subscription = Type.String({ minLength: 1, maxLength: 64, description: 'an event type, or * for all' });
const Metadata = mapOf({ minLength: 1, maxLength: 100 }, Type.String({ maxLength: 1000 }), {
  description: 'free string map, returned as given',
  maxProperties: 50,
});

export const WebhookView = Type.Object({
  id: Type.String({ description: 'prefix wh_' }),
  url: Type.String(),
  events: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  metadata: Type.Record(Type.String(), Type.String()),
  disabledReason: Type.Union([Type.String(), Type.Null()], {
    description: 'set when the service disabled the endpoint (it answered 410 Gone)',
  }),
  previousSecretExpiresAt: Type.Union([Iso, Type.Null()], {
    description: 'while set, the previous secret also signs (webhook-signature) after a rotation',
  }),
  createdAt: Iso,
  updatedAt: Iso,
});

export const CreatedWebhook = Type.Intersect([
  WebhookView,
  Type.Object({ secret: Type.String({ description: 'whsec_…; shown in this response only' }) }),
]);

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'HTTPS URL' }),
    events: Type.Array(Subscription, { minItems: 1, maxItems: 20 }),
    secret: Type.Optional(Type.String({ minLength: 16, maxLength: 256 })),
    enabled: Type.Optional(Type.Boolean()),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
    events: Type.Optional(Type.Array(Subscription, { minItems: 1, maxItems: 20 })),
    enabled: Type.Optional(Type.Boolean()),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const RotateSecretBody = Type.Object(
  {
    secret: Type.Optional(Type.String({ minLength: 16, maxLength: 256 })),
    graceSeconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 7 * 24 * 3600,
        description: 'default 86400; 0 retires the old secret now',
      }),
    ),
  },
  { additionalProperties: false },
);

export const TestBody = Type.Object({ eventType: EventTypeName }, { additionalProperties: false });

export const TestResult = Type.Object({
  success: Type.Boolean(),
  deliveryId: Type.String(),
  responseCode: NullableInt,
  responseTimeMs: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()]),
});

export const DeliveryView = Type.Object({
  id: Type.String({ description: 'prefix del_' }),
  eventId: Type.String(),
  eventType: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  responseCode: NullableInt,
  responseTimeMs: NullableInt,
  attempts: Type.Integer(),
  deliveredAt: NullableIso,
  lastAttemptAt: NullableIso,
  nextRetryAt: NullableIso,
  error: Type.Union([Type.String(), Type.Null()]),
  test: Type.Boolean(),
  createdAt: Iso,
});

export const AttemptView = Type.Object({
  attempt: Type.Integer(),
  at: Iso,
  responseCode: NullableInt,
  latencyMs: Type.Integer(),
  errorClass: Type.Union([Type.String(), Type.Null()], {
    description:
      'null on success; http_status, timeout, dns_failed, connect_failed, tls, connection_reset, ssrf_blocked, …',
  }),
  error: Type.Union([Type.String(), Type.Null()]),
});

export const DeliveriesQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  status: Type.Optional(
    Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')], {
      description: 'only deliveries in this state',
    }),
  ),
  eventType: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'only this event type' })),
  cursor: Type.Optional(
    Type.String({
      maxLength: 200,
      description:
        'nextCursor of the previous page: the page after it, read by keyset (page is then ignored); stays fast at any depth',
    }),
  ),
});

export const DeliveriesPagination = Type.Object({
  total: Type.Integer({ description: 'deliveries matching the filters, counted up to 10,000' }),
  totalIsLowerBound: Type.Optional(
    Type.Boolean({ description: 'true when more than 10,000 match: total is then 10,000' }),
  ),
  page: Type.Integer(),
  perPage: Type.Integer(),
  nextCursor: Type.Optional(
    Type.String({ description: 'pass as cursor for the next page; absent on the last page' }),
  ),
});

export const RecoverBody = Type.Object(
  {
    since: Iso,
    until: Type.Optional(Iso),
  },
  { additionalProperties: false },
);

export const WebhookParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
export const DeliveryParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  deliveryId: Type.String({ minLength: 1, maxLength: 100 }),
});
