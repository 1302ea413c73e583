import { addRouteCases } from './route-cases.js';

const KEYS = ['al', 'sw'];

addRouteCases(
  {
    method: 'POST',
    route: '/api/v1/report',
    auth: 'apiKey',
    allowed: KEYS,
    happy: async () => ({ path: '/api/v1/report', body: { period: '24h' } }),
    happyStatus: 201,
    bad: async () => ({ path: '/api/v1/report', body: { from: '2026-02-01', to: '2026-01-01' } }),
  },
  {
    method: 'GET',
    route: '/api/v1/report',
    auth: 'apiKey',
    allowed: KEYS,
    happy: async () => ({ path: '/api/v1/report?perPage=5' }),
    happyStatus: 200,
    bad: async () => ({ path: '/api/v1/report?cursor=bm90LW91cnM' }),
  },
  {
    method: 'GET',
    route: '/api/v1/report/:id',
    auth: 'apiKey',
    allowed: KEYS,
    happy: async (t, tenant) => {
      const r = await t.ctx.reports.create(tenant.org, { period: '24h' }, null);
      return { path: `/api/v1/report/${r.id}` };
    },
    happyStatus: 200,
    foreign: async (t, owner) => {
      const r = await t.ctx.reports.create(owner.org, { period: '24h' }, null);
      return { path: `/api/v1/report/${r.id}` };
    },
  },
  {
    method: 'GET',
    route: '/api/v1/report/:id/download',
    auth: 'apiKey',
    allowed: KEYS,
    happy: async (t, tenant) => {
      const r = await t.ctx.reports.create(tenant.org, { period: '7d' }, null);
      return { path: `/api/v1/report/${r.id}/download?format=csv` };
    },
    happyStatus: 200,
    bad: async (t, tenant) => {
      const r = await t.ctx.reports.create(tenant.org, { period: '7d' }, null);
      return { path: `/api/v1/report/${r.id}/download?format=docx` };
    },
    foreign: async (t, owner) => {
      const r = await t.ctx.reports.create(owner.org, { period: '24h' }, null);
      return { path: `/api/v1/report/${r.id}/download` };
    },
  },
);
