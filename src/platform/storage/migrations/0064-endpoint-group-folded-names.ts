import { type Kysely, sql } from 'kysely';
import { foldName } from '../fold.js';

/**
 * Device group names are unique per organization "whatever their case" (docs/endpoint.md), but 0061's index
 * on lower(name) folded ASCII letters only on SQLite ("Équipe" and "équipe" were two groups there, one on
 * PostgreSQL) and on both missed "Straße" / "STRASSE". The folded name is now computed in JavaScript
 * (foldName: NFKC and full case mapping) and stored in name_folded, which the unique index holds on both
 * stores. Existing groups whose folded names meet are renamed the way 0061 did: in creation order the first
 * keeps its name, the others get " (2)", " (3)"…, the first suffix no group of the organization holds.
 */
/** The table as this migration knows it (tables.ts follows the latest schema, not this point in time). */
interface Groups {
  endpoint_groups: { id: string; org_id: string; name: string; created_at: string; name_folded: string };
}

export async function up(raw: Kysely<unknown>): Promise<void> {
  const db = raw as unknown as Kysely<Groups>;
  await db.schema
    .alterTable('endpoint_groups')
    .addColumn('name_folded', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  // Creation order within each organization (ids break ties), as 0061 renamed.
  const rows = await db
    .selectFrom('endpoint_groups')
    .select(['id', 'org_id', 'name'])
    .orderBy(sql`org_id, created_at, id`)
    .execute();
  const keyOf = (orgId: string, name: string) => `${orgId}\u0000${foldName(name)}`;
  // Every name an organization holds, so that a new suffix never lands on one that comes later.
  const held = new Set(rows.map((r) => keyOf(r.org_id, r.name)));
  const claimed = new Set<string>();
  for (const r of rows) {
    let name = r.name;
    if (claimed.has(keyOf(r.org_id, name))) {
      const stem = r.name.slice(0, 190);
      let n = 2;
      while (held.has(keyOf(r.org_id, `${stem} (${n})`))) n++;
      name = `${stem} (${n})`;
      held.add(keyOf(r.org_id, name));
    }
    claimed.add(keyOf(r.org_id, name));
    await db
      .updateTable('endpoint_groups')
      .set({ name, name_folded: foldName(name) })
      .where('id', '=', r.id)
      .execute();
  }
  await db.schema.dropIndex('endpoint_groups_name').ifExists().execute();
  await db.schema
    .createIndex('endpoint_groups_name_folded')
    .on('endpoint_groups')
    .unique()
    .columns(['org_id', 'name_folded'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('endpoint_groups_name_folded').ifExists().execute();
  await db.schema.alterTable('endpoint_groups').dropColumn('name_folded').execute();
}
