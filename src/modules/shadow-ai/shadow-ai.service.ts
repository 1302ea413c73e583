import type { Clock } from '../../platform/clock/index.js';
import { newId } from '../../platform/crypto/index.js';
import { AppError, notFound } from '../../platform/errors/index.js';
import { noValidPart } from '../../platform/http/index.js';
import type { Db } from '../../platform/storage/index.js';
import { PLAN_LIMITS, type Plan, isPlan } from '../plans/index.js';
import {
  type Catalog,
  type CatalogEntry,
  createDomainIndex,
  normalizeDomain,
  riskLevelOf,
  serviceCategory,
} from './catalog.js';
import {
  catalogChangedEvent,
  discoveredEvent,
  type ShadowAiPublish,
  statusChangedEvent,
} from './shadow-ai.events.js';
import { type CatalogRow, createShadowAiRepo, type ServiceRow } from './shadow-ai.repo.js';
import {
  type CatalogCategory,
  type CatalogQuery,
  type CatalogStatus,
  checkDetections,
  type GdprStatus,
  type HeuristicSignal,
  type OwnEntryBody,
  type ReportEnvelope,
  type ServiceListQuery,
  type ServiceStatus,
} from './shadow-ai.schemas.js';

export interface OrgRef {
  id: string;
  plan: string;
}

export interface EffectiveEntry extends CatalogEntry {
  source: 'catalog' | 'organization';
  overridden: boolean;
}

/** Report ids are remembered this long: a device retrying later than that is not expected. */
const REPORT_ID_DAYS = 30;
const DAY_MS = 86_400_000;
/** How a catalog decision carries over to the services of that entry. */
const SERVICE_STATUS_OF: Record<CatalogStatus, ServiceStatus> = {
  approved: 'approved',
  blocked: 'blocked',
  review: 'monitored',
};

const day = (iso: string) => iso.slice(0, 10);
const num = (v: unknown) => Number(v ?? 0);

/**
 * The users among usage keys, and apart from them the devices bound to no user (`dev:<device id>` keys):
 * counting those as users made the radar say "by 1 users" where no user was bound to any device.
 */
function usersAndUnbound(keys: Set<string>): { users: number; unboundDevices: number } {
  let unboundDevices = 0;
  for (const k of keys) if (k.startsWith('dev:')) unboundDevices++;
  return { users: keys.size - unboundDevices, unboundDevices };
}

/** How many services a plan shows; null: all (docs/shadow-ai.md, "Plans"). */
export function serviceLimit(plan: string): number | null {
  return isPlan(plan) ? PLAN_LIMITS[plan as Plan].shadowAiServices : PLAN_LIMITS.free.shadowAiServices;
}

