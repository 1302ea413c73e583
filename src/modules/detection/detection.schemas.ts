import { Type } from 'typebox';

export const UsageStatsSchema = Type.Object({
  period: Type.String({ pattern: '^\\d{4}-\\d{2}$', description: 'quota period, labelled by the year-month it starts in' }),
  requestsUsed: Type.Integer(),
  requestsLimit: Type.Integer({ description: '-1 when the plan is unlimited' }),
  blocked: Type.Integer({ description: 'analyses whose action was block' }),
  avgScore: Type.Number({ description: 'mean risk score of the analyses of the period' }),
});
