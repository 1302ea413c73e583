import { type ExpressionBuilder, sql } from 'kysely';
import type { Database, Db } from '../../platform/storage/index.js';
import type { ShadowAiCatalogTable, ShadowAiServicesTable } from '../../platform/storage/tables-shadow.js';

export type ServiceRow = ShadowAiServicesTable;
export type CatalogRow = ShadowAiCatalogTable;

export interface ServiceFilter {
  status?: string;
  category?: string;
  risk?: string;
  search?: string;
  /** Only these ids (the services a limited plan shows). */
  onlyIds?: string[];
}

const n = (v: unknown) => Number(v ?? 0);

function filtered(f: ServiceFilter) {
  return (eb: ExpressionBuilder<Database, 'shadow_ai_services'>) => {
    const parts = [];
    if (f.status) parts.push(eb('status', '=', f.status));
    if (f.category) parts.push(eb('category', '=', f.category));
    if (f.risk) parts.push(eb('risk_level', '=', f.risk));
    if (f.search) {
      // Plain substring: LIKE wildcards typed by the admin are taken literally.
      const needle = `%${f.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      parts.push(
        eb.or([
          eb(sql`lower(domain)`, 'like', sql`${needle} escape '\\'`),
          eb(sql`lower(name)`, 'like', sql`${needle} escape '\\'`),
        ]),
      );
    }
    if (f.onlyIds) parts.push(f.onlyIds.length ? eb('id', 'in', f.onlyIds) : sql<boolean>`1 = 0`);
    return eb.and(parts.length ? parts : [sql<boolean>`1 = 1`]);
  };
}

/** Shadow-AI tables; every method takes the organization first. */
export function createShadowAiRepo(db: Db) {
  return {
    // ---------- reports ----------
    /** False when this device already sent this report id. */
    async claimReport(orgId: string, deviceId: string, reportId: string, now: string): Promise<boolean> {
      const r = await db
        .insertInto('shadow_ai_reports')
        .values({ org_id: orgId, device_id: deviceId, report_id: reportId, received_at: now })
        .onConflict((oc) => oc.columns(['org_id', 'device_id', 'report_id']).doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
    async purgeReports(before: string): Promise<number> {
      const r = await db.deleteFrom('shadow_ai_reports').where('received_at', '<', before).executeTakeFirst();
      return Number(r.numDeletedRows);
    },

    // ---------- services ----------
    async servicesByDomain(orgId: string, domains: string[]): Promise<ServiceRow[]> {
      if (domains.length === 0) return [];
      return db
        .selectFrom('shadow_ai_services')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('domain', 'in', domains)
        .execute();
    },
    async service(orgId: string, id: string): Promise<ServiceRow | undefined> {
      return db
        .selectFrom('shadow_ai_services')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    /** Inserts unless the domain exists (a concurrent report created it); true when inserted. */
    async insertService(row: ServiceRow): Promise<boolean> {
      const r = await db
        .insertInto('shadow_ai_services')
        .values(row)
        .onConflict((oc) => oc.columns(['org_id', 'domain']).doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
    async addUsage(
      orgId: string,
      id: string,
      u: { count: number; firstSeen: string; lastSeen: string; signals?: string; risk?: string; now: string },
    ): Promise<void> {
      await db
        .updateTable('shadow_ai_services')
        .set((eb) => ({
          usage_count: sql`${eb.ref('usage_count')} + ${u.count}`,
          first_seen: sql`case when first_seen > ${u.firstSeen} then ${u.firstSeen} else first_seen end`,
          last_seen: sql`case when last_seen < ${u.lastSeen} then ${u.lastSeen} else last_seen end`,
          ...(u.signals !== undefined ? { heuristic_signals: u.signals } : {}),
          ...(u.risk !== undefined ? { risk_level: u.risk } : {}),
          updated_at: u.now,
        }))
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .execute();
    },
    async setStatus(orgId: string, ids: string[], status: string, now: string): Promise<void> {
      if (ids.length === 0) return;
      await db
        .updateTable('shadow_ai_services')
        .set({ status, updated_at: now })
        .where('org_id', '=', orgId)
        .where('id', 'in', ids)
        .execute();
    },
    async setRisk(orgId: string, ids: string[], risk: string, now: string): Promise<void> {
      if (ids.length === 0) return;
      await db
        .updateTable('shadow_ai_services')
        .set({ risk_level: risk, updated_at: now })
        .where('org_id', '=', orgId)
        .where('id', 'in', ids)
        .execute();
    },
    async servicesOfCatalog(orgId: string, catalogId: string): Promise<ServiceRow[]> {
      return db
        .selectFrom('shadow_ai_services')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('catalog_id', '=', catalogId)
        .execute();
    },
    /** Services on any of these domains or their subdomains. */
    async servicesUnder(orgId: string, domains: string[]): Promise<ServiceRow[]> {
      if (domains.length === 0) return [];
      return db
        .selectFrom('shadow_ai_services')
        .selectAll()
        .where('org_id', '=', orgId)
        .where((eb) => eb.or(domains.flatMap((d) => [eb('domain', '=', d), eb('domain', 'like', `%.${d}`)])))
        .execute();
    },
    async relink(
      orgId: string,
      ids: string[],
      set: Pick<ServiceRow, 'catalog_id' | 'name' | 'category' | 'risk_level' | 'status' | 'updated_at'>,
    ): Promise<void> {
      if (ids.length === 0) return;
      await db
        .updateTable('shadow_ai_services')
        .set(set)
        .where('org_id', '=', orgId)
        .where('id', 'in', ids)
        .execute();
    },
    async unlinkCatalog(orgId: string, catalogId: string, now: string): Promise<void> {
      await db
        .updateTable('shadow_ai_services')
        .set({ catalog_id: null, updated_at: now })
        .where('org_id', '=', orgId)
        .where('catalog_id', '=', catalogId)
        .execute();
    },
    async countServices(orgId: string): Promise<number> {
      const r = await db
        .selectFrom('shadow_ai_services')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('org_id', '=', orgId)
        .executeTakeFirst();
      return n(r?.n);
    },
    /** The first `limit` services by creation: what a plan with a service limit shows. */
    async firstServiceIds(orgId: string, limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom('shadow_ai_services')
        .select('id')
        .where('org_id', '=', orgId)
        .orderBy('created_at')
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((r) => r.id);
    },
    async listServices(orgId: string, f: ServiceFilter, page: number, perPage: number) {
      const base = db.selectFrom('shadow_ai_services').where('org_id', '=', orgId).where(filtered(f));
      const [rows, total] = await Promise.all([
        base
          .selectAll()
          .orderBy('last_seen', 'desc')
          .orderBy('id')
          .limit(perPage)
          .offset((page - 1) * perPage)
          .execute(),
        base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst(),
      ]);
      return { rows, total: n(total?.n) };
    },
    async countByStatus(orgId: string, onlyIds?: string[]) {
      const rows = await db
        .selectFrom('shadow_ai_services')
        .select(['status', (eb) => eb.fn.countAll().as('n')])
        .where('org_id', '=', orgId)
        .where(filtered(onlyIds ? { onlyIds } : {}))
        .groupBy('status')
        .execute();
      return Object.fromEntries(rows.map((r) => [r.status, n(r.n)])) as Record<string, number>;
    },
    /** Services whose status feeds the endpoint config (everything an administrator decided). */
    async decidedServices(orgId: string): Promise<Array<{ domain: string; status: string }>> {
      return db
        .selectFrom('shadow_ai_services')
        .select(['domain', 'status'])
        .where('org_id', '=', orgId)
        .where('status', 'in', ['approved', 'blocked', 'monitored'])
        .orderBy('domain')
        .execute();
    },

    // ---------- usage ----------
    async addDailyUsage(orgId: string, day: string, serviceId: string, userKey: string, count: number) {
      await db
        .insertInto('shadow_ai_usage')
        .values({ org_id: orgId, day, service_id: serviceId, user_key: userKey, count })
        .onConflict((oc) =>
          oc.columns(['org_id', 'day', 'service_id', 'user_key']).doUpdateSet((e) => ({
            count: sql`${e.ref('shadow_ai_usage.count')} + ${e.ref('excluded.count')}`,
          })),
        )
        .execute();
    },
    /**
     * Per service, the distinct users and the distinct devices bound to no user that used it: a usage key is
     * a user id, or `dev:<device id>` for an unbound device, which is not a user.
     */
    async uniqueUsers(
      orgId: string,
      serviceIds: string[],
    ): Promise<Map<string, { users: number; unboundDevices: number }>> {
      if (serviceIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('shadow_ai_usage')
        .select([
          'service_id',
          sql<number>`count(distinct case when user_key like 'dev:%' then null else user_key end)`.as(
            'users',
          ),
          sql<number>`count(distinct case when user_key like 'dev:%' then user_key end)`.as('devices'),
        ])
        .where('org_id', '=', orgId)
        .where('service_id', 'in', serviceIds)
        .groupBy('service_id')
        .execute();
      return new Map(rows.map((r) => [r.service_id, { users: n(r.users), unboundDevices: n(r.devices) }]));
    },
    usageRows(orgId: string, fromDay: string, onlyIds?: string[]) {
      let q = db
        .selectFrom('shadow_ai_usage')
        .select(['day', 'service_id', 'user_key', 'count'])
        .where('org_id', '=', orgId)
        .where('day', '>=', fromDay);
      if (onlyIds) q = onlyIds.length ? q.where('service_id', 'in', onlyIds) : q.where(sql<boolean>`1 = 0`);
      return q.execute();
    },
    async servicesCreatedSince(orgId: string, since: string, onlyIds?: string[]): Promise<ServiceRow[]> {
      return db
        .selectFrom('shadow_ai_services')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('created_at', '>=', since)
        .where(filtered(onlyIds ? { onlyIds } : {}))
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
    },
    async servicesByIds(orgId: string, ids: string[]): Promise<ServiceRow[]> {
      if (ids.length === 0) return [];
      return db
        .selectFrom('shadow_ai_services')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('id', 'in', ids)
        .execute();
    },

    // ---------- catalog decisions ----------
    async catalogRows(orgId: string): Promise<CatalogRow[]> {
      return db
        .selectFrom('shadow_ai_catalog')
        .selectAll()
        .where('org_id', '=', orgId)
        .orderBy('id')
        .execute();
    },
    async upsertCatalogRow(row: CatalogRow): Promise<void> {
      await db
        .insertInto('shadow_ai_catalog')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['org_id', 'id']).doUpdateSet({
            status: row.status,
            name: row.name,
            domains: row.domains,
            category: row.category,
            data_residency: row.data_residency,
            gdpr_status: row.gdpr_status,
            updated_at: row.updated_at,
          }),
        )
        .execute();
    },
    async deleteCatalogRow(orgId: string, id: string): Promise<boolean> {
      const r = await db
        .deleteFrom('shadow_ai_catalog')
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}
