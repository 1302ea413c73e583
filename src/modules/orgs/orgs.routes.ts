import { type Static, Type } from 'typebox';
import { AppError } from '../../platform/errors/index.js';
import { type App, errorResponses, callerOf, nameText } from '../../platform/http/index.js';
import type { OrgsService } from './orgs.service.js';
import { ROLES } from '../plans/index.js';

const UserView = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: Type.String(),
  // true until the user has replaced the password they were given (docs/auth.md)
  mustChangePassword: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
});

const CreateUserBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 320, format: 'email' }),
    name: Type.Optional(nameText(200)),
    role: Type.Enum([...ROLES]),
    password: Type.Optional(Type.String({ minLength: 12, maxLength: 1024 })),
  },
  { additionalProperties: false },
);

const ChangeRoleBody = Type.Object({ role: Type.Enum([...ROLES]) }, { additionalProperties: false });

const MANAGE = ['owner', 'admin'] as const;

const OrganizationView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  plan: Type.String(),
  products: Type.Array(Type.String()),
  renewalDay: Type.Integer(),
  createdAt: Type.String(),
});

/** The fields of the view only (an organization carries settings the dashboard does not show here). */
const view = (org: Static<typeof OrganizationView>): Static<typeof OrganizationView> => ({
  id: org.id,
  name: org.name,
  plan: org.plan,
  products: org.products,
  renewalDay: org.renewalDay,
  createdAt: org.createdAt,
});

/** `forgetOrg`: drops the authentication's cached copy, so the next request sees a change at once. */
export function orgsRoutes(orgs: OrgsService, deps: { forgetOrg(id: string): void }) {
  return async (app: App) => {
    app.get(
      '/api/dashboard/organization',
      {
        config: { auth: { mode: 'session' } },
        schema: {
          operationId: 'getOrganization',
          tags: ['organization'],
          summary: 'The organization of the session: plan, enabled products, renewal day',
          response: { 200: OrganizationView, ...errorResponses(401, 429) },
        },
      },
      async (request) => view(callerOf(request).org),
    );

    app.patch(
      '/api/dashboard/organization',
      {
        config: { auth: { mode: 'session', roles: MANAGE } },
        schema: {
          operationId: 'renameOrganization',
          tags: ['organization'],
          summary: 'Rename the organization of the session (the plan and products are set by the operator)',
          body: Type.Object(
            {
              // the shared name rule (no control characters: PostgreSQL refuses U+0000 in text; no bidi
              // overrides); a name of blanks only is refused below
              name: nameText(200),
            },
            { additionalProperties: false },
          ),
          response: { 200: OrganizationView, ...errorResponses(401, 403, 429) },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        if (!caller.user) throw new AppError('forbidden', 'A dashboard user renames the organization.');
        const name = request.body.name.trim();
        if (!name)
          throw new AppError('invalid_request', "The body field 'name' must hold a visible character.");
        await orgs.rename(caller.org, name, { userId: caller.user.id });
        deps.forgetOrg(caller.org.id);
        return view({ ...caller.org, name });
      },
    );

    app.get(
      '/api/dashboard/users',
      {
        config: { auth: { mode: 'session' } },
        schema: {
          operationId: 'listUsers',
          tags: ['organization'],
          summary: 'Users of the organization',
          response: { 200: Type.Object({ users: Type.Array(UserView) }), ...errorResponses(401, 429) },
        },
      },
      async (request) => ({ users: await orgs.listUsers(callerOf(request).org.id) }),
    );

    app.post(
      '/api/dashboard/users',
      {
        config: { auth: { mode: 'session', roles: MANAGE } },
        schema: {
          operationId: 'createUser',
          tags: ['organization'],
          summary: 'Add a user; a generated password is returned once when none is given',
          body: CreateUserBody,
          response: {
            201: Type.Object({ user: UserView, password: Type.Optional(Type.String()) }),
            ...errorResponses(401, 403, 409, 429),
          },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        if (request.body.role === 'owner' && caller.user?.role !== 'owner') {
          throw new AppError('forbidden', 'Only an owner can add another owner.');
        }
        const { user, password } = await orgs.createUser({
          org: caller.org,
          email: request.body.email,
          role: request.body.role,
          // generated or chosen, the admin has seen this password: the user replaces it at first sign-in
          mustChangePassword: true,
          ...(request.body.name ? { name: request.body.name } : {}),
          ...(request.body.password ? { password: request.body.password } : {}),
        });
        reply.header('cache-control', 'no-store');
        return reply.status(201).send(request.body.password ? { user } : { user, password });
      },
    );

    app.patch(
      '/api/dashboard/users/:id',
      {
        config: { auth: { mode: 'session', roles: MANAGE } },
        schema: {
          operationId: 'changeUserRole',
          tags: ['organization'],
          summary:
            "Change a user's role: only an owner makes or unmakes an owner, the last owner keeps the role, and nobody changes their own",
          params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }),
          body: ChangeRoleBody,
          response: {
            200: Type.Object({ user: UserView }),
            ...errorResponses(401, 403, 404, 409, 429),
          },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        // A session route: callerOf has a user here (admin keys never reach /api/dashboard/*).
        const me = caller.user;
        if (!me) throw new AppError('forbidden', 'Changing a role needs a dashboard session.');
        const user = await orgs.changeRole(caller.org, me, request.params.id, request.body.role);
        return { user };
      },
    );

    app.delete(
      '/api/dashboard/users/:id',
      {
        config: { auth: { mode: 'session', roles: MANAGE } },
        schema: {
          operationId: 'removeUser',
          tags: ['organization'],
          summary: 'Remove a user from the organization; their sessions end',
          params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }),
          response: {
            200: Type.Object({ success: Type.Boolean() }),
            ...errorResponses(401, 403, 404, 409, 429),
          },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        await orgs.removeUser(caller.org, request.params.id, caller.user);
        return { success: true };
      },
    );
  };
}
