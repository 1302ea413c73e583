import { addRouteCases } from './route-cases.js';

const ALL_ROLES = ['owner', 'admin', 'member', 'viewer'];

addRouteCases({
  method: 'GET',
  route: '/api/dashboard/overview',
  auth: 'session',
  allowed: ALL_ROLES,
  happy: async () => ({ path: '/api/dashboard/overview?from=2026-11-01&to=2026-11-08' }),
  happyStatus: 200,
  bad: async () => ({ path: '/api/dashboard/overview?from=2026-02-30' }),
});
