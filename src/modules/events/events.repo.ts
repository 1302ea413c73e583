import { type Db, runStatement } from '../../platform/storage/index.js';

export interface StoredEvent {
  id: string;
  type: string;
  created: string;
  data: Record<string, unknown>;
}

export function createEventsRepo(db: Db) {
  return {
    async insert(orgId: string, ev: StoredEvent): Promise<void> {
      // A statement run as it is: this runs inside every producer's transaction (see dlp.repo.ts).
      await runStatement(
        db,
        'insert into events (id, org_id, type, created_at, data) values (?, ?, ?, ?, ?)',
        [ev.id, orgId, ev.type, ev.created, JSON.stringify(ev.data)],
      );
    },
    async list(
      orgId: string,
      opts: { type?: string; limit: number; offset?: number },
    ): Promise<StoredEvent[]> {
      let q = db.selectFrom('events').selectAll().where('org_id', '=', orgId);
      if (opts.type) q = q.where('type', '=', opts.type);
      const rows = await q
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(opts.limit)
        .offset(opts.offset ?? 0)
        .execute();
      return rows.map((r) => ({ id: r.id, type: r.type, created: r.created_at, data: JSON.parse(r.data) }));
    },
    async get(orgId: string, id: string): Promise<StoredEvent | undefined> {
      const r = await db
        .selectFrom('events')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
      return r && { id: r.id, type: r.type, created: r.created_at, data: JSON.parse(r.data) };
    },
  };
}
