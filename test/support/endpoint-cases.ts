import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Tenant, TestServer } from './harness.js';
import { addRouteCases } from './route-cases.js';

/** A freshly registered device of the tenant (a new one each call, so rotating or revoking it harms no other test). */
export async function newDevice(t: TestServer, tenant: Tenant, name = 'laptop') {
  return t.ctx.endpoint.devices.register(tenant.org, { name }, 'key_test');
}

/** A device registered over HTTP with the tenant's al key (the extension's first call); asserts the 201. */
export async function registerOverHttp(t: TestServer, tenant: Tenant, body: Record<string, unknown> = {}) {
  const res = await t.request('POST', '/api/v1/endpoint/register', {
    key: tenant.al,
    body: { name: 'Laptop', os: 'macOS 15', browser: 'Chrome 141', extensionVersion: '1.4.0', ...body },
  });
  assert.equal(res.status, 201, res.text);
  return res.body as { deviceId: string; deviceToken: string; configVersion: number };
}

export async function newUser(t: TestServer, tenant: Tenant) {
  const email = `member.${randomBytes(5).toString('hex')}@example.test`;
  return (await t.ctx.orgs.createUser({ org: tenant.org, email, role: 'member' })).user;
}

const actor = { userId: null, apiKeyId: null, deviceId: null };

export const validPolicy = (name = 'Block unapproved AI') => ({
  name,
  scope: { type: 'organization', targets: [] },
  rules: {
    aiServices: {
      mode: 'blocklist',
      blocked: [{ domain: '*.chat.example', except: ['docs.chat.example'] }],
    },
    dataProtection: {
      blockCopyPaste: { enabled: true, patterns: ['CREDIT_CARD', 'API_KEY'] },
      warnBeforeSubmit: { enabled: true, threshold: 60 },
      preventScreenshot: false,
    },
    logging: { logAllInteractions: false, logBlockedAttempts: true, retentionDays: 30 },
  },
  enforcement: 'block',
  enabled: true,
});

export const validDns = () => ({
  enabled: true,
  mode: 'blocklist',
  blockedDomains: ['chat.example', '*.assistant.example'],
  allowedDomains: ['docs.chat.example'],
  blockPage: { enabled: true, message: 'AI services are filtered here.', contactEmail: 'it@example.test' },
  integration: { type: 'dns_forwarder', forwarders: ['127.0.0.1:53'] },
});

const policyOf = async (t: TestServer, tenant: Tenant) =>
  t.ctx.endpoint.admin.createPolicy(tenant.org, validPolicy() as never, actor);

const groupOf = async (t: TestServer, tenant: Tenant) =>
  t.ctx.endpoint.admin.createGroup(tenant.org, { name: `Group ${randomBytes(3).toString('hex')}` }, actor);

const SESSION_READ = ['owner', 'admin', 'member', 'viewer'];
const MANAGE = ['owner', 'admin'];
const licenseOf = async (t: TestServer, tenant: Tenant) =>
  t.ctx.licensing.issue({
    orgId: tenant.org.id,
    plan: 'business',
    seats: 1000,
    products: ['endpoint'],
    expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
  });

