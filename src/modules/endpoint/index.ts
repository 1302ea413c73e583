import type { Clock } from '../../platform/clock/index.js';
import { type Compute, inlineCompute } from '../../platform/compute/index.js';
import type { Db, DialectName } from '../../platform/storage/index.js';
import type { DeviceTokens } from '../keys/index.js';
import { createActivityService } from './activity.service.js';
import { createAdminService } from './admin.service.js';
import { createConfigService } from './config.service.js';
import { createDevicesService } from './devices.service.js';
import { createEndpointRepo } from './endpoint.repo.js';
import type { EndpointPublish } from './endpoint.events.js';
import { createHeartbeatRecorder } from './heartbeat.recorder.js';
import { createOrgStateStore } from './state.js';
import { createUserRemoval } from './user-removal.js';

export type { ConfigSection, ConfigSubject } from './config.service.js';
export type { EndpointAuditType, EndpointPublish } from './endpoint.events.js';
export type { DnsConfig } from './endpoint.schemas.js';
export { createDomainSet, minimalBases, normalizeHost } from './domains.js';
export { exportDnsConfig } from './dns-export.js';
export { createDnsForwarder } from './dns-forwarder.js';
export { parseForwarder, readForwarder } from './forwarders.js';
export type { DnsForwarder, DnsForwarderOptions } from './dns-forwarder.js';
export { endpointRoutes } from './endpoint.routes.js';
export { endpointAdminRoutes } from './endpoint-admin.routes.js';
export { DEFAULT_SETTINGS } from './state.js';

/** The endpoint product: devices, enrollment, policies, settings, DNS configuration, alerts, logs, statistics. */
export function createEndpoint(deps: {
  db: Db;
  /** PostgreSQL serializes seat counting with a lock; SQLite's write transactions are serial already. */
  dialect: DialectName;
  clock: Clock;
  tokens: DeviceTokens;
  publish: EndpointPublish;
  seats: (orgId: string) => Promise<number | null>;
  /** The analysis pool (blanking personal data in large log batches); in-process when absent. */
  compute?: Compute;
  /** Told when heartbeat facts and statistics of an organization could not be written (they are kept). */
  onRecorderError?: (err: unknown, info: { orgId: string; devices: number; statsRows: number }) => void;
}) {
  const state = createOrgStateStore({ db: deps.db, clock: deps.clock });
  const recorder = createHeartbeatRecorder({
    db: deps.db,
    ...(deps.onRecorderError ? { onWriteError: deps.onRecorderError } : {}),
  });
  const base = { db: deps.db, clock: deps.clock, state, publish: deps.publish };
  return {
    state,
    devices: createDevicesService({
      ...base,
      recorder,
      tokens: deps.tokens,
      seats: deps.seats,
      dialect: deps.dialect,
    }),
    admin: createAdminService({ ...base, dialect: deps.dialect }),
    config: createConfigService({ db: deps.db, state }),
    activity: createActivityService({ ...base, recorder, compute: deps.compute ?? inlineCompute }),
    /** Writes the heartbeats still in memory; call before closing the database. */
    close: () => recorder.close(),
    /** The user a device is bound to (null: none); undefined for an unknown or revoked device. */
    async deviceUser(orgId: string, deviceId: string): Promise<string | null | undefined> {
      const d = await createEndpointRepo(deps.db).device(orgId, deviceId);
      return !d || d.status === 'revoked' ? undefined : d.user_id;
    },
    /** Whether the device exists in the organization (revoked ones included). */
    async deviceExists(orgId: string, deviceId: string): Promise<boolean> {
      return (await createEndpointRepo(deps.db).device(orgId, deviceId)) !== undefined;
    },
    /**
     * For the orgs module's user removal, in its transaction: unbinds the user's devices, takes the user out
     * of groups, revokes links bound to the user, and drops the user from policy scopes (user-removal.ts).
     */
    forgetUser: createUserRemoval({ clock: deps.clock, state, publish: deps.publish, dialect: deps.dialect }),
    /** For other modules whose config section changed: call in the transaction of the change. */
    bumpConfigVersion: (trx: Db, orgId: string) => state.bump(trx, orgId),
  };
}

export type Endpoint = ReturnType<typeof createEndpoint>;
