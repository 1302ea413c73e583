import { randomBytes } from 'node:crypto';
import { newDevice } from './endpoint-cases.js';
import type { Tenant, TestServer } from './harness.js';
import { addRouteCases } from './route-cases.js';

const READ = ['owner', 'admin', 'member', 'viewer'];
const MANAGE = ['owner', 'admin'];

export const detection = (domain: string, signals: string[] = [], count = 1, at = new Date()) => ({
  domain,
  signals,
  count,
  firstSeen: new Date(at.getTime() - 60_000).toISOString(),
  lastSeen: at.toISOString(),
});

/** A service of the tenant found by the heuristics, created through the service as a device report would. */
export async function newService(t: TestServer, tenant: Tenant, domain?: string) {
  const device = await newDevice(t, tenant);
  const host = domain ?? `ai-${randomBytes(5).toString('hex')}.example`;
  await t.ctx.shadowAi.report(tenant.org, device.deviceId, {
    reportId: `r-${randomBytes(6).toString('hex')}`,
    detections: [detection(host, ['ai_headers', 'streaming_response'], 2) as never],
  });
  const list = await t.ctx.shadowAi.list(tenant.org, { search: host });
  const svc = list.services.find((s) => s.domain === host);
  if (!svc) throw new Error(`service ${host} not created`);
  return svc;
}

async function ownEntry(t: TestServer, tenant: Tenant) {
  return t.ctx.shadowAi.createEntry(
    tenant.org,
    {
      name: 'Internal LLM',
      domains: [`llm-${randomBytes(4).toString('hex')}.corp.example`],
      category: 'LLM Chat',
    },
    { userId: null },
  );
}

addRouteCases(
  {
    method: 'POST',
    route: '/api/v1/endpoint/shadow-ai/report',
    auth: 'endpoint',
    allowed: ['device'],
    happy: async () => ({
      path: '/api/v1/endpoint/shadow-ai/report',
      body: {
        reportId: `r-${randomBytes(6).toString('hex')}`,
        detections: [detection('chatgpt.com', [], 3), detection('new-ai.example', ['chat_pattern'])],
      },
    }),
    happyStatus: 200,
    bad: async () => ({
      path: '/api/v1/endpoint/shadow-ai/report',
      body: { reportId: 'r-bad', detections: [{ ...detection('chatgpt.com'), signals: ['telepathy'] }] },
    }),
  },
  {
    method: 'GET',
    route: '/api/dashboard/shadow-ai/services',
    auth: 'session',
    allowed: READ,
    happy: async () => ({ path: '/api/dashboard/shadow-ai/services?status=discovered&perPage=5' }),
    happyStatus: 200,
    bad: async () => ({ path: '/api/dashboard/shadow-ai/services?risk=extreme' }),
  },
  {
    method: 'PATCH',
    route: '/api/dashboard/shadow-ai/services/:id',
    auth: 'session',
    allowed: MANAGE,
    happy: async (t, tenant) => ({
      path: `/api/dashboard/shadow-ai/services/${(await newService(t, tenant)).id}`,
      body: { status: 'blocked' },
    }),
    happyStatus: 200,
    bad: async (t, tenant) => ({
      path: `/api/dashboard/shadow-ai/services/${(await newService(t, tenant)).id}`,
      body: { status: 'discovered' },
    }),
    foreign: async (t, owner) => ({
      path: `/api/dashboard/shadow-ai/services/${(await newService(t, owner)).id}`,
      body: { status: 'approved' },
    }),
  },
  {
    method: 'GET',
    route: '/api/dashboard/shadow-ai/stats',
    auth: 'session',
    allowed: READ,
    happy: async () => ({ path: '/api/dashboard/shadow-ai/stats?days=7' }),
    happyStatus: 200,
    bad: async () => ({ path: '/api/dashboard/shadow-ai/stats?days=0' }),
  },
  {
    method: 'GET',
    route: '/api/dashboard/shadow-ai/catalog',
    auth: 'session',
    allowed: READ,
    happy: async () => ({ path: '/api/dashboard/shadow-ai/catalog?category=LLM%20Chat' }),
    happyStatus: 200,
    bad: async () => ({ path: '/api/dashboard/shadow-ai/catalog?category=Telepathy' }),
  },
  {
    method: 'POST',
    route: '/api/dashboard/shadow-ai/catalog',
    auth: 'session',
    allowed: MANAGE,
    happy: async () => ({
      path: '/api/dashboard/shadow-ai/catalog',
      body: {
        name: 'Team assistant',
        domains: [`assistant-${randomBytes(4).toString('hex')}.corp.example`],
        category: 'Enterprise',
        dataResidency: 'EU',
        gdprStatus: 'eu',
        status: 'approved',
      },
    }),
    happyStatus: 201,
    bad: async () => ({
      path: '/api/dashboard/shadow-ai/catalog',
      body: { name: 'x', domains: ['not a host'], category: 'LLM Chat' },
    }),
  },
  {
    method: 'PATCH',
    route: '/api/dashboard/shadow-ai/catalog/:id',
    auth: 'session',
    allowed: MANAGE,
    happy: async () => ({ path: '/api/dashboard/shadow-ai/catalog/deepseek', body: { status: 'blocked' } }),
    happyStatus: 200,
    bad: async () => ({ path: '/api/dashboard/shadow-ai/catalog/deepseek', body: { status: 'maybe' } }),
    foreign: async (t, owner) => ({
      path: `/api/dashboard/shadow-ai/catalog/${(await ownEntry(t, owner)).id}`,
      body: { status: 'blocked' },
    }),
  },
  {
    method: 'DELETE',
    route: '/api/dashboard/shadow-ai/catalog/:id',
    auth: 'session',
    allowed: MANAGE,
    happy: async (t, tenant) => ({
      path: `/api/dashboard/shadow-ai/catalog/${(await ownEntry(t, tenant)).id}`,
    }),
    happyStatus: 200,
    foreign: async (t, owner) => ({
      path: `/api/dashboard/shadow-ai/catalog/${(await ownEntry(t, owner)).id}`,
    }),
  },
);
