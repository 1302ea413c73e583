import { addRouteCases } from './route-cases.js';

const SETTINGS = '/api/dashboard/netproxy/settings';

addRouteCases(
  {
    method: 'GET',
    route: SETTINGS,
    auth: 'session',
    allowed: ['owner', 'admin', 'member', 'viewer'],
    happy: async () => ({ path: SETTINGS }),
    happyStatus: 200,
  },
  {
    method: 'PUT',
    route: SETTINGS,
    auth: 'session',
    allowed: ['owner', 'admin'],
    // An empty list: the shared suite runs this for several organizations, whose networks may not overlap.
    happy: async () => ({ path: SETTINGS, body: { clientNetworks: [] } }),
    happyStatus: 200,
    bad: async () => ({ path: SETTINGS, body: { clientNetworks: ['10.0.0.0/33'] } }),
  },
);
