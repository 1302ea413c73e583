import type { Clock } from '../../platform/clock/index.js';
import type { Compute } from '../../platform/compute/index.js';
import { newId } from '../../platform/crypto/index.js';
import { notFound } from '../../platform/errors/index.js';
import { noValidPart } from '../../platform/http/index.js';
import type { Db } from '../../platform/storage/index.js';
import { toPolicy } from './admin.service.js';
import { normalizeHost } from './domains.js';
import { alertEventData, type EndpointPublish } from './endpoint.events.js';
import { createEndpointRepo, type StatsDelta } from './endpoint.repo.js';
import {
  type AlertBody,
  checkLogEntries,
  type LogEnvelope,
  PERIODS,
  type Period,
} from './endpoint.schemas.js';
import type { OrgRef } from './devices.service.js';
import { blankDetails, blankPreview } from './blanking.js';
import type { HeartbeatRecorder } from './heartbeat.recorder.js';
import type { OrgStateStore } from './state.js';

/** An organization with its settings (its DLP settings decide what is blanked). */
export type OrgWithSettings = OrgRef & { settings: Record<string, unknown> };

/** Logs are kept this long when no enabled policy sets rules.logging.retentionDays. */
export const DEFAULT_LOG_RETENTION_DAYS = 90;
const TOP_USERS = 10;

/** Alerts, activity logs, their retention, and the endpoint monitoring statistics. */
/**
 * When a device says something happened, never after the server received it: a device clock running ahead
 * (an alert "of 2030") would otherwise sort first in every list and fall outside every report period. The
 * same rule as shadow-AI reports' first and last sightings.
 */
function reportedAt(iso: string, now: string): string {
  const t = Date.parse(iso);
  return t > Date.parse(now) ? now : new Date(t).toISOString();
}

