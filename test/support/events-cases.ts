import { randomBytes } from 'node:crypto';
import type { Tenant, TestServer } from './harness.js';
import { addRouteCases } from './route-cases.js';

const ALL_ROLES = ['owner', 'admin', 'member', 'viewer'];
const MANAGERS = ['owner', 'admin'];
// Nothing listens on port 9 of loopback: attempts fail fast with connect_failed, which is all these cases need.
const DEAD_URL = 'http://127.0.0.1:9/hook';

async function webhook(t: TestServer, tenant: Tenant): Promise<string> {
  const res = await t.request('POST', '/api/webhooks', {
    cookie: await tenant.session('owner'),
    body: { url: DEAD_URL, events: ['*'] },
  });
  if (res.status !== 201) throw new Error(`webhook create failed: ${res.status} ${res.text}`);
  return res.body.id as string;
}

/** A webhook with one finished (failed) delivery, from the test button. */
async function delivery(t: TestServer, tenant: Tenant): Promise<{ hook: string; del: string }> {
  const hook = await webhook(t, tenant);
  const res = await t.request('POST', `/api/webhooks/${hook}/test`, {
    cookie: await tenant.session('owner'),
    body: { eventType: 'api_key.created' },
  });
  if (res.status !== 200) throw new Error(`webhook test failed: ${res.status} ${res.text}`);
  return { hook, del: res.body.deliveryId as string };
}

/**
 * A webhook with one failed delivery of an event the organization stored (a test send's event is not stored,
 * so it cannot be redelivered): the event published as the service does, its delivery written as the
 * worker leaves one whose retries ran out.
 */
async function storedDelivery(t: TestServer, tenant: Tenant): Promise<{ hook: string; del: string }> {
  const hook = await webhook(t, tenant);
  const db = t.ctx.storage.db;
  const event = await t.ctx.events.publishFor(db, tenant.org.id, 'api_key.created', { keyId: 'key_case' });
  if (!event) throw new Error('api_key.created was not stored');
  const del = `whd_case_${randomBytes(6).toString('hex')}`;
  const at = new Date().toISOString();
  await db
    .insertInto('webhook_deliveries')
    .values({
      id: del,
      org_id: tenant.org.id,
      webhook_id: hook,
      event_id: event.id,
      event_type: 'api_key.created',
      status: 'failed',
      attempts: 6,
      next_attempt_at: null,
      last_attempt_at: at,
      delivered_at: null,
      response_code: null,
      response_time_ms: null,
      error: 'connect_failed',
      is_test: 0,
      created_at: at,
    })
    .execute();
  return { hook, del };
}

const SPLUNK = {
  platform: 'SPLUNK',
  name: 'Splunk',
  eventTypes: ['DETECTION', 'DLP'],
  minSeverity: 'LOW',
  config: { hecUrl: 'http://127.0.0.1:9', hecToken: 'hec-token-route-case', index: 'main' },
};

async function integration(t: TestServer, tenant: Tenant): Promise<string> {
  const res = await t.request('POST', '/api/saas/siem/integrations', {
    cookie: await tenant.session('owner'),
    body: SPLUNK,
  });
  if (res.status !== 201) throw new Error(`integration create failed: ${res.status} ${res.text}`);
  return res.body.id as string;
}

const W = '/api/webhooks';
const S = '/api/saas/siem/integrations';

