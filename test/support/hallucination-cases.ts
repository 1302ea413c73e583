import { addRouteCases } from './route-cases.js';

const KEYS = ['al', 'sw'];
const SOURCES = ['The Rhine is about 1,230 kilometres long and flows into the North Sea.'];

let n = 0;
const correction = () => ({
  originalClaim: `Release ${++n} of the gateway ships with 8 GB of cache.`,
  correctedClaim: `Release ${n} of the gateway ships with 16 GB of cache.`,
  source: 'release notes',
});

addRouteCases(
  {
    method: 'POST',
    route: '/api/v1/hallucination',
    auth: 'apiKey',
    allowed: KEYS,
    happy: async () => ({
      path: '/api/v1/hallucination',
      body: { claim: 'The Rhine flows into the North Sea.', sources: SOURCES },
    }),
    happyStatus: 200,
    bad: async () => ({ path: '/api/v1/hallucination', body: { claim: 'The Rhine is long.', sources: [] } }),
  },
  {
    method: 'POST',
    route: '/api/v1/hallucination/correct',
    auth: 'apiKey',
    allowed: KEYS,
    happy: async () => ({ path: '/api/v1/hallucination/correct', body: correction() }),
    happyStatus: 201,
    bad: async () => ({ path: '/api/v1/hallucination/correct', body: { ...correction(), source: '' } }),
  },
  {
    method: 'GET',
    route: '/api/v1/hallucination/corrections',
    auth: 'apiKey',
    allowed: KEYS,
    happy: async () => ({ path: '/api/v1/hallucination/corrections?page=1&perPage=5' }),
    happyStatus: 200,
    bad: async () => ({ path: '/api/v1/hallucination/corrections?perPage=1000' }),
  },
  {
    method: 'DELETE',
    route: '/api/v1/hallucination/corrections/:id',
    auth: 'apiKey',
    allowed: KEYS,
    happy: async (t, tenant) => {
      const c = await t.ctx.hallucination.correct(tenant.org.id, correction());
      return { path: `/api/v1/hallucination/corrections/${c.id}` };
    },
    happyStatus: 200,
    foreign: async (t, owner) => {
      const c = await t.ctx.hallucination.correct(owner.org.id, correction());
      return { path: `/api/v1/hallucination/corrections/${c.id}` };
    },
  },
  {
    method: 'GET',
    route: '/api/dashboard/hallucination/settings',
    auth: 'session',
    allowed: ['owner', 'admin', 'member', 'viewer'],
    happy: async () => ({ path: '/api/dashboard/hallucination/settings' }),
    happyStatus: 200,
  },
  {
    method: 'PUT',
    route: '/api/dashboard/hallucination/settings',
    auth: 'session',
    allowed: ['owner', 'admin'],
    happy: async () => ({ path: '/api/dashboard/hallucination/settings', body: { mode: 'local' } }),
    happyStatus: 200,
    bad: async () => ({ path: '/api/dashboard/hallucination/settings', body: { mode: 'remote' } }),
  },
);
