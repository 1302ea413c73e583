import { addRouteCases } from './route-cases.js';

const KEYS = ['al', 'sw'];

addRouteCases(
  {
    method: 'POST',
    route: '/api/v1/dlp/analyze',
    auth: 'apiKey',
    allowed: KEYS,
    happy: async () => ({
      path: '/api/v1/dlp/analyze',
      body: { text: 'Write to anna.meier@example.com please' },
    }),
    happyStatus: 200,
    bad: async () => ({ path: '/api/v1/dlp/analyze', body: { text: 42 } }),
    foreign: async (t, owner) => {
      const s = await t.ctx.vault.tokenize(owner.org.id, 'Call +41 44 668 18 00');
      return { path: '/api/v1/dlp/analyze', body: { text: 'more', sessionId: s.sessionId } };
    },
  },
  {
    method: 'POST',
    route: '/api/v1/dlp/rehydrate',
    auth: 'apiKey',
    allowed: KEYS,
    happy: async (t, tenant) => {
      const s = await t.ctx.vault.tokenize(tenant.org.id, 'Mail anna.meier@example.com');
      return { path: '/api/v1/dlp/rehydrate', body: { text: s.tokenized, sessionId: s.sessionId } };
    },
    happyStatus: 200,
    bad: async () => ({ path: '/api/v1/dlp/rehydrate', body: { text: 'x' } }),
    foreign: async (t, owner) => {
      const s = await t.ctx.vault.tokenize(owner.org.id, 'Mail anna.meier@example.com');
      return { path: '/api/v1/dlp/rehydrate', body: { text: s.tokenized, sessionId: s.sessionId } };
    },
  },
  {
    method: 'GET',
    route: '/api/v1/dlp/types',
    auth: 'apiKey',
    allowed: KEYS,
    happy: async () => ({ path: '/api/v1/dlp/types' }),
    happyStatus: 200,
  },
  {
    method: 'GET',
    route: '/api/dashboard/dlp/settings',
    auth: 'session',
    allowed: ['owner', 'admin', 'member', 'viewer'],
    happy: async () => ({ path: '/api/dashboard/dlp/settings' }),
    happyStatus: 200,
  },
  {
    method: 'PUT',
    route: '/api/dashboard/dlp/settings',
    auth: 'session',
    allowed: ['owner', 'admin'],
    happy: async () => ({ path: '/api/dashboard/dlp/settings', body: { allowValues: ['Parapet AG'] } }),
    happyStatus: 200,
    bad: async () => ({ path: '/api/dashboard/dlp/settings', body: { sessionTtlHours: 0 } }),
  },
);
