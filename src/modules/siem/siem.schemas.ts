import { Type } from 'typebox';
import { mapOf, nameText } from '../../platform/http/index.js';

/**
 * Create bodies of SIEM integrations (POST /api/saas/siem/integrations), one shape per platform in the spec.
 * SPLUNK, ELASTIC, DATADOG and SYSLOG name the platform in `platform`; PRELUDE, WAZUH and OPENSEARCH in `type`
 * (the reseller shapes, with credentials and endpoint). WEBHOOK (custom JSON target) and the SYSLOG TLS CA
 * are our additions where the spec says "not shown". Secrets (tokens, keys, passwords, tlsKey) must be sealed
 * at rest and never returned; see SIEM_SECRET_PATHS.
 */

// The shape only: what a URL may point at is the outbound policy's call (siem-targets.ts), whose 400 names
// the field; a pattern here would fail the whole union with a message about another platform.
const Url = (description: string) => Type.String({ minLength: 1, maxLength: 2048, description });

export const SiemEventTypeEntrySchema = Type.String({
  minLength: 1,
  maxLength: 100,
  description:
    'a category (DETECTION, DLP, AUTHENTICATION, AUDIT), an event type (dlp.blocked) or a prefix of one (dlp.*); unknown entries are refused with 400',
});

export const SiemSeveritySchema = Type.Union(
  [Type.Literal('LOW'), Type.Literal('MEDIUM'), Type.Literal('HIGH'), Type.Literal('CRITICAL')],
  { description: 'events below this severity are not forwarded' },
);

const common = {
  name: nameText(200),
  enabled: Type.Optional(Type.Boolean({ default: true })),
  // Empty would forward nothing without saying so. Omitted: every category (these shapes; the reseller
  // shapes have none and forward DETECTION and DLP by their flags); the integration shows what applies.
  eventTypes: Type.Optional(
    Type.Array(SiemEventTypeEntrySchema, { uniqueItems: true, minItems: 1, maxItems: 50 }),
  ),
  minSeverity: Type.Optional(SiemSeveritySchema),
};

export const SplunkConfigSchema = Type.Object({
  hecUrl: Url('HTTP Event Collector base URL or /services/collector/event URL'),
  hecToken: Type.String({ minLength: 1, maxLength: 512, description: 'HEC token (secret)' }),
  index: Type.Optional(Type.String({ maxLength: 255 })),
  source: Type.Optional(Type.String({ maxLength: 255 })),
  sourcetype: Type.Optional(Type.String({ maxLength: 255 })),
});

export const ElasticCloudConfigSchema = Type.Object({
  cloudId: Type.String({ minLength: 3, maxLength: 1024 }),
  apiKey: Type.String({ minLength: 1, maxLength: 1024, description: 'encoded API key (secret)' }),
  index: Type.Optional(
    Type.String({ maxLength: 255, description: 'may contain a date pattern such as {yyyy.MM}' }),
  ),
  pipeline: Type.Optional(Type.String({ maxLength: 255 })),
});

export const ElasticDirectConfigSchema = Type.Object({
  url: Url('cluster URL'),
  username: Type.String({ minLength: 1, maxLength: 255 }),
  password: Type.String({ minLength: 1, maxLength: 1024, description: 'secret' }),
  index: Type.Optional(
    Type.String({ maxLength: 255, description: 'may contain a date pattern such as {yyyy.MM}' }),
  ),
  pipeline: Type.Optional(Type.String({ maxLength: 255 })),
});

export const DatadogConfigSchema = Type.Object({
  apiKey: Type.String({ minLength: 1, maxLength: 256, description: 'secret' }),
  site: Type.Optional(
    Type.String({
      pattern: '^[a-z0-9.-]+$',
      maxLength: 64,
      description: 'datadoghq.com, datadoghq.eu, us3.datadoghq.com…',
    }),
  ),
  service: Type.Optional(Type.String({ maxLength: 100 })),
  env: Type.Optional(Type.String({ maxLength: 100 })),
  tags: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 50 })),
});

export const SyslogFacilitySchema = Type.Union(
  [
    'KERN',
    'USER',
    'MAIL',
    'DAEMON',
    'AUTH',
    'SYSLOG',
    'LPR',
    'NEWS',
    'UUCP',
    'CRON',
    'AUTHPRIV',
    'FTP',
    'NTP',
    'SECURITY',
    'CONSOLE',
    'SOLARIS_CRON',
    'LOCAL0',
    'LOCAL1',
    'LOCAL2',
    'LOCAL3',
    'LOCAL4',
    'LOCAL5',
    'LOCAL6',
    'LOCAL7',
  ].map((f) => Type.Literal(f)),
);

