import { type Static, Type } from 'typebox';
import {
  compilePartsCheck,
  nameText,
  oneOf,
  RejectedPartSchema,
  SITE_HOST_PATTERN,
} from '../../platform/http/index.js';

/** The spec's catalog categories, and the Shadow-AI service category each maps to (docs/shadow-ai.md). */
export const CATALOG_CATEGORIES = [
  'LLM Chat',
  'Code Assistant',
  'Image Gen',
  'Video Gen',
  'Audio/Voice',
  'Search',
  'Writing',
  'Enterprise',
] as const;
export type CatalogCategory = (typeof CATALOG_CATEGORIES)[number];
export const SERVICE_CATEGORIES = [
  'chatbot',
  'code',
  'image',
  'video',
  'audio',
  'search',
  'writing',
  'enterprise',
  'auto-detect',
] as const;
export type ServiceCategory = (typeof SERVICE_CATEGORIES)[number];

export const CATALOG_STATUSES = ['approved', 'review', 'blocked'] as const;
export type CatalogStatus = (typeof CATALOG_STATUSES)[number];
export const GDPR_STATUSES = ['eu', 'adequate', 'conditional', 'not_adequate', 'unknown'] as const;
export type GdprStatus = (typeof GDPR_STATUSES)[number];
export const SERVICE_STATUSES = ['approved', 'blocked', 'monitored', 'discovered'] as const;
export type ServiceStatus = (typeof SERVICE_STATUSES)[number];
/** What an administrator may set (the spec's modify-status operation). */
export const TARGET_STATUSES = ['approved', 'blocked', 'monitored'] as const;
export const RISK_LEVELS = ['low', 'medium', 'high', 'unknown'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];
/** Signals of the extension's radar; the spec names the first three. */
export const HEURISTIC_SIGNALS = [
  'streaming_response',
  'ai_headers',
  'chat_pattern',
  'request_shape',
] as const;
export type HeuristicSignal = (typeof HEURISTIC_SIGNALS)[number];

/** Most detections in one report; the extension sends more as further reports. */
export const MAX_REPORT_ITEMS = 200;

const strict = { additionalProperties: false } as const;
const PLAIN_HOST = '^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z][A-Za-z0-9-]{0,61}[A-Za-z0-9]$';
const Host = Type.String({ pattern: PLAIN_HOST, maxLength: 253, description: 'host name' });
/**
 * A reported host as the browser names it (a name, one label allowed, an IPv4 address or [IPv6]): the
 * self-hosted LLMs at `10.0.0.5` or `ollama` are the most typical shadow AI and must be reportable.
 */
const SiteHost = Type.String({
  pattern: SITE_HOST_PATTERN,
  maxLength: 253,
  description: 'host of the page: a host name (one label allowed), an IPv4 address or [IPv6]',
});
const Time = Type.String({ format: 'date-time' });

// ---------- the detection report (device token) ----------

const ReportId = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[A-Za-z0-9._:-]+$',
  description: "the client's id of this report; a retried report with the same id changes nothing",
});

export const Detection = Type.Object(
  {
    domain: SiteHost,
    signals: Type.Optional(
      Type.Array(oneOf(HEURISTIC_SIGNALS), { maxItems: HEURISTIC_SIGNALS.length, uniqueItems: true }),
    ),
    count: Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'interactions seen' }),
    firstSeen: Time,
    lastSeen: Time,
  },
  strict,
);
export type Detection = Static<typeof Detection>;

/** The report as documented (OpenAPI): every detection a Detection. */
export const ReportBody = Type.Object(
  { reportId: ReportId, detections: Type.Array(Detection, { minItems: 1, maxItems: MAX_REPORT_ITEMS }) },
  strict,
);
export type ReportBody = Static<typeof ReportBody>;

/**
 * The report as validated with the request: its envelope only. Each detection is checked on its own
 * (`checkDetections`), so one the server cannot take costs only itself and the others are applied.
 */
export const ReportEnvelope = Type.Object(
  {
    reportId: ReportId,
    detections: Type.Array(Type.Unknown(), { minItems: 1, maxItems: MAX_REPORT_ITEMS }),
  },
  strict,
);
export type ReportEnvelope = Static<typeof ReportEnvelope>;

/** The detections of a report that can be applied, and each refused one with its index and why. */
export const checkDetections = compilePartsCheck<Detection>(Detection, '/detections', (d, field) =>
  Date.parse(d.firstSeen) > Date.parse(d.lastSeen)
    ? `The body field '${field}.firstSeen' must not be after its lastSeen.`
    : null,
);

const ReportCounts = {
  reportId: Type.String(),
  duplicate: Type.Boolean({ description: 'true when this report id was received before (nothing applied)' }),
  accepted: Type.Integer(),
  ignored: Type.Integer({ description: 'unknown domains reported without any heuristic signal' }),
  services: Type.Array(
    Type.Object({
      domain: Type.String(),
      known: Type.Boolean({ description: 'the domain is in the catalog' }),
      status: Type.String(),
    }),
  ),
};
export const ReportReply = Type.Object(ReportCounts);
export const ReportPartialReply = Type.Object({
  ...ReportCounts,
  rejected: Type.Array(RejectedPartSchema, {
    description:
      'detections refused (permanently: sending them again gets the same answer); the others were applied',
  }),
});

// ---------- services (dashboard) ----------

