import { type Static, Type } from 'typebox';
import {
  compilePartsCheck,
  mapOf,
  nameText,
  type RejectedPart,
  oneOf,
  RejectedPartSchema,
  SITE_HOST_PATTERN,
  SITE_HOST_RULE_PATTERN,
} from '../../platform/http/index.js';

/**
 * Names of the DNS configuration as typed by admins: dotted host names, an optional `*.` prefix for "this
 * domain and its subdomains" (a resolver filters names, so addresses have no place here).
 */
const HOST =
  '^(\\*\\.)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z][A-Za-z0-9-]{0,61}[A-Za-z0-9]$';
export const Domain = Type.String({
  pattern: HOST,
  maxLength: 253,
  description: 'host name; *.x.y for x.y and its subdomains',
});
/**
 * A host a policy allows or blocks: the hosts devices see (SITE_HOST_PATTERN), so a policy can name the
 * self-hosted service at `10.0.0.5` or `ollama` that the radar and the alerts report.
 */
export const PolicyDomain = Type.String({
  pattern: SITE_HOST_RULE_PATTERN,
  maxLength: 253,
  description: 'host name (one label allowed), IPv4 address or [IPv6]; *.x.y for x.y and its subdomains',
});
/**
 * Where a device saw something happen, as the browser names the page's host: besides public host names,
 * an intranet AI service reached by a one-label name (`chat`), an IPv4 address or a bracketed IPv6 address.
 * Refusing those lost the alerts and logs of exactly the self-hosted services a security team wants to see.
 */
export const SiteHost = Type.String({
  pattern: SITE_HOST_PATTERN,
  maxLength: 253,
  description: 'host of the page: a host name (one label for intranet names), an IPv4 address or [IPv6]',
});
const Version = Type.String({ minLength: 1, maxLength: 40, pattern: '^[0-9A-Za-z.+_-]+$' });
const Time = Type.String({ format: 'date-time' });
const Id = Type.String({ minLength: 1, maxLength: 100 });

export const ENFORCEMENTS = ['block', 'warn', 'log'] as const;
export const Enforcement = oneOf(ENFORCEMENTS);
/** The closed list of copy-paste patterns the extension's engine knows (SPEC shows the first four). */
export const PASTE_PATTERNS = [
  'CREDIT_CARD',
  'SSN',
  'API_KEY',
  'PASSWORD',
  'IBAN',
  'EMAIL',
  'PHONE',
] as const;
export const DLP_DOMAINS = [
  'PERSONAL',
  'FINANCIAL',
  'CORPORATE',
  'CREDENTIALS',
  'HEALTH',
  'IDENTITY',
] as const;
export const BLOCK_REASONS = ['unapproved_service', 'dlp_violation', 'policy_violation'] as const;
export type BlockReason = (typeof BLOCK_REASONS)[number];
export const MAX_RETENTION_DAYS = 3650;

const strict = { additionalProperties: false } as const;

// ---------- Endpoint policy (the spec's create body) ----------

export const PolicyRules = Type.Object(
  {
    aiServices: Type.Optional(
      Type.Object(
        {
          mode: Type.Union([Type.Literal('allowlist'), Type.Literal('blocklist')]),
          allowed: Type.Optional(
            Type.Array(
              Type.Object(
                {
                  domain: PolicyDomain,
                  name: Type.Optional(nameText(200)),
                  conditions: Type.Optional(
                    Type.Object(
                      {
                        requireDlp: Type.Optional(Type.Boolean()),
                        maxInputLength: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
                        allowedDomains: Type.Optional(Type.Array(oneOf(DLP_DOMAINS), { maxItems: 20 })),
                      },
                      strict,
                    ),
                  ),
                },
                strict,
              ),
              { maxItems: 500 },
            ),
          ),
          blocked: Type.Optional(
            Type.Array(
              Type.Object(
                { domain: PolicyDomain, except: Type.Optional(Type.Array(PolicyDomain, { maxItems: 100 })) },
                strict,
              ),
              { maxItems: 1000 },
            ),
          ),
        },
        strict,
      ),
    ),
    dataProtection: Type.Optional(
      Type.Object(
        {
          blockCopyPaste: Type.Optional(
            Type.Object(
              {
                enabled: Type.Boolean(),
                patterns: Type.Array(oneOf(PASTE_PATTERNS), {
                  maxItems: PASTE_PATTERNS.length,
                }),
              },
              strict,
            ),
          ),
          warnBeforeSubmit: Type.Optional(
            Type.Object(
              { enabled: Type.Boolean(), threshold: Type.Integer({ minimum: 0, maximum: 100 }) },
              strict,
            ),
          ),
          preventScreenshot: Type.Optional(Type.Boolean()),
        },
        strict,
      ),
    ),
    logging: Type.Optional(
      Type.Object(
        {
          logAllInteractions: Type.Optional(Type.Boolean()),
          logBlockedAttempts: Type.Optional(Type.Boolean()),
          retentionDays: Type.Integer({ minimum: 1, maximum: MAX_RETENTION_DAYS }),
        },
        strict,
      ),
    ),
  },
  strict,
);
export type PolicyRules = Static<typeof PolicyRules>;

