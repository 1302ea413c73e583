import { addRouteCases } from './route-cases.js';

const ALL_ROLES = ['owner', 'admin', 'member', 'viewer'];
const MANAGERS = ['owner', 'admin'];

addRouteCases(
  {
    method: 'POST',
    route: '/api/dashboard/auth/logout',
    auth: 'session',
    allowed: ALL_ROLES,
    // its own session, because logging out ends the one it uses
    happy: async (_t, tenant) => ({
      path: '/api/dashboard/auth/logout',
      headers: { cookie: await tenant.newSession() },
    }),
    happyStatus: 200,
  },
  {
    method: 'POST',
    route: '/api/dashboard/auth/me/password',
    auth: 'session',
    allowed: ALL_ROLES,
    // a user of its own with a known password, because the change ends that user's other sessions
    happy: async (t, tenant) => {
      const email = `changer.${Math.random().toString(36).slice(2)}@example.test`;
      const password = 'route-case-password-1';
      await t.ctx.orgs.createUser({ org: tenant.org, email, role: 'member', password });
      const login = await t.request('POST', '/api/dashboard/auth/login', { body: { email, password } });
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      return {
        path: '/api/dashboard/auth/me/password',
        body: { currentPassword: password, newPassword: 'route-case-password-2' },
        headers: { cookie },
      };
    },
    happyStatus: 200,
    bad: async () => ({
      path: '/api/dashboard/auth/me/password',
      body: { currentPassword: 'whatever-it-is-now', newPassword: 'short' },
    }),
  },
  {
    method: 'GET',
    route: '/api/dashboard/auth/me',
    auth: 'session',
    allowed: ALL_ROLES,
    happy: async () => ({ path: '/api/dashboard/auth/me' }),
    happyStatus: 200,
  },
  {
    method: 'GET',
    route: '/api/dashboard/organization',
    auth: 'session',
    allowed: ALL_ROLES,
    happy: async () => ({ path: '/api/dashboard/organization' }),
    happyStatus: 200,
  },
  {
    method: 'GET',
    route: '/api/dashboard/users',
    auth: 'session',
    allowed: ALL_ROLES,
    happy: async () => ({ path: '/api/dashboard/users' }),
    happyStatus: 200,
  },
  {
    method: 'POST',
    route: '/api/dashboard/users',
    auth: 'session',
    allowed: MANAGERS,
    happy: async () => ({
      path: '/api/dashboard/users',
      body: { email: `new.${Math.random().toString(36).slice(2)}@example.test`, role: 'member' },
    }),
    happyStatus: 201,
    bad: async () => ({
      path: '/api/dashboard/users',
      body: { email: 'someone@example.test', role: 'emperor' },
    }),
  },
  {
    method: 'PATCH',
    route: '/api/dashboard/users/:id',
    auth: 'session',
    allowed: MANAGERS,
    happy: async (t, tenant) => {
      const { user } = await t.ctx.orgs.createUser({
        org: tenant.org,
        email: `promoted.${Math.random().toString(36).slice(2)}@example.test`,
        role: 'viewer',
      });
      return { path: `/api/dashboard/users/${user.id}`, body: { role: 'member' } };
    },
    happyStatus: 200,
    bad: async (t, tenant) => {
      const { user } = await t.ctx.orgs.createUser({
        org: tenant.org,
        email: `crowned.${Math.random().toString(36).slice(2)}@example.test`,
        role: 'member',
      });
      return { path: `/api/dashboard/users/${user.id}`, body: { role: 'emperor' } };
    },
    foreign: async (t, owner) => {
      const { user } = await t.ctx.orgs.createUser({
        org: owner.org,
        email: `theirs.${Math.random().toString(36).slice(2)}@example.test`,
        role: 'member',
      });
      return { path: `/api/dashboard/users/${user.id}`, body: { role: 'admin' } };
    },
  },
  {
    method: 'DELETE',
    route: '/api/dashboard/users/:id',
    auth: 'session',
    allowed: MANAGERS,
    happy: async (t, tenant) => {
      const { user } = await t.ctx.orgs.createUser({
        org: tenant.org,
        email: `gone.${Math.random().toString(36).slice(2)}@example.test`,
        role: 'member',
      });
      return { path: `/api/dashboard/users/${user.id}` };
    },
    happyStatus: 200,
    foreign: async (t, owner) => {
      const { user } = await t.ctx.orgs.createUser({
        org: owner.org,
        email: `theirs.${Math.random().toString(36).slice(2)}@example.test`,
        role: 'member',
      });
      return { path: `/api/dashboard/users/${user.id}` };
    },
  },
  {
    method: 'PATCH',
    route: '/api/dashboard/organization',
    auth: 'session',
    allowed: MANAGERS,
    happy: async (_t, tenant) => ({ path: '/api/dashboard/organization', body: { name: tenant.org.name } }),
    happyStatus: 200,
    bad: async () => ({ path: '/api/dashboard/organization', body: { name: '   ' } }),
  },
  {
    method: 'GET',
    route: '/api/dashboard/keys',
    auth: 'session',
    allowed: ALL_ROLES,
    happy: async () => ({ path: '/api/dashboard/keys' }),
    happyStatus: 200,
  },
  {
    method: 'POST',
    route: '/api/dashboard/keys',
    auth: 'session',
    allowed: MANAGERS,
    happy: async () => ({ path: '/api/dashboard/keys', body: { name: 'ci', kind: 'al' } }),
    happyStatus: 201,
    bad: async () => ({ path: '/api/dashboard/keys', body: { name: 'ci', kind: 'xx' } }),
  },
  {
    method: 'DELETE',
    route: '/api/dashboard/keys/:id',
    auth: 'session',
    allowed: MANAGERS,
    happy: async (t, tenant) => {
      const { key } = await t.ctx.keys.create({ orgId: tenant.org.id, kind: 'al', name: 'to revoke' });
      return { path: `/api/dashboard/keys/${key.id}` };
    },
    happyStatus: 200,
    foreign: async (t, owner) => {
      const { key } = await t.ctx.keys.create({ orgId: owner.org.id, kind: 'al', name: 'theirs' });
      return { path: `/api/dashboard/keys/${key.id}` };
    },
  },
);