export function createActivityService(deps: {
  db: Db;
  clock: Clock;
  state: OrgStateStore;
  publish: EndpointPublish;
  recorder: HeartbeatRecorder;
  /** Runs the blanking of personal data (blanking.ts) off the event loop when a batch is large. */
  compute: Compute;
}) {
  const { db, clock } = deps;
  const repo = createEndpointRepo(db);

  return {
    /**
     * Stores an alert once per client id and publishes dlp.blocked or dlp.violation with it; personal data
     * left in its preview is blanked before either.
     */
    async alert(org: OrgWithSettings, deviceId: string, sent: AlertBody, sourceIp: string) {
      const body = {
        ...sent,
        redactedPreview: await blankPreview(deps.compute, org.settings, sent.redactedPreview),
      };
      return db.transaction().execute(async (trx) => {
        const r = createEndpointRepo(trx);
        const device = await r.device(org.id, deviceId);
        if (!device || device.status === 'revoked') throw notFound('Device');
        const id = newId('alr');
        const now = clock.now().toISOString();
        const { type, data } = alertEventData(id, body, { deviceId, userId: device.user_id, sourceIp });
        const stored = await r.insertAlert({
          id,
          org_id: org.id,
          device_id: deviceId,
          client_id: body.id,
          user_id: device.user_id,
          type: body.type,
          dlp_domain: String(data['domain']),
          service_domain: normalizeHost(body.domain),
          action: body.action,
          severity: String(data['severity']),
          findings_count: body.findingsCount,
          redacted_preview: body.redactedPreview,
          occurred_at: body.occurredAt ? reportedAt(body.occurredAt, now) : now,
          created_at: now,
        });
        if (!stored) {
          const existing = await r.alertByClientId(org.id, deviceId, body.id);
          return { id: existing?.id ?? id, duplicate: true, event: null };
        }
        const ev = (await deps.publish(trx, org, type, data)) as { id: string } | null;
        return { id, duplicate: false, event: ev ? type : null };
      });
    },

    /**
     * Stores the valid entries of a batch; entries whose client id was stored before are skipped, so a
     * retried upload adds nothing. Each entry is checked on its own: an invalid one is answered in
     * `rejected` (its index and why) and the others are stored; when none is valid, nothing is and the
     * batch is refused (400, with `rejected`). Personal data in the details is blanked first.
     */
    async log(org: OrgWithSettings, deviceId: string, body: LogEnvelope) {
      const orgId = org.id;
      const { valid, rejected } = checkLogEntries(body.entries);
      if (valid.length === 0) throw noValidPart(rejected, 'entries', 'stored');
      const seen = new Set<string>();
      const entries = valid.filter((e) => !seen.has(e.id) && seen.add(e.id));
      const details = await blankDetails(
        deps.compute,
        org.settings,
        entries.map((e) => e.detail),
      );
      const now = clock.now().toISOString();
      const rows = entries.map((e, i) => ({
        org_id: orgId,
        device_id: deviceId,
        client_id: e.id,
        kind: e.kind,
        service_domain: e.domain === undefined ? null : normalizeHost(e.domain),
        detail: JSON.stringify(details[i] ?? {}),
        occurred_at: reportedAt(e.occurredAt, now),
        created_at: now,
      }));
      const stored = await db.transaction().execute(async (trx) => {
        const r = createEndpointRepo(trx);
        const device = await r.device(orgId, deviceId);
        if (!device || device.status === 'revoked') throw notFound('Device');
        return r.insertLogs(rows);
      });
      const counts = { received: body.entries.length, stored, duplicates: valid.length - stored };
      return rejected.length === 0 ? counts : { ...counts, rejected };
    },

    /**
     * Retention job: each organization's logs are kept for the longest retentionDays among its enabled
     * policies that set one (a log may fall under several; the longest promise wins), else the default.
     */
    async purgeLogs(): Promise<number> {
      let removed = 0;
      for (const orgId of await repo.orgsWithLogs()) {
        const days = (await repo.policies(orgId))
          .map(toPolicy)
          .filter((p) => p.enabled && p.rules.logging?.retentionDays)
          .map((p) => p.rules.logging?.retentionDays ?? 0);
        const keep = days.length > 0 ? Math.max(...days) : DEFAULT_LOG_RETENTION_DAYS;
        removed += await repo.purgeLogs(
          orgId,
          new Date(clock.now().getTime() - keep * 86_400_000).toISOString(),
        );
      }
      return removed;
    },

    /** Counts from outside the devices (the DNS forwarder): blocked queries per domain and hour. */
    async addExternalStats(orgId: string, deltas: StatsDelta[]) {
      await repo.addStats(orgId, deltas);
    },

    /** The spec's Endpoint monitoring statistics. */
    async stats(orgId: string, period: Period) {
      await deps.recorder.flush();
      const st = await deps.state.get(orgId);
      const now = clock.now().getTime();
      const fromHour = new Date(now - (PERIODS[period] - 1) * 3_600_000).toISOString().slice(0, 13);
      const onlineSince = new Date(now - st.settings.offlineAfterMinutes * 60_000).toISOString();
      const counts = await repo.deviceCounts(orgId, onlineSince);
      const byService: Record<string, number> = {};
      const byReason = { unapproved_service: 0, dlp_violation: 0, policy_violation: 0 };
      let interactions = 0;
      for (const row of await repo.statsByDomain(orgId, fromHour)) {
        const n = Number(row.interactions);
        if (row.service_domain !== '*' && n > 0) byService[row.service_domain] = n;
        interactions += n;
        byReason.unapproved_service += Number(row.unapproved);
        byReason.dlp_violation += Number(row.dlp);
        byReason.policy_violation += Number(row.policy);
      }
      const topUsers = (await repo.statsByUser(orgId, fromHour, TOP_USERS)).map((u) => ({
        userId: u.user_id as string,
        interactions: Number(u.interactions),
        blocked: Number(u.blocked),
      }));
      return {
        period,
        endpoints: { total: counts.total, active: counts.active, offline: counts.total - counts.active },
        interactions: { total: interactions, byService },
        blocked: {
          total: byReason.unapproved_service + byReason.dlp_violation + byReason.policy_violation,
          byReason,
        },
        topUsers,
      };
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;