export const SyslogConfigSchema = Type.Object({
  host: Type.String({ minLength: 1, maxLength: 255 }),
  port: Type.Integer({ minimum: 1, maximum: 65535 }),
  protocol: Type.Union([Type.Literal('TCP'), Type.Literal('UDP'), Type.Literal('TLS')]),
  facility: Type.Optional(SyslogFacilitySchema),
  format: Type.Optional(Type.Union([Type.Literal('RFC5424'), Type.Literal('RFC3164'), Type.Literal('CEF')])),
  appName: Type.Optional(Type.String({ maxLength: 48, pattern: '^[\\x21-\\x7e]+$' })),
  tlsCert: Type.Optional(
    Type.String({ maxLength: 20000, description: 'PEM client certificate for mutual TLS' }),
  ),
  tlsKey: Type.Optional(Type.String({ maxLength: 20000, description: 'PEM client key (secret)' })),
  tlsCa: Type.Optional(
    Type.String({ maxLength: 20000, description: 'PEM CA of the receiver, when privately issued' }),
  ),
});

export const SiemWebhookConfigSchema = Type.Object({
  url: Url('HTTPS endpoint that receives {"events":[…]}'),
  secret: Type.Optional(
    Type.String({ minLength: 16, maxLength: 256, description: 'signs X-Service-Signature (secret)' }),
  ),
  headers: Type.Optional(mapOf({ minLength: 1, maxLength: 100 }, Type.String({ maxLength: 2000 }))),
  batchSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});

export const SplunkIntegrationSchema = Type.Object({
  ...common,
  platform: Type.Literal('SPLUNK'),
  config: SplunkConfigSchema,
});
export const ElasticIntegrationSchema = Type.Object({
  ...common,
  platform: Type.Literal('ELASTIC'),
  config: Type.Union([ElasticCloudConfigSchema, ElasticDirectConfigSchema]),
});
export const DatadogIntegrationSchema = Type.Object({
  ...common,
  platform: Type.Literal('DATADOG'),
  config: DatadogConfigSchema,
});
export const SyslogIntegrationSchema = Type.Object({
  ...common,
  platform: Type.Literal('SYSLOG'),
  config: SyslogConfigSchema,
});
export const SiemWebhookIntegrationSchema = Type.Object({
  ...common,
  platform: Type.Literal('WEBHOOK'),
  config: SiemWebhookConfigSchema,
});

const reseller = {
  ...common,
  config: Type.Optional(Type.Object({})),
  forwardDetections: Type.Optional(Type.Boolean({ default: true })),
  forwardDlp: Type.Optional(Type.Boolean({ default: true })),
};

export const PreludeIntegrationSchema = Type.Object({
  ...reseller,
  type: Type.Literal('PRELUDE'),
  endpoint: Type.String({
    minLength: 1,
    maxLength: 2048,
    description: 'https:// IDMEF XML collector, or prelude://manager:4690 for native libprelude delivery',
  }),
  credentials: Type.Object({
    apiKey: Type.Optional(
      Type.String({ maxLength: 512, description: 'bearer key for https:// collectors (secret)' }),
    ),
    agentId: Type.Optional(
      Type.String({ maxLength: 255, description: 'sensor profile for prelude:// endpoints' }),
    ),
    analyzerId: Type.Optional(Type.String({ maxLength: 255 })),
  }),
});

export const WazuhIntegrationSchema = Type.Object({
  ...reseller,
  type: Type.Literal('WAZUH'),
  endpoint: Url('Wazuh indexer URL (Elasticsearch-compatible API)'),
  credentials: Type.Object({
    username: Type.String({ minLength: 1, maxLength: 255 }),
    password: Type.String({ minLength: 1, maxLength: 1024, description: 'secret' }),
    agentId: Type.Optional(Type.String({ maxLength: 64 })),
    index: Type.Optional(Type.String({ maxLength: 255 })),
  }),
});

export const OpenSearchIntegrationSchema = Type.Object({
  ...reseller,
  type: Type.Literal('OPENSEARCH'),
  endpoint: Url('OpenSearch cluster URL'),
  credentials: Type.Object({
    username: Type.String({ minLength: 1, maxLength: 255 }),
    password: Type.String({ minLength: 1, maxLength: 1024, description: 'secret' }),
    index: Type.Optional(Type.String({ maxLength: 255 })),
  }),
});

export const SiemIntegrationCreateSchema = Type.Union([
  SplunkIntegrationSchema,
  ElasticIntegrationSchema,
  DatadogIntegrationSchema,
  SyslogIntegrationSchema,
  SiemWebhookIntegrationSchema,
  PreludeIntegrationSchema,
  WazuhIntegrationSchema,
  OpenSearchIntegrationSchema,
]);

/** Dotted paths of secret values in the create bodies: seal them at rest and never echo them back. */
export const SIEM_SECRET_PATHS: readonly string[] = [
  'config.hecToken',
  'config.apiKey',
  'config.password',
  'config.tlsKey',
  'config.secret',
  'config.headers',
  'credentials.apiKey',
  'credentials.password',
];