export const PolicyScope = Type.Object(
  {
    type: Type.Union([Type.Literal('organization'), Type.Literal('group'), Type.Literal('user')]),
    targets: Type.Array(Type.String({ minLength: 1, maxLength: 320 }), { maxItems: 500 }),
  },
  strict,
);
export type PolicyScope = Static<typeof PolicyScope>;

export const PolicyBody = Type.Object(
  {
    name: nameText(200),
    scope: PolicyScope,
    rules: PolicyRules,
    enforcement: Enforcement,
    enabled: Type.Optional(Type.Boolean({ default: true })),
  },
  strict,
);
export type PolicyBody = Static<typeof PolicyBody>;

/**
 * Every field optional and none defaulted: the validator fills in defaults (useDefaults), and the create
 * body's `enabled: true` default made every PATCH that did not name `enabled` enable the policy again.
 */
export const PolicyPatch = Type.Partial(
  Type.Object({ ...PolicyBody.properties, enabled: Type.Boolean() }, strict),
  strict,
);
export type PolicyPatch = Static<typeof PolicyPatch>;
/** The SPEC's `PATCH /api/dashboard/endpoint/policies`: the policy's id in the body with the changes. */
export const PolicyPatchWithId = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 100, description: 'the policy to change (pol_…)' }),
    ...PolicyPatch.properties,
  },
  strict,
);

export const PolicyView = Type.Object({
  id: Type.String({ description: 'prefix pol_' }),
  name: Type.String(),
  scope: Type.Object({ type: Type.String(), targets: Type.Array(Type.String()) }),
  rules: Type.Unknown(),
  enforcement: Type.String(),
  enabled: Type.Boolean(),
  createdAt: Time,
  updatedAt: Time,
});

// ---------- Settings ----------

export const SettingsBody = Type.Object(
  {
    defaultEnforcement: Type.Optional(Enforcement),
    heartbeatIntervalSeconds: Type.Optional(Type.Integer({ minimum: 30, maximum: 3600 })),
    offlineAfterMinutes: Type.Optional(Type.Integer({ minimum: 2, maximum: 10_080 })),
    allowedExtensionVersions: Type.Optional(
      Type.Array(Type.String({ pattern: '^\\d+(\\.(\\d+|\\*)){0,2}$', maxLength: 40 }), { maxItems: 50 }),
    ),
    requireUserBinding: Type.Optional(Type.Boolean()),
    allowUserUnenroll: Type.Optional(
      Type.Boolean({
        description:
          'whether the person at a device may unenroll it (unenroll, reason user); false answers 403. Default true',
      }),
    ),
  },
  strict,
);
export type SettingsBody = Static<typeof SettingsBody>;

export const SettingsView = Type.Object({
  defaultEnforcement: Type.String(),
  heartbeatIntervalSeconds: Type.Integer(),
  offlineAfterMinutes: Type.Integer(),
  allowedExtensionVersions: Type.Array(Type.String()),
  requireUserBinding: Type.Boolean(),
  allowUserUnenroll: Type.Boolean(),
  configVersion: Type.Integer(),
});

// ---------- DNS filtering configuration (the spec's body) ----------

const FORWARDER =
  '^(\\d{1,3}(\\.\\d{1,3}){3}|\\[[0-9A-Fa-f:.]+\\]|[0-9A-Fa-f:]+:[0-9A-Fa-f:.]*)(:\\d{1,5})?$';