export const ServiceView = Type.Object({
  id: Type.String({ description: 'prefix svc_' }),
  name: Type.String(),
  domain: Type.String(),
  category: Type.String({ description: SERVICE_CATEGORIES.join(', ') }),
  status: Type.String({ description: SERVICE_STATUSES.join(', ') }),
  riskLevel: Type.String({ description: RISK_LEVELS.join(', ') }),
  lastSeen: Time,
  firstSeen: Time,
  usageCount: Type.Integer(),
  uniqueUsers: Type.Integer({ description: 'distinct users (devices bound to no user are counted apart)' }),
  unboundDevices: Type.Integer({ description: 'distinct devices bound to no user' }),
  dataResidency: Type.Optional(Type.String({ description: 'catalog services only' })),
  gdprStatus: Type.Optional(Type.String({ description: 'catalog services only' })),
  catalogId: Type.Union([Type.String(), Type.Null()]),
  detectedBy: Type.String({ description: 'catalog or heuristic' }),
  heuristicSignals: Type.Array(Type.String()),
});

export const ServiceStats = Type.Object({
  totalServices: Type.Integer(),
  approved: Type.Integer(),
  blocked: Type.Integer(),
  monitored: Type.Integer(),
  discovered: Type.Integer(),
  hiddenByPlan: Type.Integer({
    description: 'services stored beyond the plan limit, shown after an upgrade',
  }),
  planLimit: Type.Union([Type.Integer(), Type.Null()]),
});

export const ServiceListQuery = Type.Object(
  {
    status: Type.Optional(oneOf(SERVICE_STATUSES)),
    category: Type.Optional(oneOf(SERVICE_CATEGORIES)),
    risk: Type.Optional(oneOf(RISK_LEVELS)),
    search: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
    perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  },
  strict,
);
export type ServiceListQuery = Static<typeof ServiceListQuery>;

export const ServiceList = Type.Object({
  services: Type.Array(ServiceView),
  stats: ServiceStats,
  pagination: Type.Object({ total: Type.Integer(), page: Type.Integer(), perPage: Type.Integer() }),
});

export const StatusBody = Type.Object({ status: oneOf(TARGET_STATUSES) }, strict);
export type StatusBody = Static<typeof StatusBody>;

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

export const StatsQuery = Type.Object(
  { days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, default: 30 })) },
  strict,
);

export const StatsView = Type.Object({
  from: Type.String({ description: 'first day, YYYY-MM-DD (UTC)' }),
  to: Type.String({ description: 'last day, YYYY-MM-DD (UTC)' }),
  totals: Type.Object({
    services: Type.Integer(),
    usage: Type.Integer(),
    users: Type.Integer({ description: 'distinct users (devices bound to no user are counted apart)' }),
    unboundDevices: Type.Integer({ description: 'distinct devices bound to no user' }),
    newDiscoveries: Type.Integer(),
  }),
  byDay: Type.Array(
    Type.Object({
      day: Type.String(),
      usage: Type.Integer(),
      users: Type.Integer({ description: 'distinct users (devices bound to no user are counted apart)' }),
      unboundDevices: Type.Integer({ description: 'distinct devices bound to no user' }),
      newDiscoveries: Type.Integer(),
    }),
  ),
  byService: Type.Array(
    Type.Object({
      serviceId: Type.String(),
      domain: Type.String(),
      name: Type.String(),
      status: Type.String(),
      usage: Type.Integer(),
      users: Type.Integer({ description: 'distinct users (devices bound to no user are counted apart)' }),
      unboundDevices: Type.Integer({ description: 'distinct devices bound to no user' }),
    }),
  ),
  byUser: Type.Array(
    Type.Object({
      user: Type.String({ description: 'user id, or dev:<device id> for a device bound to no user' }),
      usage: Type.Integer(),
      services: Type.Integer(),
    }),
  ),
  newDiscoveries: Type.Array(
    Type.Object({
      id: Type.String(),
      domain: Type.String(),
      firstSeen: Time,
      heuristicSignals: Type.Array(Type.String()),
    }),
  ),
});

// ---------- catalog (dashboard) ----------

export const CatalogEntryView = Type.Object({
  id: Type.String({ description: 'the shipped entry id, or cat_… for an entry of the organization' }),
  name: Type.String(),
  domains: Type.Array(Type.String()),
  category: Type.String({ description: CATALOG_CATEGORIES.join(', ') }),
  dataResidency: Type.String({ description: 'country or region code, or Multi' }),
  gdprStatus: Type.String({ description: GDPR_STATUSES.join(', ') }),
  status: Type.String({ description: 'the organization status: approved, review, blocked' }),
  source: Type.String({ description: 'catalog (shipped) or organization (own entry)' }),
  overridden: Type.Boolean({ description: 'the organization changed the shipped status' }),
});

export const CatalogQuery = Type.Object(
  {
    category: Type.Optional(oneOf(CATALOG_CATEGORIES)),
    status: Type.Optional(oneOf(CATALOG_STATUSES)),
    search: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  strict,
);
export type CatalogQuery = Static<typeof CatalogQuery>;

export const CatalogView = Type.Object({
  version: Type.String({ description: 'version of the shipped catalog (also in the endpoint config)' }),
  released: Type.String(),
  entries: Type.Array(CatalogEntryView),
  total: Type.Integer(),
});

const Residency = Type.String({ pattern: '^([A-Z]{2}|EU|Multi)$', description: 'XX, EU or Multi' });

export const OwnEntryBody = Type.Object(
  {
    name: nameText(200),
    domains: Type.Array(Host, { minItems: 1, maxItems: 50, uniqueItems: true }),
    category: oneOf(CATALOG_CATEGORIES),
    dataResidency: Type.Optional(Residency),
    gdprStatus: Type.Optional(oneOf(GDPR_STATUSES)),
    status: Type.Optional(oneOf(CATALOG_STATUSES)),
  },
  strict,
);
export type OwnEntryBody = Static<typeof OwnEntryBody>;

export const CatalogStatusBody = Type.Object({ status: oneOf(CATALOG_STATUSES) }, strict);