addRouteCases(
  {
    method: 'POST',
    route: W,
    auth: 'session',
    allowed: MANAGERS,
    happy: async () => ({
      path: W,
      body: { url: 'https://hooks.example.com/in', events: ['detection.created'] },
    }),
    happyStatus: 201,
    bad: async () => ({
      path: W,
      body: { url: 'http://hooks.example.com/in', events: ['detection.created'] },
    }),
  },
  {
    method: 'GET',
    route: W,
    auth: 'session',
    allowed: ALL_ROLES,
    happy: async () => ({ path: W }),
    happyStatus: 200,
  },
  {
    method: 'GET',
    route: `${W}/:id`,
    auth: 'session',
    allowed: ALL_ROLES,
    happy: async (t, tenant) => ({ path: `${W}/${await webhook(t, tenant)}` }),
    happyStatus: 200,
    foreign: async (t, owner) => ({ path: `${W}/${await webhook(t, owner)}` }),
  },
  {
    method: 'PATCH',
    route: `${W}/:id`,
    auth: 'session',
    allowed: MANAGERS,
    happy: async (t, tenant) => ({ path: `${W}/${await webhook(t, tenant)}`, body: { enabled: false } }),
    happyStatus: 200,
    bad: async (t, tenant) => ({ path: `${W}/${await webhook(t, tenant)}`, body: { events: ['no.such'] } }),
    foreign: async (t, owner) => ({ path: `${W}/${await webhook(t, owner)}`, body: { enabled: false } }),
  },
  {
    method: 'DELETE',
    route: `${W}/:id`,
    auth: 'session',
    allowed: MANAGERS,
    happy: async (t, tenant) => ({ path: `${W}/${await webhook(t, tenant)}` }),
    happyStatus: 200,
    foreign: async (t, owner) => ({ path: `${W}/${await webhook(t, owner)}` }),
  },
  {
    method: 'POST',
    route: `${W}/:id/rotate-secret`,
    auth: 'session',
    allowed: MANAGERS,
    happy: async (t, tenant) => ({
      path: `${W}/${await webhook(t, tenant)}/rotate-secret`,
      body: { graceSeconds: 60 },
    }),
    happyStatus: 200,
    bad: async (t, tenant) => ({
      path: `${W}/${await webhook(t, tenant)}/rotate-secret`,
      body: { graceSeconds: -1 },
    }),
    foreign: async (t, owner) => ({ path: `${W}/${await webhook(t, owner)}/rotate-secret`, body: {} }),
  },
  {
    method: 'POST',
    route: `${W}/:id/test`,
    auth: 'session',
    allowed: MANAGERS,
    happy: async (t, tenant) => ({
      path: `${W}/${await webhook(t, tenant)}/test`,
      body: { eventType: 'detection.created' },
    }),
    happyStatus: 200,
    bad: async (t, tenant) => ({
      path: `${W}/${await webhook(t, tenant)}/test`,
      body: { eventType: 'nope' },
    }),
    foreign: async (t, owner) => ({
      path: `${W}/${await webhook(t, owner)}/test`,
      body: { eventType: 'detection.created' },
    }),
  },
  {
    method: 'GET',
    route: `${W}/:id/deliveries`,
    auth: 'session',
    allowed: ALL_ROLES,
    happy: async (t, tenant) => ({ path: `${W}/${await webhook(t, tenant)}/deliveries?page=1&perPage=5` }),
    happyStatus: 200,
    bad: async (t, tenant) => ({ path: `${W}/${await webhook(t, tenant)}/deliveries?perPage=0` }),
    foreign: async (t, owner) => ({ path: `${W}/${await webhook(t, owner)}/deliveries` }),
  },
  {
    method: 'GET',
    route: `${W}/:id/deliveries/:deliveryId`,
    auth: 'session',
    allowed: ALL_ROLES,
    happy: async (t, tenant) => {
      const d = await delivery(t, tenant);
      return { path: `${W}/${d.hook}/deliveries/${d.del}` };
    },
    happyStatus: 200,
    foreign: async (t, owner) => {
      const d = await delivery(t, owner);
      return { path: `${W}/${d.hook}/deliveries/${d.del}` };
    },
  },
  {
    method: 'POST',
    route: `${W}/:id/deliveries/:deliveryId/redeliver`,
    auth: 'session',
    allowed: MANAGERS,
    happy: async (t, tenant) => {
      const d = await storedDelivery(t, tenant);
      return { path: `${W}/${d.hook}/deliveries/${d.del}/redeliver` };
    },
    happyStatus: 202,
    foreign: async (t, owner) => {
      const d = await storedDelivery(t, owner);
      return { path: `${W}/${d.hook}/deliveries/${d.del}/redeliver` };
    },
  },
  {
    method: 'POST',
    route: `${W}/:id/recover`,
    auth: 'session',
    allowed: MANAGERS,
    happy: async (t, tenant) => ({
      path: `${W}/${await webhook(t, tenant)}/recover`,
      body: { since: '2020-01-01T00:00:00.000Z' },
    }),
    happyStatus: 202,
    bad: async (t, tenant) => ({
      path: `${W}/${await webhook(t, tenant)}/recover`,
      body: { since: 'yesterday' },
    }),
    foreign: async (t, owner) => ({
      path: `${W}/${await webhook(t, owner)}/recover`,
      body: { since: '2020-01-01T00:00:00.000Z' },
    }),
  },
  {
    method: 'POST',
    route: S,
    auth: 'session',
    allowed: MANAGERS,
    happy: async () => ({ path: S, body: SPLUNK }),
    happyStatus: 201,
    bad: async () => ({ path: S, body: { platform: 'SPLUNK', name: 'x', config: { index: 'main' } } }),
  },
  {
    method: 'GET',
    route: S,
    auth: 'session',
    allowed: ALL_ROLES,
    happy: async () => ({ path: S }),
    happyStatus: 200,
  },
  {
    method: 'GET',
    route: `${S}/:id`,
    auth: 'session',
    allowed: ALL_ROLES,
    happy: async (t, tenant) => ({ path: `${S}/${await integration(t, tenant)}` }),
    happyStatus: 200,
    foreign: async (t, owner) => ({ path: `${S}/${await integration(t, owner)}` }),
  },
  {
    method: 'PATCH',
    route: `${S}/:id`,
    auth: 'session',
    allowed: MANAGERS,
    happy: async (t, tenant) => ({
      path: `${S}/${await integration(t, tenant)}`,
      body: { minSeverity: 'HIGH' },
    }),
    happyStatus: 200,
    bad: async (t, tenant) => ({
      path: `${S}/${await integration(t, tenant)}`,
      body: { minSeverity: 'SEVERE' },
    }),
    foreign: async (t, owner) => ({ path: `${S}/${await integration(t, owner)}`, body: { enabled: false } }),
  },
  {
    method: 'DELETE',
    route: `${S}/:id`,
    auth: 'session',
    allowed: MANAGERS,
    happy: async (t, tenant) => ({ path: `${S}/${await integration(t, tenant)}` }),
    happyStatus: 200,
    foreign: async (t, owner) => ({ path: `${S}/${await integration(t, owner)}` }),
  },
  {
    method: 'POST',
    route: `${S}/:id/test`,
    auth: 'session',
    allowed: MANAGERS,
    happy: async (t, tenant) => ({ path: `${S}/${await integration(t, tenant)}/test` }),
    happyStatus: 200,
    foreign: async (t, owner) => ({ path: `${S}/${await integration(t, owner)}/test` }),
  },
  {
    method: 'GET',
    route: `${S}/:id/dead-letters`,
    auth: 'session',
    allowed: ALL_ROLES,
    happy: async (t, tenant) => ({ path: `${S}/${await integration(t, tenant)}/dead-letters` }),
    happyStatus: 200,
    bad: async (t, tenant) => ({ path: `${S}/${await integration(t, tenant)}/dead-letters?page=0` }),
    foreign: async (t, owner) => ({ path: `${S}/${await integration(t, owner)}/dead-letters` }),
  },
  {
    method: 'POST',
    route: `${S}/:id/dead-letters/retry`,
    auth: 'session',
    allowed: MANAGERS,
    happy: async (t, tenant) => ({ path: `${S}/${await integration(t, tenant)}/dead-letters/retry` }),
    happyStatus: 202,
    foreign: async (t, owner) => ({ path: `${S}/${await integration(t, owner)}/dead-letters/retry` }),
  },
);
