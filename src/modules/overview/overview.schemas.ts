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