export const DnsConfigBody = Type.Object(
  {
    enabled: Type.Boolean(),
    mode: Type.Literal('blocklist'),
    blockedDomains: Type.Array(Domain, { maxItems: 10_000 }),
    allowedDomains: Type.Array(Domain, { maxItems: 10_000 }),
    blockPage: Type.Object(
      {
        enabled: Type.Boolean(),
        // Required (not blank) only while the page is enabled; an empty contactEmail shows no contact line.
        message: Type.Optional(Type.String({ maxLength: 1000 })),
        contactEmail: Type.Optional(
          Type.String({ maxLength: 320, description: 'an e-mail address, or empty for no contact line' }),
        ),
      },
      strict,
    ),
    integration: Type.Object(
      {
        type: Type.Union([Type.Literal('dns_forwarder'), Type.Literal('proxy'), Type.Literal('firewall')]),
        forwarders: Type.Array(Type.String({ pattern: FORWARDER, maxLength: 60 }), { maxItems: 10 }),
      },
      strict,
    ),
  },
  strict,
);
export type DnsConfig = Static<typeof DnsConfigBody>;

export const DnsConfigView = Type.Object({
  enabled: Type.Boolean(),
  mode: Type.String(),
  blockedDomains: Type.Array(Type.String()),
  allowedDomains: Type.Array(Type.String()),
  blockPage: Type.Object({ enabled: Type.Boolean(), message: Type.String(), contactEmail: Type.String() }),
  integration: Type.Object({ type: Type.String(), forwarders: Type.Array(Type.String()) }),
  updatedAt: Type.Union([Time, Type.Null()]),
});

// ---------- Device operations ----------

// The same rule as the device name (no control characters, no bidi overrides): both are shown in the
// device list and in exports next to it.
const DeviceFacts = {
  os: Type.Optional(nameText(100)),
  browser: Type.Optional(nameText(100)),
  extensionVersion: Type.Optional(Version),
};

export const RegisterBody = Type.Object(
  {
    name: nameText(200),
    ...DeviceFacts,
    userId: Type.Optional(Id),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 320 })),
    groupId: Type.Optional(Id),
  },
  strict,
);
export type RegisterBody = Static<typeof RegisterBody>;

export const EnrollBody = Type.Object(
  {
    code: Type.String({ minLength: 10, maxLength: 100 }),
    name: nameText(200),
    ...DeviceFacts,
    previousDeviceToken: Type.Optional(
      Type.String({
        pattern: '^dt_live_[0-9A-Za-z]{43}$',
        description:
          'enrolling again: the token of the enrollment this one replaces; a live device of the same organization is retired in the same transaction (audit replaced), so it needs no free seat',
      }),
    ),
  },
  strict,
);
export type EnrollBody = Static<typeof EnrollBody>;

export const Enrolled = Type.Object({
  deviceId: Type.String({ description: 'prefix dev_' }),
  deviceToken: Type.String({ description: 'dt_live_…; shown once' }),
  organizationId: Type.String(),
  configVersion: Type.Integer(),
  heartbeatIntervalSeconds: Type.Integer(),
  replacedDeviceId: Type.Optional(
    Type.String({ description: 'enroll: the device previousDeviceToken named, retired by this enrollment' }),
  ),
});

export const BindUserBody = Type.Object(
  {
    deviceId: Type.Optional(Id),
    userId: Type.Optional(Id),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 320 })),
  },
  strict,
);
export type BindUserBody = Static<typeof BindUserBody>;

export const UnenrollBody = Type.Object(
  {
    reason: oneOf(['user', 'replaced'] as const, {
      description:
        "user: the person at the device asked to leave the organization's policy; replaced: the device enrolled again and this enrollment is retired",
    }),
    replacedBy: Type.Optional(
      Type.String({
        pattern: '^dev_[A-Za-z0-9]{1,60}$',
        description: 'the new device of the same organization, when reason is replaced',
      }),
    ),
  },
  strict,
);
export type UnenrollBody = Static<typeof UnenrollBody>;

const Count = Type.Integer({ minimum: 0, maximum: 1_000_000 });

