import { Type } from 'typebox';

export const OverviewQuery = Type.Object(
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

const Quota = Type.Object({
  product: Type.String(),
  period: Type.String({ description: 'quota period, labelled by the year-month it starts in' }),
  requestsUsed: Type.Integer(),
  requestsLimit: Type.Integer({ description: '-1 when the plan is unlimited' }),
  blocked: Type.Integer(),
});

const Breakdown = Type.Array(Type.Object({ value: Type.String(), count: Type.Integer() }), {
  description: 'most frequent first',
});

export const OverviewSchema = Type.Object({
  from: Type.String({ format: 'date-time' }),
  to: Type.String({ format: 'date-time' }),
  days: Type.Array(Type.String({ description: 'UTC day, YYYY-MM-DD' }), {
    description: 'every day of the period, so the series below line up',
  }),
  series: Type.Array(
    Type.Object({
      type: Type.String({ description: 'event type' }),
      counts: Type.Array(Type.Integer(), { description: 'one count per entry of days' }),
      total: Type.Integer(),
    }),
  ),
  requests: Type.Array(
    Type.Object({
      product: Type.String(),
      counts: Type.Array(Type.Integer(), { description: 'requests per entry of days' }),
      blocked: Type.Array(Type.Integer(), { description: 'blocked requests per entry of days' }),
      total: Type.Integer(),
      blockedTotal: Type.Integer(),
    }),
    { description: 'requests per day by product (products without requests in the period are left out)' },
  ),
  breakdowns: Type.Object(
    {
      detectionSeverity: Breakdown,
      detectionCategory: Breakdown,
      dlpType: Breakdown,
      dlpSeverity: Breakdown,
    },
    { description: 'events of the period by detection severity and category, DLP finding type and severity' },
  ),
  quota: Type.Array(Quota, { description: 'use of the current quota period per enabled product' }),
  recent: Type.Array(
    Type.Object({
      id: Type.String(),
      type: Type.String(),
      created: Type.String({ format: 'date-time' }),
      summary: Type.String({ description: 'what happened, without prompt text or personal data' }),
    }),
    { description: 'the newest high-severity detections and DLP blocks' },
  ),
});
