import type { Clock } from '../../platform/clock/index.js';
import { newId, randomBase62, sha256Hex } from '../../platform/crypto/index.js';
import { AppError, invalid, notFound } from '../../platform/errors/index.js';
import type { Db, DialectName } from '../../platform/storage/index.js';
import type { DeviceTokens } from '../keys/index.js';
import { isPlan, planHasFeature } from '../plans/index.js';
import { normalizeHost } from './domains.js';
import { type Actor, type EndpointPublish, auditData } from './endpoint.events.js';
import { createEndpointRepo, type DeviceRow, type LinkRow } from './endpoint.repo.js';
import type {
  BindUserBody,
  DeviceListQuery,
  EnrollBody,
  EnrollmentBody,
  HeartbeatBody,
  RegisterBody,
  UnenrollBody,
} from './endpoint.schemas.js';
import type { HeartbeatRecorder } from './heartbeat.recorder.js';
import type { OrgStateStore } from './state.js';

export interface OrgRef {
  id: string;
  plan: string;
}

const CODE_PREFIX = 'enr_';
const CODE_CHARS = 32;

export type DeviceStatus = 'active' | 'offline' | 'revoked';

export function deviceView(row: DeviceRow, onlineSince: string) {
  const status: DeviceStatus =
    row.status === 'revoked'
      ? 'revoked'
      : row.last_seen_at && row.last_seen_at >= onlineSince
        ? 'active'
        : 'offline';
  return {
    id: row.id,
    name: row.name,
    os: row.os,
    browser: row.browser,
    extensionVersion: row.extension_version,
    userId: row.user_id,
    groupId: row.group_id,
    status,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
  };
}

function linkView(row: LinkRow, now: string) {
  const status = row.revoked_at
    ? 'revoked'
    : row.uses >= row.max_uses
      ? 'used_up'
      : row.expires_at <= now
        ? 'expired'
        : 'active';
  return {
    id: row.id,
    name: row.name,
    codePrefix: row.code_prefix,
    maxUses: row.max_uses,
    uses: row.uses,
    status: status as 'active' | 'expired' | 'used_up' | 'revoked',
    expiresAt: row.expires_at,
    groupId: row.group_id,
    userId: row.user_id,
    createdAt: row.created_at,
  };
}

/** Refuses a link that is revoked, used up or expired at `now`, saying which. */
function assertUsable(link: LinkRow, now: string): void {
  const status = linkView(link, now).status;
  if (status === 'active') return;
  const why = { revoked: 'was revoked', used_up: 'has no uses left', expired: 'has expired' }[status];
  throw new AppError('forbidden', `This enrollment link ${why}; ask an administrator for a new one.`);
}

/** Whether a reported extension version is allowed: exact versions or `1.4.*` prefixes; empty list allows all. */
export function versionAllowed(version: string | undefined | null, allowed: readonly string[]): boolean {
  if (allowed.length === 0 || !version) return true;
  return allowed.some((a) => (a.endsWith('.*') ? version.startsWith(a.slice(0, -1)) : version === a));
}

/**
 * The device lifecycle: register (API key) or enroll (link code) → heartbeat → config → revoke, rotate or
 * enroll again (docs/endpoint.md). Every device belongs to one organization and is reached only with it.
 */