export const HeartbeatBody = Type.Object(
  {
    ...DeviceFacts,
    stats: Type.Optional(
      Type.Object(
        {
          interactions: Type.Optional(
            mapOf(
              { pattern: SITE_HOST_PATTERN, maxLength: 253, description: 'host of the page (SiteHost)' },
              Count,
              {
                maxProperties: 500,
              },
            ),
          ),
          blocked: Type.Optional(
            Type.Object(
              {
                unapproved_service: Type.Optional(Count),
                dlp_violation: Type.Optional(Count),
                policy_violation: Type.Optional(Count),
              },
              strict,
            ),
          ),
        },
        strict,
      ),
    ),
  },
  strict,
);
export type HeartbeatBody = Static<typeof HeartbeatBody>;

export const HeartbeatReply = Type.Object({
  configVersion: Type.Integer({ description: 'fetch config again when this differs from the one held' }),
  heartbeatIntervalSeconds: Type.Integer(),
  forceMode: Type.Boolean(),
  updateRequired: Type.Boolean({ description: 'the extension version is not in allowedExtensionVersions' }),
  serverTime: Time,
});

export const ALERT_ACTIONS = ['blocked', 'warned', 'redacted', 'logged'] as const;

/**
 * A type name (EMAIL, an own pattern's name upper-cased: both start with a letter), never a value: no run
 * of four digits, so a card or AVS number cannot ride in a field that is not blanked.
 */
const FindingType = (description: string) =>
  Type.String({ minLength: 1, maxLength: 64, pattern: '^(?!.*[0-9]{4})[A-Z][A-Z0-9_]*$', description });

export const AlertBody = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 100, description: 'client id; a repeated id is stored once' }),
    type: FindingType('the riskiest finding type, e.g. IBAN, or an own pattern name upper-cased'),
    types: Type.Optional(
      Type.Array(FindingType('a finding type'), {
        minItems: 1,
        maxItems: 64,
        uniqueItems: true,
        description: 'every type found, riskiest first (`type` among them); absent from older extensions',
      }),
    ),
    dlpDomain: Type.Optional(oneOf(DLP_DOMAINS)),
    domain: SiteHost,
    action: oneOf(ALERT_ACTIONS),
    severity: Type.Optional(oneOf(['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const)),
    findingsCount: Type.Integer({ minimum: 1, maximum: 10_000 }),
    redactedPreview: Type.String({ maxLength: 500 }),
    occurredAt: Type.Optional(Time),
  },
  strict,
);
export type AlertBody = Static<typeof AlertBody>;

export const MAX_LOG_BATCH = 500;
export const LOG_KINDS = [
  'interaction',
  'blocked',
  'warned',
  'redacted',
  'paste_blocked',
  'override',
] as const;

export const LogEntry = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 100 }),
    kind: oneOf(LOG_KINDS),
    domain: Type.Optional(SiteHost),
    occurredAt: Time,
    detail: Type.Optional(
      mapOf(
        { minLength: 1, maxLength: 64 },
        Type.Union([Type.String({ maxLength: 500 }), Type.Number(), Type.Boolean()]),
        { maxProperties: 20 },
      ),
    ),
  },
  strict,
);
export type LogEntry = Static<typeof LogEntry>;

/** The batch as documented (OpenAPI): every entry a LogEntry. */
export const LogBody = Type.Object(
  { entries: Type.Array(LogEntry, { minItems: 1, maxItems: MAX_LOG_BATCH }) },
  strict,
);

/**
 * The batch as validated with the request: its envelope only. Each entry is checked on its own
 * (`checkLogEntries`), so one bad entry costs only itself and the others are stored.
 */
export const LogEnvelope = Type.Object(
  { entries: Type.Array(Type.Unknown(), { minItems: 1, maxItems: MAX_LOG_BATCH }) },
  strict,
);
export type LogEnvelope = Static<typeof LogEnvelope>;

const checkEntries = compilePartsCheck<LogEntry>(LogEntry, '/entries');

/** The entries of a batch that pass LogEntry, and each refused one with its index and why. */
export function checkLogEntries(entries: readonly unknown[]): {
  valid: LogEntry[];
  rejected: RejectedPart[];
} {
  const { valid, rejected } = checkEntries(entries);
  return { valid: valid.map((v) => v.part), rejected };
}

