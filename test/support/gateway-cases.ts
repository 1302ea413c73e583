import { addRouteCases } from './route-cases.js';

const ALL_ROLES = ['owner', 'admin', 'member', 'viewer'];
const MANAGERS = ['owner', 'admin'];
const offlineRequest = {
  model: 'parapet-offline-echo',
  messages: [{ role: 'user', content: 'Hello there' }],
};

addRouteCases(
  {
    method: 'POST',
    route: '/api/v1/gateway/chat',
    auth: 'apiKey',
    allowed: ['sw'],
    happy: async () => ({ path: '/api/v1/gateway/chat', body: { message: 'Hello, who are you?' } }),
    happyStatus: 200,
    bad: async () => ({ path: '/api/v1/gateway/chat', body: { message: '' } }),
    foreign: async (t, owner) => {
      const res = await t.request('POST', '/api/v1/gateway/chat', {
        key: owner.sw,
        body: { message: 'mine' },
      });
      return {
        path: '/api/v1/gateway/chat',
        body: { message: 'let me in', conversationId: res.body.conversationId },
      };
    },
  },
  ...['/api/v1/proxy/:provider/v1/chat/completions', '/v1/proxy/:provider/v1/chat/completions'].map(
    (route) => ({
      method: 'POST' as const,
      route,
      auth: 'serviceKey' as const,
      allowed: ['al', 'sw'],
      happy: async () => ({ path: route.replace(':provider', 'parapet'), body: offlineRequest }),
      happyStatus: 200,
      bad: async () => ({ path: route.replace(':provider', 'parapet'), body: { model: 'x', messages: [] } }),
    }),
  ),
  {
    method: 'GET',
    route: '/api/dashboard/gateway/force',
    auth: 'session',
    allowed: ALL_ROLES,
    happy: async () => ({ path: '/api/dashboard/gateway/force' }),
    happyStatus: 200,
  },
  {
    method: 'POST',
    route: '/api/dashboard/gateway/force',
    auth: 'session',
    allowed: MANAGERS,
    // switching off keeps the shared tenant's proxy usable for the other cases
    happy: async () => ({ path: '/api/dashboard/gateway/force', body: { enabled: false } }),
    happyStatus: 200,
    bad: async () => ({ path: '/api/dashboard/gateway/force', body: { enabled: 'yes' } }),
  },
  {
    method: 'GET',
    route: '/api/dashboard/gateway/providers',
    auth: 'session',
    allowed: MANAGERS,
    happy: async () => ({ path: '/api/dashboard/gateway/providers' }),
    happyStatus: 200,
  },
  {
    method: 'GET',
    route: '/api/dashboard/gateway/providers/:provider',
    auth: 'session',
    allowed: MANAGERS,
    happy: async () => ({ path: '/api/dashboard/gateway/providers/parapet' }),
    happyStatus: 200,
    bad: async () => ({ path: '/api/dashboard/gateway/providers/nosuchai' }),
  },
  {
    method: 'PUT',
    route: '/api/dashboard/gateway/providers/:provider',
    auth: 'session',
    allowed: MANAGERS,
    happy: async () => ({
      path: '/api/dashboard/gateway/providers/together',
      body: { apiKey: 'tg-test-key-0123456789' },
    }),
    happyStatus: 200,
    bad: async () => ({ path: '/api/dashboard/gateway/providers/together', body: { apiKey: 'short' } }),
  },
  {
    method: 'DELETE',
    route: '/api/dashboard/gateway/providers/:provider',
    auth: 'session',
    allowed: MANAGERS,
    happy: async (t, tenant) => {
      await t.ctx.gateway.keys.put(tenant.org, 'fireworks', { apiKey: 'fw-test-key-0123456789' }, null);
      return { path: '/api/dashboard/gateway/providers/fireworks' };
    },
    happyStatus: 200,
    bad: async () => ({ path: '/api/dashboard/gateway/providers/nosuchai' }),
    foreign: async (t, owner) => {
      await t.ctx.gateway.keys.put(owner.org, 'cohere', { apiKey: 'co-test-key-0123456789' }, null);
      return { path: '/api/dashboard/gateway/providers/cohere' };
    },
  },
);