export function createDevicesService(deps: {
  db: Db;
  clock: Clock;
  tokens: DeviceTokens;
  state: OrgStateStore;
  publish: EndpointPublish;
  recorder: HeartbeatRecorder;
  /** Seats of the organization's endpoint licence; null when no licence caps it. */
  seats: (orgId: string) => Promise<number | null>;
  dialect: DialectName;
}) {
  const { db, clock } = deps;
  const repo = createEndpointRepo(db);
  const postgres = deps.dialect === 'postgres';

  /**
   * The user a device is about to be bound to, in the binding's transaction and held there (PostgreSQL:
   * FOR SHARE; SQLite's write transactions run one at a time): a user removed concurrently is either gone
   * here (the binding is refused) or removed after this commit, and the removal then unbinds the device.
   */
  async function resolveUser(r: ReturnType<typeof createEndpointRepo>, orgId: string, idOrEmail: string) {
    const user = await r.user(orgId, idOrEmail, { lock: postgres });
    if (!user) throw invalid(`No user ${idOrEmail} in this organization.`);
    return user;
  }

  /**
   * Ends a device in the caller's transaction: status revoked, every token of it revoked, one
   * `audit.endpoint_device` event saying why (`revoked` by an administrator, `unenrolled` or `replaced` by
   * the device). False for a device already ended (also by a concurrent transaction): nothing is published.
   */
  async function endDevice(
    trx: Db,
    org: OrgRef,
    deviceId: string,
    by: Actor,
    action: 'revoked' | 'unenrolled' | 'replaced',
    detail: Record<string, unknown> = {},
  ): Promise<boolean> {
    if (!(await createEndpointRepo(trx).endDevice(org.id, deviceId, clock.now().toISOString()))) return false;
    await deps.tokens.revokeDevice(trx, org.id, deviceId);
    await deps.publish(
      trx,
      org,
      'audit.endpoint_device',
      auditData(action, { kind: 'device', id: deviceId }, by, detail),
    );
    return true;
  }

  async function retire(
    org: OrgRef,
    deviceId: string,
    by: Actor,
    action: 'revoked' | 'unenrolled' | 'replaced',
    detail: Record<string, unknown> = {},
  ) {
    const st = await deps.state.get(org.id);
    const onlineSince = new Date(clock.now().getTime() - st.settings.offlineAfterMinutes * 60_000).toISOString();
    return db.transaction().execute(async (trx) => {
      const r = createEndpointRepo(trx);
      const device = await r.device(org.id, deviceId);
      if (!device) throw notFound('Device');
      await endDevice(trx, org, deviceId, by, action, detail);
      return deviceView((await r.device(org.id, deviceId)) ?? device, onlineSince);
    });
  }

  /**
   * Re-enrollment: the device the enrolling client held a live token of is retired in the new device's
   * transaction (audit `replaced`, naming its successor), so it frees its seat before the seats are
   * counted. Only a device of the organization enrolled into is touched; any other token (revoked, of
   * another organization) retires nothing and the enrollment counts as a new device. Returns the id retired.
   */
  async function retireReplaced(trx: Db, org: OrgRef, previousToken: string, successorId: string) {
    const previous = await deps.tokens.liveIn(trx, previousToken);
    if (!previous || previous.orgId !== org.id) return null;
    const self = { userId: null, apiKeyId: null, deviceId: previous.deviceId };
    const ended = await endDevice(trx, org, previous.deviceId, self, 'replaced', { replacedBy: successorId });
    return ended ? previous.deviceId : null;
  }

  async function assertGroup(r: ReturnType<typeof createEndpointRepo>, orgId: string, groupId?: string) {
    if (groupId && !(await r.existingGroups(orgId, [groupId])).has(groupId)) {
      throw invalid(`No group ${groupId} in this organization.`);
    }
  }

  /**
   * Counts and takes a seat atomically: two enrollments racing for the last seat must not both see it free.
   * SQLite runs write transactions one at a time (BEGIN IMMEDIATE); on PostgreSQL, whose READ COMMITTED
   * transactions would both count the same devices, a transaction-scoped lock per organization makes the
   * retirement of a replaced device, the count and the insert of concurrent enrollments take turns.
   */
  async function lockSeats(r: ReturnType<typeof createEndpointRepo>, orgId: string, seats: number | null) {
    if (seats !== null && postgres) await r.lockSeats(orgId);
  }

  async function assertSeat(r: ReturnType<typeof createEndpointRepo>, orgId: string, seats: number | null) {
    if (seats === null) return;
    if ((await r.countActiveDevices(orgId)) >= seats) {
      throw new AppError(
        'forbidden',
        `All ${seats} seats of the organization's endpoint licence are in use; revoke a device or extend the licence.`,
      );
    }
  }

  /** What a new device needs to know, read before the transaction (SQLite has one connection: reads
   * through `db` inside a transaction would wait for it forever). */
  async function before(orgId: string) {
    return { seats: await deps.seats(orgId), st: await deps.state.get(orgId) };
  }

  /**
   * Creates the device and its first token in the caller's transaction; with `previousToken` (enroll) the
   * device it replaces is retired first, in the same transaction, so a re-enrollment needs no free seat.
   */
  async function createDevice(
    trx: Db,
    org: OrgRef,
    input: { name: string; os?: string; browser?: string; extensionVersion?: string },
    binding: { userId: string | null; groupId: string | null; via: string },
    pre: Awaited<ReturnType<typeof before>>,
    previousToken?: string,
  ) {
    const r = createEndpointRepo(trx);
    const id = newId('dev');
    await lockSeats(r, org.id, pre.seats);
    const replaced = previousToken ? await retireReplaced(trx, org, previousToken, id) : null;
    await assertSeat(r, org.id, pre.seats);
    const now = clock.now().toISOString();
    await r.insertDevice({
      id,
      org_id: org.id,
      name: input.name.trim(),
      os: input.os ?? null,
      browser: input.browser ?? null,
      extension_version: input.extensionVersion ?? null,
      group_id: binding.groupId,
      user_id: binding.userId,
      enrolled_via: binding.via,
      status: 'active',
      created_at: now,
      last_seen_at: now,
      revoked_at: null,
    });
    const token = await deps.tokens.issue(trx, org.id, id);
    const st = pre.st;
    return {
      deviceId: id,
      deviceToken: token.secret,
      organizationId: org.id,
      configVersion: st.version,
      heartbeatIntervalSeconds: st.settings.heartbeatIntervalSeconds,
      ...(replaced ? { replacedDeviceId: replaced } : {}),
    };
  }

  return {
    async register(org: OrgRef, body: RegisterBody, keyId: string) {
      const pre = await before(org.id);
      return db.transaction().execute(async (trx) => {
        const r = createEndpointRepo(trx);
        const who = body.userId ?? body.email;
        if (body.userId && body.email) throw invalid('Send userId or email, not both.');
        const user = who ? await resolveUser(r, org.id, who) : null;
        await assertGroup(r, org.id, body.groupId);
        return createDevice(
          trx,
          org,
          body,
          {
            userId: user?.id ?? null,
            groupId: body.groupId ?? null,
            via: `apiKey:${keyId}`,
          },
          pre,
        );
      });
    },

    /** Enrollment by link code: the code names its organization; unusable codes create nothing. */
    async enroll(body: EnrollBody, orgOf: (id: string) => Promise<OrgRef | undefined>) {
      const link = await repo.linkByCodeHash(sha256Hex(body.code.trim()));
      const now = clock.now().toISOString();
      if (!link) throw new AppError('unauthorized', 'The enrollment code is not valid.');
      assertUsable(link, now);
      const org = await orgOf(link.org_id);
      if (!org) throw new AppError('unauthorized', 'The enrollment code is not valid.');
      if (!isPlan(org.plan) || !planHasFeature(org.plan, 'endpoint')) {
        throw new AppError('plan_required', `Endpoint protection needs a higher plan than ${org.plan}.`);
      }
      const pre = await before(org.id);
      return db.transaction().execute(async (trx) => {
        const r = createEndpointRepo(trx);
        const at = clock.now().toISOString();
        // The link's user first, held as in bindUser: a removal of that user revokes the link and unbinds
        // the user's devices in one transaction, which is then either before this one or after it.
        const userGone = link.user_id !== null && !(await r.user(org.id, link.user_id, { lock: postgres }));
        if (userGone || !(await r.useLink(org.id, link.id, at))) {
          // Read again: revoked, expired or used up since the check above, and say which.
          assertUsable((await r.link(org.id, link.id)) ?? link, at);
          throw new AppError(
            'forbidden',
            userGone
              ? 'The user this enrollment link binds devices to is no longer in the organization; ask an administrator for a new link.'
              : 'This enrollment link has no uses left; ask an administrator for a new one.',
          );
        }
        return createDevice(
          trx,
          org,
          body,
          {
            userId: link.user_id,
            groupId: link.group_id,
            via: `link:${link.id}`,
          },
          pre,
          body.previousDeviceToken,
        );
      });
    },

    async createLink(org: OrgRef, body: EnrollmentBody, by: Actor) {
      const code = `${CODE_PREFIX}${randomBase62(CODE_CHARS)}`;
      const now = clock.now();
      const row: LinkRow = {
        id: newId('enl'),
        org_id: org.id,
        name: body.name?.trim() || 'Enrollment link',
        code_hash: sha256Hex(code),
        code_prefix: code.slice(0, 10),
        max_uses: body.maxUses ?? 1,
        uses: 0,
        expires_at: new Date(now.getTime() + (body.expiresInHours ?? 72) * 3_600_000).toISOString(),
        group_id: body.groupId ?? null,
        user_id: null,
        created_by: by.userId,
        created_at: now.toISOString(),
        revoked_at: null,
      };
      await db.transaction().execute(async (trx) => {
        const r = createEndpointRepo(trx);
        await assertGroup(r, org.id, body.groupId);
        if (body.userId) row.user_id = (await resolveUser(r, org.id, body.userId)).id;
        await r.insertLink(row);
        await deps.publish(
          trx,
          org,
          'audit.endpoint_enrollment',
          auditData('created', { kind: 'enrollment_link', id: row.id }, by, {
            codePrefix: row.code_prefix,
            maxUses: row.max_uses,
            expiresAt: row.expires_at,
          }),
        );
      });
      return { link: linkView(row, now.toISOString()), code };
    },

    async listLinks(orgId: string) {
      const now = clock.now().toISOString();
      return (await repo.links(orgId)).map((l) => linkView(l, now));
    },

    async revokeLink(org: OrgRef, id: string, by: Actor) {
      return db.transaction().execute(async (trx) => {
        const r = createEndpointRepo(trx);
        const link = await r.link(org.id, id);
        if (!link) throw notFound('Enrollment link');
        const now = clock.now().toISOString();
        if (!link.revoked_at) {
          await r.revokeLink(org.id, id, now);
          await deps.publish(
            trx,
            org,
            'audit.endpoint_enrollment',
            auditData('revoked', { kind: 'enrollment_link', id }, by),
          );
        }
        return linkView((await r.link(org.id, id)) ?? link, now);
      });
    },

    /** Binds a user to a device; a change of user is audited and bumps the config version. */
    async bindUser(org: OrgRef, deviceId: string, body: BindUserBody, by: Actor) {
      const who = body.userId ?? body.email;
      if (!who || (body.userId && body.email)) throw invalid('Send exactly one of userId or email.');
      return db.transaction().execute(async (trx) => {
        const r = createEndpointRepo(trx);
        const device = await r.device(org.id, deviceId);
        if (!device || device.status === 'revoked') throw notFound('Device');
        const user = await resolveUser(r, org.id, who);
        if (device.user_id !== user.id) {
          await r.updateDevice(org.id, deviceId, { user_id: user.id });
          await deps.publish(
            trx,
            org,
            'audit.endpoint_device',
            auditData(device.user_id ? 'user_rebound' : 'user_bound', { kind: 'device', id: deviceId }, by, {
              previousUserId: device.user_id,
              userId: user.id,
            }),
          );
          await deps.state.bump(trx, org.id);
        }
        return { deviceId, userId: user.id };
      });
    },

    /** Answers from memory; the device's facts and statistics are written by the recorder's next flush. */
    async heartbeat(orgId: string, deviceId: string, body: HeartbeatBody) {
      const now = clock.now();
      const set: Partial<DeviceRow> = { last_seen_at: now.toISOString() };
      if (body.extensionVersion) set.extension_version = body.extensionVersion;
      if (body.browser) set.browser = body.browser;
      if (body.os) set.os = body.os;
      const st = await deps.state.get(orgId);
      const stats = body.stats;
      const hour = now.toISOString().slice(0, 13);
      const deltas = Object.entries(stats?.interactions ?? {}).map(([domain, n]) => ({
        sourceId: deviceId,
        hour,
        domain: normalizeHost(domain),
        interactions: n,
        unapproved: 0,
        dlp: 0,
        policy: 0,
      }));
      const b = stats?.blocked;
      if (b && (b.unapproved_service || b.dlp_violation || b.policy_violation)) {
        // Blocks are reported by reason only: they are kept under the '*' service.
        deltas.push({
          sourceId: deviceId,
          hour,
          domain: '*',
          interactions: 0,
          unapproved: b.unapproved_service ?? 0,
          dlp: b.dlp_violation ?? 0,
          policy: b.policy_violation ?? 0,
        });
      }
      deps.recorder.record(orgId, deviceId, set, deltas);
      const allowed = st.settings.allowedExtensionVersions;
      // A heartbeat without extensionVersion still runs the version last reported (or registered): judged
      // on none, a device on a refused version was told it needed no update. Read only when it matters.
      const version =
        body.extensionVersion ??
        (allowed.length === 0
          ? undefined
          : (deps.recorder.pending(deviceId)?.extension_version ??
            (await repo.device(orgId, deviceId))?.extension_version));
      return {
        configVersion: st.version,
        heartbeatIntervalSeconds: st.settings.heartbeatIntervalSeconds,
        updateRequired: !versionAllowed(version, allowed),
        serverTime: now.toISOString(),
      };
    },

    /** A new token for the calling device; the old one stops working at once (in this process). */
    async rotate(orgId: string, deviceId: string) {
      return db.transaction().execute(async (trx) => {
        const device = await createEndpointRepo(trx).device(orgId, deviceId);
        if (!device || device.status === 'revoked') throw notFound('Device');
        await deps.tokens.revokeDevice(trx, orgId, deviceId);
        const token = await deps.tokens.issue(trx, orgId, deviceId);
        return { deviceId, deviceToken: token.secret };
      });
    },

    async revoke(org: OrgRef, deviceId: string, by: Actor) {
      return retire(org, deviceId, by, 'revoked');
    },

    /**
     * The device itself leaves (docs/endpoint.md, "unenroll"): the person at it unenrolled, or it enrolled
     * again and retires the old enrollment. The same end as a revocation in the dashboard (status revoked,
     * every token revoked, so it no longer counts as an active device or a seat), but told to the
     * administrators as what it is: an `audit.endpoint_device` event with action `unenrolled` or `replaced`.
     */
    async unenroll(org: OrgRef, deviceId: string, body: UnenrollBody) {
      const replaced = body.reason === 'replaced';
      // Only a device of this organization is named: the audit trail never points at an unknown id.
      const successor =
        replaced && body.replacedBy && body.replacedBy !== deviceId
          ? await repo.device(org.id, body.replacedBy)
          : undefined;
      // A "replacement" by no live device of this organization (enrolled elsewhere) leaves it as surely as
      // the user's own unenrollment: the setting covers both, or one field would get round it.
      const leaves = !successor || successor.status === 'revoked';
      if (leaves && !(await deps.state.get(org.id)).settings.allowUserUnenroll) {
        throw new AppError(
          'forbidden',
          'This organization does not let users unenroll their devices; ask an administrator to remove this device.',
        );
      }
      const detail = successor ? { replacedBy: successor.id } : {};
      const view = await retire(
        org,
        deviceId,
        { userId: null, apiKeyId: null, deviceId },
        replaced ? 'replaced' : 'unenrolled',
        detail,
      );
      return { deviceId, status: view.status };
    },

    async list(orgId: string, q: DeviceListQuery) {
      await deps.recorder.flush();
      const st = await deps.state.get(orgId);
      const onlineSince = new Date(
        clock.now().getTime() - st.settings.offlineAfterMinutes * 60_000,
      ).toISOString();
      if (
        q.lastSeenBefore &&
        q.lastSeenAfter &&
        Date.parse(q.lastSeenBefore) <= Date.parse(q.lastSeenAfter)
      ) {
        // An empty page would read as "no device", not as the mistake it is (reports refuse it too).
        throw invalid('lastSeenBefore must be later than lastSeenAfter.');
      }
      const page = q.page ?? 1;
      const perPage = q.perPage ?? 20;
      const { rows, total } = await repo.listDevices(
        orgId,
        {
          onlineSince,
          ...(q.status ? { status: q.status } : {}),
          ...(q.lastSeenBefore ? { before: new Date(q.lastSeenBefore).toISOString() } : {}),
          ...(q.lastSeenAfter ? { after: new Date(q.lastSeenAfter).toISOString() } : {}),
        },
        page,
        perPage,
      );
      return { items: rows.map((d) => deviceView(d, onlineSince)), total, page, perPage };
    },
  };
}

export type DevicesService = ReturnType<typeof createDevicesService>;
