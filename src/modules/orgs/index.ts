export { createOrgsService, toOrganization, toUser } from './orgs.service.js';
export type { Organization, OrgsService, PublishFn, User, UserRemovedHook } from './orgs.service.js';
export { orgsRoutes } from './orgs.routes.js';
