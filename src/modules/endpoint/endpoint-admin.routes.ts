import { type Static, Type } from 'typebox';
import { AppError } from '../../platform/errors/index.js';
import { type App, errorResponses, callerOf } from '../../platform/http/index.js';
import { type LicenseView, LicenseViewSchema } from '../licensing/index.js';
import { exportDnsConfig, EXPORT_TYPES } from './dns-export.js';
import {
  DeviceListQuery,
  DeviceView,
  DnsConfigBody,
  DnsConfigView,
  EnrollmentBody,
  EnrollmentView,
  ExportQuery,
  GroupBody,
  GroupPatch,
  GroupView,
  IdParams,
  PolicyBody,
  PolicyPatch,
  PolicyPatchWithId,
  PolicyView,
  SettingsBody,
  SettingsView,
  StatsQuery,
  StatsView,
} from './endpoint.schemas.js';
import { actorOf } from './endpoint.routes.js';
import type { Endpoint } from './index.js';

const TAGS = ['endpoint-admin'];
// Under /api/saas/ these also take an API key of the admin scope, standing for an admin (docs/auth.md).
const READ = { mode: 'session', feature: 'endpoint' } as const;
const MANAGE = { mode: 'session', roles: ['owner', 'admin'], feature: 'endpoint' } as const;
const E = (...s: number[]) => errorResponses(401, 403, 429, ...s);

export type LicenseSummary = (orgId: string) => Promise<LicenseView[]>;

/** Endpoint dashboard and administration (docs/endpoint.md). */
/**
 * What GET dns-config answers before a first save: filtering off, nothing listed, the block page off (as
 * GET /api/v1/endpoint/block-page answers: 404 until a page is enabled). It can be saved back as it is.
 */
const defaultDnsConfig = (): Static<typeof DnsConfigView> => ({
  enabled: false,
  mode: 'blocklist',
  blockedDomains: [],
  allowedDomains: [],
  blockPage: {
    enabled: false,
    message: 'This AI service is not approved by your organization.',
    contactEmail: '',
  },
  integration: { type: 'dns_forwarder', forwarders: [] },
  updatedAt: null,
});

