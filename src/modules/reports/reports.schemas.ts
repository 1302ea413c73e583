import { Type } from 'typebox';
import { PERIODS } from './reports.service.js';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

export const CreateReportBody = Type.Object(
  {
    period: Type.Optional(
      Type.Union(
        (Object.keys(PERIODS) as (keyof typeof PERIODS)[]).map((p) => Type.Literal(p)),
        { description: 'a period ending now (24h, 7d, 30d, 90d, 365d); or give from/to' },
      ),
    ),
    from: Type.Optional(
      Type.String({ minLength: 10, maxLength: 40, description: 'ISO 8601 start (inclusive)' }),
    ),
    to: Type.Optional(
      Type.String({ minLength: 10, maxLength: 40, description: 'ISO 8601 end (exclusive); default now' }),
    ),
  },
  { additionalProperties: false },
);

export const ReportViewSchema = Type.Object({
  id: Type.String(),
  status: Type.String({ enum: ['running', 'ready', 'failed'] }),
  progress: Type.Integer({ minimum: 0, maximum: 100 }),
  period: Type.Object({ from: Type.String(), to: Type.String() }),
  createdAt: Type.String(),
  finishedAt: Type.Union([Type.String(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  links: Type.Object({ self: Type.String(), download: Type.String() }),
});

export const ReportListSchema = Type.Object({
  reports: Type.Array(ReportViewSchema),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});

export const ListQuery = Type.Object(
  {
    perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE })),
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const DownloadQuery = Type.Object(
  { format: Type.Optional(Type.String({ enum: ['json', 'csv', 'pdf'] })) },
  { additionalProperties: false },
);

const CountList = Type.Array(Type.Object({ name: Type.String(), count: Type.Integer() }));

/** The JSON download; the CSV and PDF carry the same figures. */
export const AnalysisReportSchema = Type.Object({
  id: Type.String(),
  organization: Type.Object({ id: Type.String(), name: Type.String(), plan: Type.String() }),
  period: Type.Object({ from: Type.String(), to: Type.String() }),
  generatedAt: Type.String(),
  detections: Type.Object({
    total: Type.Integer(),
    blocked: Type.Integer(),
    bySeverity: Type.Record(Type.String(), Type.Integer()),
    byCategory: CountList,
  }),
  dlp: Type.Object({
    events: Type.Integer(),
    findings: Type.Integer(),
    blocked: Type.Integer(),
    byType: CountList,
    bySeverity: CountList,
  }),
  blockedRequests: Type.Object({
    total: Type.Integer(),
    injection: Type.Integer(),
    personalData: Type.Integer(),
  }),
  top: Type.Object({ users: CountList, apiKeys: CountList }),
  daily: Type.Array(
    Type.Object({
      date: Type.String(),
      detections: Type.Integer(),
      blocked: Type.Integer(),
      dlpEvents: Type.Integer(),
    }),
  ),
  usage: Type.Array(
    Type.Object({
      product: Type.String(),
      period: Type.String(),
      requests: Type.Integer(),
      blocked: Type.Integer(),
      limit: Type.Union([Type.Integer(), Type.Null()]),
      percent: Type.Union([Type.Number(), Type.Null()]),
    }),
  ),
  hallucination: Type.Object({ checks: Type.Integer(), periods: Type.Array(Type.String()) }),
  gateway: Type.Object({
    requests: Type.Integer(),
    costMicroUsd: Type.Integer(),
    models: Type.Array(
      Type.Object({
        provider: Type.String(),
        model: Type.String(),
        requests: Type.Integer(),
        promptTokens: Type.Integer(),
        completionTokens: Type.Integer(),
        costMicroUsd: Type.Integer(),
      }),
    ),
  }),
});
