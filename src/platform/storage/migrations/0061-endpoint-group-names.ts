import { type Kysely, sql } from 'kysely';

/**
 * Device group names are unique per organization whatever their case (docs/endpoint.md): "Ops", "ops" and
 * "OPS" read as one group in a scope picker, and a policy scoped to the wrong one is a silent mistake.
 * Groups that already share a name get " (2)", " (3)"… in creation order (the first keeps its name), then a
 * unique index on (org_id, lower(name)) holds the rule on SQLite and PostgreSQL alike. SQLite's lower() folds
 * ASCII letters only; the renaming below folds with JavaScript's, so it leaves nothing either index refuses.
 */
/** The table as this migration knows it (tables.ts follows the latest schema, not this point in time). */
interface Groups {
  endpoint_groups: { id: string; org_id: string; name: string; created_at: string };
}

export async function up(raw: Kysely<unknown>): Promise<void> {
  const db = raw as unknown as Kysely<Groups>;
  const rows = await db
    .selectFrom('endpoint_groups')
    .select(['id', 'org_id', 'name'])
    .orderBy('org_id')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const taken = new Set(rows.map((r) => `${r.org_id}\u0000${r.name.toLowerCase()}`));
  const kept = new Set<string>();
  for (const r of rows) {
    const key = `${r.org_id}\u0000${r.name.toLowerCase()}`;
    if (!kept.has(key)) {
      kept.add(key);
      continue;
    }
    let n = 2;
    let name = `${r.name.slice(0, 190)} (${n})`;
    while (taken.has(`${r.org_id}\u0000${name.toLowerCase()}`)) name = `${r.name.slice(0, 190)} (${++n})`;
    taken.add(`${r.org_id}\u0000${name.toLowerCase()}`);
    kept.add(`${r.org_id}\u0000${name.toLowerCase()}`);
    await db.updateTable('endpoint_groups').set({ name }).where('id', '=', r.id).execute();
  }
  await db.schema
    .createIndex('endpoint_groups_name')
    .on('endpoint_groups')
    .unique()
    .expression(sql`org_id, lower(name)`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('endpoint_groups_name').ifExists().execute();
}