const LogCounts = {
  received: Type.Integer({ description: 'entries in the batch' }),
  stored: Type.Integer({ description: 'entries stored now' }),
  duplicates: Type.Integer({
    description: 'entries stored before (same client id), or repeated in the batch',
  }),
};
export const LogReply = Type.Object(LogCounts);
export const LogPartialReply = Type.Object({
  ...LogCounts,
  rejected: Type.Array(RejectedPartSchema, {
    description:
      'entries refused (permanently: sending them again gets the same answer); the others were taken',
  }),
});

// ---------- Administration ----------

export const EnrollmentBody = Type.Object(
  {
    name: Type.Optional(nameText(200)),
    maxUses: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
    expiresInHours: Type.Optional(Type.Integer({ minimum: 1, maximum: 24 * 365, default: 72 })),
    groupId: Type.Optional(Id),
    userId: Type.Optional(Id),
  },
  strict,
);
export type EnrollmentBody = Static<typeof EnrollmentBody>;

export const EnrollmentView = Type.Object({
  id: Type.String({ description: 'prefix enr_' }),
  name: Type.String(),
  codePrefix: Type.String(),
  maxUses: Type.Integer(),
  uses: Type.Integer(),
  status: oneOf(['active', 'expired', 'used_up', 'revoked'] as const),
  expiresAt: Time,
  groupId: Type.Union([Type.String(), Type.Null()]),
  userId: Type.Union([Type.String(), Type.Null()]),
  createdAt: Time,
});

export const GroupBody = Type.Object(
  { name: nameText(200), userIds: Type.Optional(Type.Array(Id, { maxItems: 10_000 })) },
  strict,
);
export type GroupBody = Static<typeof GroupBody>;

export const GroupPatch = Type.Object(
  {
    name: Type.Optional(nameText(200)),
    userIds: Type.Optional(
      Type.Array(Id, { maxItems: 10_000, description: 'the new member list; replaces the old one' }),
    ),
  },
  { ...strict, minProperties: 1 },
);
export type GroupPatch = Static<typeof GroupPatch>;

export const GroupView = Type.Object({
  id: Type.String({ description: 'prefix grp_' }),
  name: Type.String(),
  userIds: Type.Array(Type.String()),
  createdAt: Time,
});

export const DeviceView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  os: Type.Union([Type.String(), Type.Null()]),
  browser: Type.Union([Type.String(), Type.Null()]),
  extensionVersion: Type.Union([Type.String(), Type.Null()]),
  userId: Type.Union([Type.String(), Type.Null()]),
  groupId: Type.Union([Type.String(), Type.Null()]),
  status: oneOf(['active', 'offline', 'revoked'] as const),
  createdAt: Time,
  lastSeenAt: Type.Union([Time, Type.Null()]),
});

export const DeviceListQuery = Type.Object(
  {
    status: Type.Optional(oneOf(['active', 'offline', 'revoked'] as const)),
    lastSeenBefore: Type.Optional(Time),
    lastSeenAfter: Type.Optional(Time),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
    perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  },
  strict,
);
export type DeviceListQuery = Static<typeof DeviceListQuery>;

export const PERIODS = { '24h': 24, '7d': 24 * 7, '30d': 24 * 30 } as const;
export type Period = keyof typeof PERIODS;
export const StatsQuery = Type.Object(
  { period: Type.Optional(oneOf(['24h', '7d', '30d'] as const, { default: '24h' })) },
  strict,
);

export const StatsView = Type.Object({
  period: Type.String(),
  endpoints: Type.Object({ total: Type.Integer(), active: Type.Integer(), offline: Type.Integer() }),
  interactions: Type.Object({
    total: Type.Integer(),
    byService: Type.Record(Type.String(), Type.Integer()),
  }),
  blocked: Type.Object({
    total: Type.Integer(),
    byReason: Type.Object({
      unapproved_service: Type.Integer(),
      dlp_violation: Type.Integer(),
      policy_violation: Type.Integer(),
    }),
  }),
  topUsers: Type.Array(
    Type.Object({ userId: Type.String(), interactions: Type.Integer(), blocked: Type.Integer() }),
  ),
});

export const IdParams = Type.Object({ id: Id });
export const ExportQuery = Type.Object(
  {
    format: oneOf(['rpz', 'hosts', 'adguard', 'domains'] as const),
  },
  strict,
);