/** The AI service catalog, the radar's discovered services, their statuses and statistics. */
export function createShadowAiService(deps: {
  db: Db;
  clock: Clock;
  catalog: Catalog;
  publish: ShadowAiPublish;
  /** The user a device is bound to (null: none), undefined when the device is unknown or revoked. */
  deviceUser: (orgId: string, deviceId: string) => Promise<string | null | undefined>;
  /** Bumps the endpoint config version in the transaction of a change of what devices enforce. */
  bumpConfigVersion: (trx: Db, orgId: string) => Promise<unknown>;
}) {
  const { db, clock, catalog } = deps;
  const shipped = new Map(catalog.entries.map((e) => [e.id, e]));

  function effectiveCatalog(rows: CatalogRow[]): EffectiveEntry[] {
    const overrides = new Map(rows.filter((r) => r.builtin === 1).map((r) => [r.id, r]));
    const out: EffectiveEntry[] = catalog.entries.map((e) => {
      const o = overrides.get(e.id);
      return { ...e, status: (o?.status as CatalogStatus) ?? e.status, source: 'catalog', overridden: !!o };
    });
    for (const r of rows) {
      if (r.builtin === 1) continue;
      out.push({
        id: r.id,
        name: r.name ?? r.id,
        domains: JSON.parse(r.domains ?? '[]') as string[],
        category: r.category as CatalogCategory,
        dataResidency: r.data_residency ?? 'Multi',
        gdprStatus: (r.gdpr_status as GdprStatus) ?? 'unknown',
        status: r.status as CatalogStatus,
        source: 'organization',
        overridden: false,
      });
    }
    return out;
  }

  async function orgCatalog(d: Db, orgId: string) {
    const entries = effectiveCatalog(await createShadowAiRepo(d).catalogRows(orgId));
    // Own entries are listed after the shipped ones, so for a domain in both the organization's wins.
    return { entries, find: createDomainIndex(entries) };
  }

  /** Which services a plan with a limit shows: the first ones by creation; undefined: all. */
  async function visibleIds(d: Db, org: OrgRef): Promise<string[] | undefined> {
    const limit = serviceLimit(org.plan);
    return limit === null ? undefined : createShadowAiRepo(d).firstServiceIds(org.id, limit);
  }

  function riskOf(entry: CatalogEntry | undefined, signals: HeuristicSignal[]) {
    return entry
      ? riskLevelOf({ kind: 'catalog', gdprStatus: entry.gdprStatus, category: entry.category })
      : riskLevelOf({ kind: 'heuristic', signals });
  }

  async function toViews(d: Db, orgId: string, rows: ServiceRow[]) {
    const repo = createShadowAiRepo(d);
    const users = await repo.uniqueUsers(
      orgId,
      rows.map((r) => r.id),
    );
    const { entries } = await orgCatalog(d, orgId);
    const byId = new Map(entries.map((e) => [e.id, e]));
    return rows.map((r) => {
      const entry = r.catalog_id ? byId.get(r.catalog_id) : undefined;
      return {
        id: r.id,
        name: r.name,
        domain: r.domain,
        category: r.category,
        status: r.status,
        riskLevel: r.risk_level,
        lastSeen: r.last_seen,
        firstSeen: r.first_seen,
        usageCount: num(r.usage_count),
        uniqueUsers: users.get(r.id)?.users ?? 0,
        unboundDevices: users.get(r.id)?.unboundDevices ?? 0,
        ...(entry ? { dataResidency: entry.dataResidency, gdprStatus: entry.gdprStatus } : {}),
        catalogId: r.catalog_id,
        detectedBy: r.detected_by,
        heuristicSignals: JSON.parse(r.heuristic_signals) as string[],
      };
    });
  }

  return {
    catalogVersion: catalog.version,

    // ---------- the extension's report ----------

    /**
     * Applies one detection report of a device, once per report id: a catalog domain adds usage to its
     * service (created on first sight with the organization's catalog decision), an unknown domain with at
     * least one heuristic signal creates a `discovered` service. Everything happens in one transaction,
     * scoped to the device's organization.
     */
    async report(org: OrgRef, deviceId: string, body: ReportEnvelope) {
      // Each detection is judged on its own: one the server cannot take (a malformed host, inconsistent
      // times) is named in `rejected` and the others are applied; when none can be, nothing is and the
      // report id stays unused.
      const { valid, rejected } = checkDetections(body.detections);
      if (valid.length === 0) throw noValidPart(rejected, 'detections', 'applied');
      const answer = <T extends object>(out: T) => (rejected.length === 0 ? out : { ...out, rejected });
      const userId = await deps.deviceUser(org.id, deviceId);
      if (userId === undefined) throw notFound('Device');
      const userKey = userId ?? `dev:${deviceId}`;
      const nowMs = clock.now().getTime();
      const now = new Date(nowMs).toISOString();
      // A device clock ahead of ours must not put usage in the future.
      const clamp = (iso: string) => new Date(Math.min(Date.parse(iso), nowMs)).toISOString();

      // Several detections of one domain in a batch are one: counts add, signals join, times widen.
      const merged = new Map<
        string,
        { count: number; signals: Set<HeuristicSignal>; firstSeen: string; lastSeen: string }
      >();
      for (const { part: d } of valid) {
        const domain = normalizeDomain(d.domain);
        const first = clamp(d.firstSeen);
        const last = clamp(d.lastSeen);
        const m = merged.get(domain);
        if (!m)
          merged.set(domain, {
            count: d.count,
            signals: new Set(d.signals ?? []),
            firstSeen: first,
            lastSeen: last,
          });
        else {
          m.count += d.count;
          for (const s of d.signals ?? []) m.signals.add(s);
          if (first < m.firstSeen) m.firstSeen = first;
          if (last > m.lastSeen) m.lastSeen = last;
        }
      }

      return db.transaction().execute(async (trx) => {
        const repo = createShadowAiRepo(trx);
        if (!(await repo.claimReport(org.id, deviceId, body.reportId, now))) {
          return answer({ reportId: body.reportId, duplicate: true, accepted: 0, ignored: 0, services: [] });
        }
        const { find } = await orgCatalog(trx, org.id);
        const existing = new Map(
          (await repo.servicesByDomain(org.id, [...merged.keys()])).map((s) => [s.domain, s]),
        );
        const limit = serviceLimit(org.plan);
        let count = limit === null ? 0 : await repo.countServices(org.id);
        const out: Array<{ domain: string; known: boolean; status: string }> = [];
        let ignored = 0;
        for (const [domain, d] of [...merged.entries()].sort(([a], [b]) => a.localeCompare(b))) {
          const entry = find(domain);
          const signals = [...d.signals].sort();
          let svc = existing.get(domain);
          if (!svc) {
            if (!entry && signals.length === 0) {
              ignored++;
              continue;
            }
            const row: ServiceRow = {
              id: newId('svc'),
              org_id: org.id,
              domain,
              name: entry?.name ?? domain,
              catalog_id: entry?.id ?? null,
              category: entry ? serviceCategory(entry.category) : 'auto-detect',
              status: entry ? SERVICE_STATUS_OF[entry.status] : 'discovered',
              risk_level: riskOf(entry, signals),
              detected_by: entry ? 'catalog' : 'heuristic',
              heuristic_signals: JSON.stringify(signals),
              usage_count: d.count,
              first_seen: d.firstSeen,
              last_seen: d.lastSeen,
              created_at: now,
              updated_at: now,
            };
            if (await repo.insertService(row)) {
              svc = row;
              // Beyond the plan's limit a service is stored but hidden, and announced to nobody.
              if (limit === null || count < limit) {
                await deps.publish(trx, org, 'shadow_ai.discovered', discoveredEvent(row, deviceId));
              }
              count++;
            } else {
              svc = (await repo.servicesByDomain(org.id, [domain]))[0];
              if (!svc) continue;
              await addUsage(svc);
            }
          } else await addUsage(svc);
          await repo.addDailyUsage(org.id, day(d.lastSeen), svc.id, userKey, d.count);
          out.push({ domain, known: !!entry, status: svc.status });

          async function addUsage(s: ServiceRow) {
            let joined: string[] | undefined;
            if (s.detected_by === 'heuristic') {
              const had = JSON.parse(s.heuristic_signals) as HeuristicSignal[];
              const all = [...new Set([...had, ...signals])].sort();
              if (all.length !== had.length) joined = all;
            }
            await repo.addUsage(org.id, s.id, {
              count: d.count,
              firstSeen: d.firstSeen,
              lastSeen: d.lastSeen,
              now,
              ...(joined
                ? { signals: JSON.stringify(joined), risk: riskOf(undefined, joined as HeuristicSignal[]) }
                : {}),
            });
          }
        }
        return answer({
          reportId: body.reportId,
          duplicate: false,
          accepted: out.length,
          ignored,
          services: out,
        });
      });
    },

    // ---------- services ----------

    async list(org: OrgRef, q: ServiceListQuery) {
      const page = q.page ?? 1;
      const perPage = q.perPage ?? 20;
      const onlyIds = await visibleIds(db, org);
      const repo = createShadowAiRepo(db);
      const filter = {
        ...(q.status ? { status: q.status } : {}),
        ...(q.category ? { category: q.category } : {}),
        ...(q.risk ? { risk: q.risk } : {}),
        ...(q.search ? { search: q.search } : {}),
        ...(onlyIds ? { onlyIds } : {}),
      };
      const [{ rows, total }, byStatus, all] = await Promise.all([
        repo.listServices(org.id, filter, page, perPage),
        repo.countByStatus(org.id, onlyIds),
        repo.countServices(org.id),
      ]);
      const shown = Object.values(byStatus).reduce((a, b) => a + b, 0);
      return {
        services: await toViews(db, org.id, rows),
        stats: {
          totalServices: shown,
          approved: byStatus['approved'] ?? 0,
          blocked: byStatus['blocked'] ?? 0,
          monitored: byStatus['monitored'] ?? 0,
          discovered: byStatus['discovered'] ?? 0,
          hiddenByPlan: all - shown,
          planLimit: serviceLimit(org.plan),
        },
        pagination: { total, page, perPage },
      };
    },

    /** The modify-status operation: any state to approved, blocked or monitored; audited; devices told at once. */
    async setStatus(
      org: OrgRef,
      id: string,
      status: 'approved' | 'blocked' | 'monitored',
      by: { userId: string | null },
    ) {
      return db.transaction().execute(async (trx) => {
        const repo = createShadowAiRepo(trx);
        const svc = await repo.service(org.id, id);
        if (!svc) throw notFound('Service');
        const onlyIds = await visibleIds(trx, org);
        if (onlyIds && !onlyIds.includes(svc.id)) {
          throw new AppError(
            'plan_required',
            `This service is beyond the ${serviceLimit(org.plan)} services the ${org.plan} plan shows; upgrade to PRO to act on it.`,
          );
        }
        if (svc.status !== status) {
          const now = clock.now().toISOString();
          await repo.setStatus(org.id, [svc.id], status, now);
          await deps.publish(trx, org, 'audit.shadow_ai_status', statusChangedEvent(svc, status, by));
          await deps.bumpConfigVersion(trx, org.id);
          svc.status = status;
          svc.updated_at = now;
        }
        return (await toViews(trx, org.id, [svc]))[0]!;
      });
    },

    /** Usage per day, per service and per user, and new discoveries, over the last `days` days (UTC). */
    async stats(org: OrgRef, days: number) {
      const nowMs = clock.now().getTime();
      const to = day(new Date(nowMs).toISOString());
      const from = day(new Date(nowMs - (days - 1) * DAY_MS).toISOString());
      const onlyIds = await visibleIds(db, org);
      const repo = createShadowAiRepo(db);
      const [usage, created] = await Promise.all([
        repo.usageRows(org.id, from, onlyIds),
        repo.servicesCreatedSince(org.id, `${from}T00:00:00.000Z`, onlyIds),
      ]);
      const perDay = new Map<string, { usage: number; users: Set<string>; newDiscoveries: number }>();
      for (let t = Date.parse(`${from}T00:00:00Z`); t <= nowMs; t += DAY_MS) {
        perDay.set(day(new Date(t).toISOString()), { usage: 0, users: new Set(), newDiscoveries: 0 });
      }
      const perService = new Map<string, { usage: number; users: Set<string> }>();
      const perUser = new Map<string, { usage: number; services: Set<string> }>();
      const allUsers = new Set<string>();
      let total = 0;
      for (const u of usage) {
        const c = num(u.count);
        total += c;
        allUsers.add(u.user_key);
        const dd = perDay.get(u.day);
        if (dd) {
          dd.usage += c;
          dd.users.add(u.user_key);
        }
        const s = perService.get(u.service_id) ?? { usage: 0, users: new Set() };
        s.usage += c;
        s.users.add(u.user_key);
        perService.set(u.service_id, s);
        const p = perUser.get(u.user_key) ?? { usage: 0, services: new Set() };
        p.usage += c;
        p.services.add(u.service_id);
        perUser.set(u.user_key, p);
      }
      for (const s of created) {
        const dd = perDay.get(day(s.created_at));
        if (dd) dd.newDiscoveries++;
      }
      const services = new Map(
        (await repo.servicesByIds(org.id, [...perService.keys()])).map((s) => [s.id, s]),
      );
      const TOP = 50;
      return {
        from,
        to,
        totals: {
          services: perService.size,
          usage: total,
          ...usersAndUnbound(allUsers),
          newDiscoveries: created.length,
        },
        byDay: [...perDay.entries()].map(([d, v]) => ({
          day: d,
          usage: v.usage,
          ...usersAndUnbound(v.users),
          newDiscoveries: v.newDiscoveries,
        })),
        byService: [...perService.entries()]
          .map(([id, v]) => {
            const s = services.get(id);
            return {
              serviceId: id,
              domain: s?.domain ?? '',
              name: s?.name ?? '',
              status: s?.status ?? '',
              usage: v.usage,
              ...usersAndUnbound(v.users),
            };
          })
          .sort((a, b) => b.usage - a.usage || a.serviceId.localeCompare(b.serviceId))
          .slice(0, TOP),
        byUser: [...perUser.entries()]
          .map(([user, v]) => ({ user, usage: v.usage, services: v.services.size }))
          .sort((a, b) => b.usage - a.usage || a.user.localeCompare(b.user))
          .slice(0, TOP),
        newDiscoveries: created
          .filter((s) => s.detected_by === 'heuristic')
          .slice(0, TOP)
          .map((s) => ({
            id: s.id,
            domain: s.domain,
            firstSeen: s.first_seen,
            heuristicSignals: JSON.parse(s.heuristic_signals) as string[],
          })),
      };
    },

    // ---------- catalog ----------

    async catalog(orgId: string, q: CatalogQuery) {
      const { entries } = await orgCatalog(db, orgId);
      const needle = q.search?.toLowerCase();
      const list = entries.filter(
        (e) =>
          (!q.category || e.category === q.category) &&
          (!q.status || e.status === q.status) &&
          (!needle || e.name.toLowerCase().includes(needle) || e.domains.some((d) => d.includes(needle))),
      );
      return { version: catalog.version, released: catalog.released, entries: list, total: list.length };
    },

    /** Sets the organization's status of a shipped or own entry; its services follow; devices told at once. */
    async setCatalogStatus(org: OrgRef, id: string, status: CatalogStatus, by: { userId: string | null }) {
      return db.transaction().execute(async (trx) => {
        const repo = createShadowAiRepo(trx);
        const rows = await repo.catalogRows(org.id);
        const own = rows.find((r) => r.id === id && r.builtin === 0);
        const base = shipped.get(id);
        if (!own && !base) throw notFound('Catalog entry');
        const now = clock.now().toISOString();
        if (own) await repo.upsertCatalogRow({ ...own, status, updated_at: now });
        else
          await repo.upsertCatalogRow({
            org_id: org.id,
            id,
            builtin: 1,
            status,
            name: null,
            domains: null,
            category: null,
            data_residency: null,
            gdpr_status: null,
            created_at: now,
            updated_at: now,
          });
        await followCatalog(trx, org.id, id, status, now);
        const entry = (await orgCatalog(trx, org.id)).entries.find((e) => e.id === id)!;
        await deps.publish(
          trx,
          org,
          'audit.shadow_ai_catalog',
          catalogChangedEvent('status_set', entry, by, catalog.version),
        );
        await deps.bumpConfigVersion(trx, org.id);
        return entry;
      });
    },

    async createEntry(org: OrgRef, body: OwnEntryBody, by: { userId: string | null }) {
      return db.transaction().execute(async (trx) => {
        const repo = createShadowAiRepo(trx);
        const domains = [...new Set(body.domains.map(normalizeDomain))].sort();
        const { entries } = await orgCatalog(trx, org.id);
        const taken = entries.find(
          (e) => e.source === 'organization' && e.domains.some((d) => domains.includes(d)),
        );
        if (taken) {
          throw new AppError('conflict', `A domain of this entry is already in your entry ${taken.id}.`);
        }
        const now = clock.now().toISOString();
        const row: CatalogRow = {
          org_id: org.id,
          id: newId('cat'),
          builtin: 0,
          status: body.status ?? 'review',
          name: body.name,
          domains: JSON.stringify(domains),
          category: body.category,
          data_residency: body.dataResidency ?? 'Multi',
          gdpr_status: body.gdprStatus ?? 'unknown',
          created_at: now,
          updated_at: now,
        };
        await repo.upsertCatalogRow(row);
        const entry = effectiveCatalog([row])[catalog.entries.length]!;
        // Services already seen on these domains now belong to the entry and follow its decision.
        const adopted = (await repo.servicesUnder(org.id, domains)).map((s) => s.id);
        await repo.relink(org.id, adopted, {
          catalog_id: entry.id,
          name: entry.name,
          category: serviceCategory(entry.category),
          risk_level: riskOf(entry, []),
          status: SERVICE_STATUS_OF[entry.status],
          updated_at: now,
        });
        await deps.publish(
          trx,
          org,
          'audit.shadow_ai_catalog',
          catalogChangedEvent('entry_created', entry, by, catalog.version),
        );
        await deps.bumpConfigVersion(trx, org.id);
        return entry;
      });
    },

    /** Deletes an own entry, or removes the override of a shipped one (back to the shipped status). */
    async deleteEntry(org: OrgRef, id: string, by: { userId: string | null }) {
      return db.transaction().execute(async (trx) => {
        const repo = createShadowAiRepo(trx);
        const row = (await repo.catalogRows(org.id)).find((r) => r.id === id);
        if (!row) throw notFound('Catalog entry');
        await repo.deleteCatalogRow(org.id, id);
        if (!row.builtin) await repo.unlinkCatalog(org.id, id, clock.now().toISOString());
        const name = row.name ?? shipped.get(id)?.name ?? id;
        await deps.publish(
          trx,
          org,
          'audit.shadow_ai_catalog',
          catalogChangedEvent(
            row.builtin ? 'override_removed' : 'entry_deleted',
            { id, name },
            by,
            catalog.version,
          ),
        );
        await deps.bumpConfigVersion(trx, org.id);
        return { deleted: true, id };
      });
    },

    /**
     * The `shadowAi` section of every device config: the catalog version, the domains it knows (the radar
     * reports only others as unknown), and the organization's decisions (docs/shadow-ai.md, "Enforcement").
     */
    async configSection(orgId: string) {
      const { entries } = await orgCatalog(db, orgId);
      const decision = new Map<string, 'allow' | 'block' | 'monitor'>();
      for (const e of entries) {
        if (e.status === 'review') continue;
        for (const d of e.domains) decision.set(d, e.status === 'approved' ? 'allow' : 'block');
      }
      for (const s of await createShadowAiRepo(db).decidedServices(orgId)) {
        decision.set(
          s.domain,
          s.status === 'approved' ? 'allow' : s.status === 'blocked' ? 'block' : 'monitor',
        );
      }
      const pick = (k: string) =>
        [...decision.entries()]
          .filter(([, v]) => v === k)
          .map(([d]) => d)
          .sort();
      // Each domain's category: the extension tokenizes by default only where a prompt is the point of the
      // page, not in document and creative tools (docs/extension.md). Own entries come last and win.
      const categories: Record<string, string> = {};
      for (const e of entries) for (const d of e.domains) categories[d] = e.category;
      return {
        catalogVersion: catalog.version,
        knownDomains: [...new Set(entries.flatMap((e) => e.domains))].sort(),
        categories: Object.fromEntries(Object.entries(categories).sort(([a], [b]) => a.localeCompare(b))),
        allowed: pick('allow'),
        blocked: pick('block'),
        monitored: pick('monitor'),
      };
    },

    /** Retention: report ids older than REPORT_ID_DAYS. */
    async purgeReportIds(): Promise<number> {
      return createShadowAiRepo(db).purgeReports(
        new Date(clock.now().getTime() - REPORT_ID_DAYS * DAY_MS).toISOString(),
      );
    },
  };

  async function followCatalog(
    trx: Db,
    orgId: string,
    catalogId: string,
    status: CatalogStatus,
    now: string,
  ) {
    const repo = createShadowAiRepo(trx);
    const ids = (await repo.servicesOfCatalog(orgId, catalogId)).map((s) => s.id);
    await repo.setStatus(orgId, ids, SERVICE_STATUS_OF[status], now);
  }
}

export type ShadowAiService = ReturnType<typeof createShadowAiService>;