addRouteCases(
  {
    method: 'POST',
    route: '/api/v1/endpoint/register',
    auth: 'endpoint',
    allowed: ['al', 'sw'],
    happy: async () => ({
      path: '/api/v1/endpoint/register',
      body: { name: 'Finance laptop 7', os: 'Windows 11', browser: 'Edge 140', extensionVersion: '1.4.0' },
    }),
    happyStatus: 201,
    bad: async () => ({ path: '/api/v1/endpoint/register', body: { name: '', extra: true } }),
  },
  {
    method: 'POST',
    route: '/api/v1/endpoint/bind-user',
    auth: 'endpoint',
    allowed: ['device', 'al', 'sw'],
    happy: async (t, tenant) => ({
      path: '/api/v1/endpoint/bind-user',
      body: { email: (await newUser(t, tenant)).email },
    }),
    happyStatus: 200,
    bad: async () => ({ path: '/api/v1/endpoint/bind-user', body: { email: 'not-an-email' } }),
    foreign: async (t, owner) => ({
      path: '/api/v1/endpoint/bind-user',
      body: { deviceId: (await newDevice(t, owner)).deviceId, userId: 'usr_x' },
    }),
  },
  {
    method: 'POST',
    route: '/api/v1/endpoint/heartbeat',
    auth: 'endpoint',
    allowed: ['device'],
    happy: async () => ({
      path: '/api/v1/endpoint/heartbeat',
      body: {
        extensionVersion: '1.4.0',
        stats: { interactions: { 'chat.example': 3 }, blocked: { unapproved_service: 1 } },
      },
    }),
    happyStatus: 200,
    bad: async () => ({
      path: '/api/v1/endpoint/heartbeat',
      body: { stats: { interactions: { 'chat.example': -1 } } },
    }),
  },
  {
    method: 'GET',
    route: '/api/v1/endpoint/config',
    auth: 'endpoint',
    allowed: ['device'],
    happy: async () => ({ path: '/api/v1/endpoint/config' }),
    happyStatus: 200,
  },
  {
    method: 'POST',
    route: '/api/v1/endpoint/alert',
    auth: 'endpoint',
    allowed: ['device'],
    happy: async () => ({
      path: '/api/v1/endpoint/alert',
      body: {
        id: `a-${randomBytes(6).toString('hex')}`,
        type: 'CREDIT_CARD',
        dlpDomain: 'FINANCIAL',
        domain: 'chat.example',
        action: 'blocked',
        findingsCount: 1,
        redactedPreview: 'my card is [CARD_1], please book',
      },
    }),
    happyStatus: 201,
    bad: async () => ({
      path: '/api/v1/endpoint/alert',
      body: {
        // (a raw card number in the preview is blanked and the alert kept: test/api/endpoint-pii.test.ts)
        id: 'a-bad',
        type: 'CREDIT_CARD',
        domain: 'chat.example',
        action: 'exploded',
        findingsCount: 1,
        redactedPreview: 'my card is [CARD_1]',
      },
    }),
  },
  {
    method: 'POST',
    route: '/api/v1/endpoint/log',
    auth: 'endpoint',
    allowed: ['device'],
    happy: async () => ({
      path: '/api/v1/endpoint/log',
      body: {
        entries: [
          {
            id: `l-${randomBytes(6).toString('hex')}`,
            kind: 'interaction',
            domain: 'chat.example',
            occurredAt: new Date().toISOString(),
          },
        ],
      },
    }),
    happyStatus: 200,
    bad: async () => ({ path: '/api/v1/endpoint/log', body: { entries: [] } }),
  },
  {
    method: 'POST',
    route: '/api/v1/endpoint/token/rotate',
    auth: 'endpoint',
    allowed: ['device'],
    happy: async () => ({ path: '/api/v1/endpoint/token/rotate' }),
    happyStatus: 200,
  },
  {
    method: 'POST',
    route: '/api/v1/endpoint/unenroll',
    auth: 'endpoint',
    allowed: ['device'],
    happy: async () => ({ path: '/api/v1/endpoint/unenroll', body: { reason: 'user' } }),
    happyStatus: 200,
    bad: async () => ({ path: '/api/v1/endpoint/unenroll', body: { reason: 'bored' } }),
  },
  {
    method: 'POST',
    route: '/api/v1/endpoint/license/validate',
    auth: 'endpoint',
    allowed: ['device', 'al', 'sw'],
    happy: async (t, tenant) => ({
      path: '/api/v1/endpoint/license/validate',
      body: { licenseKey: (await licenseOf(t, tenant)).key },
    }),
    happyStatus: 200,
    bad: async () => ({ path: '/api/v1/endpoint/license/validate', body: { licenseKey: '' } }),
    foreign: async (t, owner) => ({
      path: '/api/v1/endpoint/license/validate',
      body: { licenseKey: (await licenseOf(t, owner)).key },
    }),
  },
  {
    method: 'GET',
    route: '/api/v1/license/status',
    auth: 'endpoint',
    allowed: ['device', 'al', 'sw'],
    happy: async () => ({ path: '/api/v1/license/status' }),
    happyStatus: 200,
  },
  {
    method: 'GET',
    route: '/api/dashboard/endpoint',
    auth: 'session',
    allowed: SESSION_READ,
    happy: async () => ({ path: '/api/dashboard/endpoint?status=active&perPage=10' }),
    happyStatus: 200,
    bad: async () => ({ path: '/api/dashboard/endpoint?status=sleeping' }),
  },
  {
    method: 'DELETE',
    route: '/api/dashboard/endpoint/devices/:id',
    auth: 'session',
    allowed: MANAGE,
    happy: async (t, tenant) => ({
      path: `/api/dashboard/endpoint/devices/${(await newDevice(t, tenant)).deviceId}`,
    }),
    happyStatus: 200,
    foreign: async (t, owner) => ({
      path: `/api/dashboard/endpoint/devices/${(await newDevice(t, owner)).deviceId}`,
    }),
  },
  {
    method: 'GET',
    route: '/api/dashboard/endpoint/policies',
    auth: 'session',
    allowed: SESSION_READ,
    happy: async () => ({ path: '/api/dashboard/endpoint/policies' }),
    happyStatus: 200,
  },
  {
    method: 'POST',
    route: '/api/dashboard/endpoint/policies',
    auth: 'session',
    allowed: MANAGE,
    happy: async () => ({ path: '/api/dashboard/endpoint/policies', body: validPolicy() }),
    happyStatus: 201,
    bad: async () => ({
      path: '/api/dashboard/endpoint/policies',
      body: {
        ...validPolicy(),
        rules: { dataProtection: { warnBeforeSubmit: { enabled: true, threshold: 101 } } },
      },
    }),
  },
  {
    method: 'POST',
    route: '/api/saas/endpoint/policies',
    auth: 'session',
    allowed: MANAGE,
    happy: async () => ({ path: '/api/saas/endpoint/policies', body: validPolicy('By API') }),
    happyStatus: 201,
    bad: async () => ({
      path: '/api/saas/endpoint/policies',
      body: {
        ...validPolicy(),
        rules: { aiServices: { mode: 'blocklist', blocked: [{ domain: 'chat.*.example' }] } },
      },
    }),
  },
  // Policies are listed, changed and deleted under both prefixes (/api/saas/ also by an admin key).
  ...(['/api/dashboard/endpoint', '/api/saas/endpoint'] as const).flatMap((prefix) => [
    ...(prefix === '/api/saas/endpoint'
      ? [
          {
            method: 'GET',
            route: `${prefix}/policies`,
            auth: 'session',
            allowed: SESSION_READ,
            happy: async () => ({ path: `${prefix}/policies` }),
            happyStatus: 200,
          } as const,
        ]
      : []),
    {
      method: 'PATCH',
      route: `${prefix}/policies`,
      auth: 'session',
      allowed: MANAGE,
      happy: async (t: TestServer, tenant: Tenant) => ({
        path: `${prefix}/policies`,
        body: { id: (await policyOf(t, tenant)).id, enforcement: 'warn' },
      }),
      happyStatus: 200,
      bad: async (t: TestServer, tenant: Tenant) => ({
        path: `${prefix}/policies`,
        body: { id: (await policyOf(t, tenant)).id, enforcement: 'shout' },
      }),
      foreign: async (t: TestServer, owner: Tenant) => ({
        path: `${prefix}/policies`,
        body: { id: (await policyOf(t, owner)).id, enforcement: 'log' },
      }),
    } as const,
    {
      method: 'PATCH',
      route: `${prefix}/policies/:id`,
      auth: 'session',
      allowed: MANAGE,
      happy: async (t: TestServer, tenant: Tenant) => ({
        path: `${prefix}/policies/${(await policyOf(t, tenant)).id}`,
        body: { enforcement: 'warn' },
      }),
      happyStatus: 200,
      bad: async (t: TestServer, tenant: Tenant) => ({
        path: `${prefix}/policies/${(await policyOf(t, tenant)).id}`,
        body: { scope: { type: 'group', targets: ['grp_does_not_exist'] } },
      }),
      foreign: async (t: TestServer, owner: Tenant) => ({
        path: `${prefix}/policies/${(await policyOf(t, owner)).id}`,
        body: { enforcement: 'log' },
      }),
    } as const,
    {
      method: 'DELETE',
      route: `${prefix}/policies/:id`,
      auth: 'session',
      allowed: MANAGE,
      happy: async (t: TestServer, tenant: Tenant) => ({
        path: `${prefix}/policies/${(await policyOf(t, tenant)).id}`,
      }),
      happyStatus: 200,
      foreign: async (t: TestServer, owner: Tenant) => ({
        path: `${prefix}/policies/${(await policyOf(t, owner)).id}`,
      }),
    } as const,
  ]),
  {
    method: 'GET',
    route: '/api/dashboard/endpoint/enrollment',
    auth: 'session',
    allowed: SESSION_READ,
    happy: async () => ({ path: '/api/dashboard/endpoint/enrollment' }),
    happyStatus: 200,
  },
  {
    method: 'POST',
    route: '/api/dashboard/endpoint/enrollment',
    auth: 'session',
    allowed: MANAGE,
    happy: async () => ({
      path: '/api/dashboard/endpoint/enrollment',
      body: { name: 'Sales', maxUses: 5, expiresInHours: 24 },
    }),
    happyStatus: 201,
    bad: async () => ({ path: '/api/dashboard/endpoint/enrollment', body: { maxUses: 0 } }),
  },
  {
    method: 'DELETE',
    route: '/api/dashboard/endpoint/enrollment/:id',
    auth: 'session',
    allowed: MANAGE,
    happy: async (t, tenant) => ({
      path: `/api/dashboard/endpoint/enrollment/${(await t.ctx.endpoint.devices.createLink(tenant.org, {}, actor)).link.id}`,
    }),
    happyStatus: 200,
    foreign: async (t, owner) => ({
      path: `/api/dashboard/endpoint/enrollment/${(await t.ctx.endpoint.devices.createLink(owner.org, {}, actor)).link.id}`,
    }),
  },
  {
    method: 'GET',
    route: '/api/dashboard/endpoint/settings',
    auth: 'session',
    allowed: SESSION_READ,
    happy: async () => ({ path: '/api/dashboard/endpoint/settings' }),
    happyStatus: 200,
  },
  {
    method: 'POST',
    route: '/api/dashboard/endpoint/settings',
    auth: 'session',
    allowed: MANAGE,
    happy: async () => ({
      path: '/api/dashboard/endpoint/settings',
      body: { heartbeatIntervalSeconds: 120 },
    }),
    happyStatus: 200,
    bad: async () => ({ path: '/api/dashboard/endpoint/settings', body: { heartbeatIntervalSeconds: 1 } }),
  },
  {
    method: 'GET',
    route: '/api/dashboard/endpoint/groups',
    auth: 'session',
    allowed: SESSION_READ,
    happy: async () => ({ path: '/api/dashboard/endpoint/groups' }),
    happyStatus: 200,
  },
  {
    method: 'POST',
    route: '/api/dashboard/endpoint/groups',
    auth: 'session',
    allowed: MANAGE,
    happy: async (t, tenant) => ({
      path: '/api/dashboard/endpoint/groups',
      body: { name: 'Finance', userIds: [(await newUser(t, tenant)).id] },
    }),
    happyStatus: 201,
    bad: async () => ({
      path: '/api/dashboard/endpoint/groups',
      body: { name: 'Finance', userIds: ['usr_nobody'] },
    }),
  },
  {
    method: 'PATCH',
    route: '/api/dashboard/endpoint/groups/:id',
    auth: 'session',
    allowed: MANAGE,
    happy: async (t, tenant) => ({
      path: `/api/dashboard/endpoint/groups/${(await groupOf(t, tenant)).id}`,
      body: { name: 'Finance (EU)', userIds: [(await newUser(t, tenant)).id] },
    }),
    happyStatus: 200,
    bad: async (t, tenant) => ({
      path: `/api/dashboard/endpoint/groups/${(await groupOf(t, tenant)).id}`,
      body: { userIds: ['usr_nobody'] },
    }),
    foreign: async (t, owner) => ({
      path: `/api/dashboard/endpoint/groups/${(await groupOf(t, owner)).id}`,
      body: { name: 'Mine now' },
    }),
  },
  {
    method: 'DELETE',
    route: '/api/dashboard/endpoint/groups/:id',
    auth: 'session',
    allowed: MANAGE,
    happy: async (t, tenant) => ({ path: `/api/dashboard/endpoint/groups/${(await groupOf(t, tenant)).id}` }),
    happyStatus: 200,
    foreign: async (t, owner) => ({ path: `/api/dashboard/endpoint/groups/${(await groupOf(t, owner)).id}` }),
  },
  {
    method: 'GET',
    route: '/api/saas/endpoint/dns-config',
    auth: 'session',
    allowed: SESSION_READ,
    happy: async (t, tenant) => {
      await t.ctx.endpoint.admin.setDnsConfig(tenant.org, validDns() as never, actor);
      return { path: '/api/saas/endpoint/dns-config' };
    },
    happyStatus: 200,
  },
  {
    method: 'POST',
    route: '/api/saas/endpoint/dns-config',
    auth: 'session',
    allowed: MANAGE,
    happy: async () => ({ path: '/api/saas/endpoint/dns-config', body: validDns() }),
    happyStatus: 200,
    bad: async () => ({ path: '/api/saas/endpoint/dns-config', body: { ...validDns(), mode: 'everything' } }),
  },
  {
    method: 'GET',
    route: '/api/saas/endpoint/dns-config/export',
    auth: 'session',
    allowed: SESSION_READ,
    happy: async (t, tenant) => {
      await t.ctx.endpoint.admin.setDnsConfig(tenant.org, validDns() as never, actor);
      return { path: '/api/saas/endpoint/dns-config/export?format=rpz' };
    },
    happyStatus: 200,
    bad: async () => ({ path: '/api/saas/endpoint/dns-config/export?format=zip' }),
  },
  {
    method: 'GET',
    route: '/api/saas/endpoint/stats',
    auth: 'session',
    allowed: SESSION_READ,
    happy: async () => ({ path: '/api/saas/endpoint/stats?period=7d' }),
    happyStatus: 200,
    bad: async () => ({ path: '/api/saas/endpoint/stats?period=1y' }),
  },
);