export function endpointAdminRoutes(deps: {
  endpoint: Endpoint;
  licenses: LicenseSummary;
  blockAddress: string;
}) {
  const { endpoint } = deps;
  return async (app: App) => {
    app.get(
      '/api/dashboard/endpoint',
      {
        config: { auth: READ },
        schema: {
          operationId: 'endpointOverview',
          tags: TAGS,
          summary: 'Statistics (24h), devices (paged, filter by status and last seen) and licences',
          querystring: DeviceListQuery,
          response: {
            200: Type.Object({
              stats: StatsView,
              devices: Type.Object({
                items: Type.Array(DeviceView),
                total: Type.Integer(),
                page: Type.Integer(),
                perPage: Type.Integer(),
              }),
              licenses: Type.Array(LicenseViewSchema),
            }),
            ...E(),
          },
        },
      },
      async (request) => {
        const orgId = callerOf(request).org.id;
        const [stats, devices, licenses] = await Promise.all([
          endpoint.activity.stats(orgId, '24h'),
          endpoint.devices.list(orgId, request.query),
          deps.licenses(orgId),
        ]);
        return { stats, devices, licenses };
      },
    );

    app.delete(
      '/api/dashboard/endpoint/devices/:id',
      {
        config: { auth: MANAGE },
        schema: {
          operationId: 'revokeDevice',
          tags: TAGS,
          summary: 'Revoke a device: its tokens stop working and it must enroll again',
          params: IdParams,
          response: { 200: Type.Object({ device: DeviceView }), ...E(404) },
        },
      },
      async (request) => {
        const c = callerOf(request);
        return { device: await endpoint.devices.revoke(c.org, request.params.id, actorOf(c)) };
      },
    );

    // Policies are managed under both prefixes: the dashboard's (a session) and /api/saas/ (a session or an
    // API key of the admin scope, so an integration can list, change and delete what it creates).
    for (const [prefix, by] of [
      ['/api/dashboard/endpoint', ''],
      ['/api/saas/endpoint', 'ByKey'],
    ] as const) {
      app.get(
        `${prefix}/policies`,
        {
          config: { auth: READ },
          schema: {
            operationId: `listEndpointPolicies${by}`,
            tags: TAGS,
            summary: 'Endpoint policies of the organization',
            response: { 200: Type.Object({ policies: Type.Array(PolicyView) }), ...E() },
          },
        },
        async (request) => ({ policies: await endpoint.admin.listPolicies(callerOf(request).org.id) }),
      );

      app.post(
        `${prefix}/policies`,
        {
          config: { auth: MANAGE },
          schema: {
            operationId: by ? 'createEndpointPolicyByKey' : 'createEndpointPolicy',
            tags: TAGS,
            summary: 'Create an endpoint policy (the spec Endpoint policy body)',
            body: PolicyBody,
            response: { 201: Type.Object({ policy: PolicyView }), ...E() },
          },
        },
        async (request, reply) => {
          const c = callerOf(request);
          return reply
            .status(201)
            .send({ policy: await endpoint.admin.createPolicy(c.org, request.body, actorOf(c)) });
        },
      );

      const update = async (c: ReturnType<typeof callerOf>, id: string, patch: PolicyPatch) => ({
        policy: await endpoint.admin.updatePolicy(c.org, id, patch, actorOf(c)),
      });
      app.patch(
        `${prefix}/policies`,
        {
          config: { auth: MANAGE },
          schema: {
            operationId: `updateEndpointPolicyNamedInBody${by}`,
            tags: TAGS,
            summary:
              'Change the endpoint policy whose id the body names (the SPEC path); otherwise as PATCH …/policies/:id',
            body: PolicyPatchWithId,
            response: { 200: Type.Object({ policy: PolicyView }), ...E(404) },
          },
        },
        async (request) => {
          const { id, ...patch } = request.body;
          return update(callerOf(request), id, patch);
        },
      );
      app.patch(
        `${prefix}/policies/:id`,
        {
          config: { auth: MANAGE },
          schema: {
            operationId: `updateEndpointPolicy${by}`,
            tags: TAGS,
            summary:
              'Change an endpoint policy (fields given replace the stored ones; the result is validated whole)',
            params: IdParams,
            body: PolicyPatch,
            response: { 200: Type.Object({ policy: PolicyView }), ...E(404) },
          },
        },
        async (request) => update(callerOf(request), request.params.id, request.body),
      );

      app.delete(
        `${prefix}/policies/:id`,
        {
          config: { auth: MANAGE },
          schema: {
            operationId: `deleteEndpointPolicy${by}`,
            tags: TAGS,
            summary: 'Delete an endpoint policy',
            params: IdParams,
            response: { 200: Type.Object({ success: Type.Boolean(), id: Type.String() }), ...E(404) },
          },
        },
        async (request) => {
          const c = callerOf(request);
          return endpoint.admin.deletePolicy(c.org, request.params.id, actorOf(c));
        },
      );
    }

    app.get(
      '/api/dashboard/endpoint/enrollment',
      {
        config: { auth: READ },
        schema: {
          operationId: 'listEnrollmentLinks',
          tags: TAGS,
          summary: 'Enrollment links (their codes are never shown again)',
          response: { 200: Type.Object({ links: Type.Array(EnrollmentView) }), ...E() },
        },
      },
      async (request) => ({ links: await endpoint.devices.listLinks(callerOf(request).org.id) }),
    );

    app.post(
      '/api/dashboard/endpoint/enrollment',
      {
        config: { auth: MANAGE },
        schema: {
          operationId: 'createEnrollmentLink',
          tags: TAGS,
          summary: 'Create an enrollment link: single use or N uses, an expiry, an optional group or user',
          body: EnrollmentBody,
          response: {
            201: Type.Object({ link: EnrollmentView, code: Type.String({ description: 'shown once' }) }),
            ...E(),
          },
        },
      },
      async (request, reply) => {
        const c = callerOf(request);
        reply.header('cache-control', 'no-store');
        return reply.status(201).send(await endpoint.devices.createLink(c.org, request.body, actorOf(c)));
      },
    );

    app.delete(
      '/api/dashboard/endpoint/enrollment/:id',
      {
        config: { auth: MANAGE },
        schema: {
          operationId: 'revokeEnrollmentLink',
          tags: TAGS,
          summary: 'Revoke an enrollment link; devices already enrolled keep working',
          params: IdParams,
          response: { 200: Type.Object({ link: EnrollmentView }), ...E(404) },
        },
      },
      async (request) => {
        const c = callerOf(request);
        return { link: await endpoint.devices.revokeLink(c.org, request.params.id, actorOf(c)) };
      },
    );

    app.get(
      '/api/dashboard/endpoint/settings',
      {
        config: { auth: READ },
        schema: {
          operationId: 'endpointSettings',
          tags: TAGS,
          summary: 'Organization endpoint settings',
          response: { 200: SettingsView, ...E() },
        },
      },
      async (request) => endpoint.admin.settings(callerOf(request).org.id),
    );

    app.post(
      '/api/dashboard/endpoint/settings',
      {
        config: { auth: MANAGE },
        schema: {
          operationId: 'updateEndpointSettings',
          tags: TAGS,
          summary: 'Change organization endpoint settings (fields given replace the stored ones)',
          body: SettingsBody,
          response: { 200: SettingsView, ...E() },
        },
      },
      async (request) => {
        const c = callerOf(request);
        return endpoint.admin.updateSettings(c.org, request.body, actorOf(c));
      },
    );

    app.get(
      '/api/dashboard/endpoint/groups',
      {
        config: { auth: READ },
        schema: {
          operationId: 'listEndpointGroups',
          tags: TAGS,
          summary: 'Groups of users that group-scoped policies and enrollment links name',
          response: { 200: Type.Object({ groups: Type.Array(GroupView) }), ...E() },
        },
      },
      async (request) => ({ groups: await endpoint.admin.listGroups(callerOf(request).org.id) }),
    );

    app.post(
      '/api/dashboard/endpoint/groups',
      {
        config: { auth: MANAGE },
        schema: {
          operationId: 'createEndpointGroup',
          tags: TAGS,
          summary: 'Create a group of users',
          body: GroupBody,
          response: { 201: Type.Object({ group: GroupView }), ...E() },
        },
      },
      async (request, reply) => {
        const c = callerOf(request);
        return reply
          .status(201)
          .send({ group: await endpoint.admin.createGroup(c.org, request.body, actorOf(c)) });
      },
    );

    app.patch(
      '/api/dashboard/endpoint/groups/:id',
      {
        config: { auth: MANAGE },
        schema: {
          operationId: 'updateEndpointGroup',
          tags: TAGS,
          summary: 'Rename a group or replace its members (audited; bumps the config version)',
          params: IdParams,
          body: GroupPatch,
          response: { 200: Type.Object({ group: GroupView }), ...E(404) },
        },
      },
      async (request) => {
        const c = callerOf(request);
        return {
          group: await endpoint.admin.updateGroup(c.org, request.params.id, request.body, actorOf(c)),
        };
      },
    );

    app.delete(
      '/api/dashboard/endpoint/groups/:id',
      {
        config: { auth: MANAGE },
        schema: {
          operationId: 'deleteEndpointGroup',
          tags: TAGS,
          summary:
            'Delete a group (409 while a policy names it; devices and enrollment links bound to it are unbound)',
          params: IdParams,
          response: { 200: Type.Object({ success: Type.Boolean(), id: Type.String() }), ...E(404, 409) },
        },
      },
      async (request) => {
        const c = callerOf(request);
        return endpoint.admin.deleteGroup(c.org, request.params.id, actorOf(c));
      },
    );

    app.get(
      '/api/saas/endpoint/dns-config',
      {
        config: { auth: READ },
        schema: {
          operationId: 'dnsConfig',
          tags: TAGS,
          summary:
            'The DNS filtering configuration; until one is saved, the default in effect (off, updatedAt null)',
          response: { 200: DnsConfigView, ...E() },
        },
      },
      // Before a first save the configuration in effect is "no filtering": answered as such rather than 404, so
      // every reader (the DNS page, a script) reads one shape, and updatedAt null says nothing was saved.
      async (request) => (await endpoint.admin.dnsConfig(callerOf(request).org.id)) ?? defaultDnsConfig(),
    );

    app.post(
      '/api/saas/endpoint/dns-config',
      {
        config: { auth: MANAGE },
        schema: {
          operationId: 'setDnsConfig',
          tags: TAGS,
          summary: 'Set the DNS filtering configuration (the spec body); `parapet dns` serves it',
          body: DnsConfigBody,
          response: { 200: DnsConfigView, ...E() },
        },
      },
      async (request) => {
        const c = callerOf(request);
        return endpoint.admin.setDnsConfig(c.org, request.body, actorOf(c));
      },
    );

    app.get(
      '/api/saas/endpoint/dns-config/export',
      {
        config: { auth: READ },
        schema: {
          operationId: 'exportDnsConfig',
          tags: TAGS,
          summary: 'The block list as an RPZ zone, a hosts file, an AdGuard list or plain domains',
          querystring: ExportQuery,
          response: { 200: Type.String(), ...E(404) },
        },
      },
      async (request, reply) => {
        const orgId = callerOf(request).org.id;
        const st = await endpoint.state.get(orgId);
        if (!st.dns) throw new AppError('not_found', 'No DNS filtering configuration was set yet.');
        const format = request.query.format;
        const text = exportDnsConfig(st.dns, format, {
          serial: st.version,
          blockAddress: deps.blockAddress,
          generatedAt: st.updatedAt ?? '',
        });
        return reply
          .type(EXPORT_TYPES[format])
          .header('content-disposition', `attachment; filename="parapet-${format}.txt"`)
          .send(text);
      },
    );

    app.get(
      '/api/saas/endpoint/stats',
      {
        config: { auth: READ },
        schema: {
          operationId: 'endpointStats',
          tags: TAGS,
          summary: 'Endpoint monitoring statistics for 24h, 7d or 30d',
          querystring: StatsQuery,
          response: { 200: StatsView, ...E() },
        },
      },
      async (request) =>
        endpoint.activity.stats(callerOf(request).org.id, (request.query.period ?? '24h') as '24h'),
    );
  };
}
