import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CompiledQuery, createQueryId, type KyselyPlugin, type RootOperationNode, sql } from 'kysely';
import { createReportsRepo } from '../../src/modules/reports/reports.repo.js';
import type { Db } from '../../src/platform/storage/index.js';
import { type TestServer, startTestServer } from '../support/harness.js';

let t: TestServer;
let db: Db;

before(async () => {
  t = await startTestServer();
  db = t.ctx.storage.db;
});
after(async () => {
  await t.close();
});

const TYPES = ['detection.created', 'dlp.violation'];
const FROM = '2026-03-01T00:00:00.000Z';
const TO = '2026-04-01T00:00:00.000Z';

/** `n` events of the organization: timestamps in groups of `same` (equal to the millisecond), ids shuffled. */
async function seed(orgId: string, n: number, same: number, type = 'detection.created'): Promise<string[]> {
  const rows = Array.from({ length: n }, (_, i) => ({
    // ids out of creation order, so the tie-break on id is what orders a group
    id: `evt_${orgId.slice(-6)}_${String((i * 7919) % n).padStart(6, '0')}`,
    org_id: orgId,
    type,
    data: '{}',
    created_at: new Date(Date.parse(FROM) + 60_000 * Math.floor(i / same)).toISOString(),
  }));
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('events')
      .values(rows.slice(i, i + 500))
      .execute();
  return rows.map((r) => r.id);
}

/** Every event of the report period, page after page of `limit`, as the report builder walks them. */
async function walk(orgId: string, limit: number, repo = createReportsRepo(db)) {
  const seen: { id: string; created_at: string }[] = [];
  let cursor: { createdAt: string; id: string } | null = null;
  for (;;) {
    const page = await repo.eventsPage(orgId, TYPES, FROM, TO, cursor, limit);
    seen.push(...page.map((r) => ({ id: r.id, created_at: r.created_at })));
    const last = page.at(-1);
    if (!last || page.length < limit) return seen;
    cursor = { createdAt: last.created_at, id: last.id };
  }
}

describe('report event paging (keyset)', () => {
  it('returns every event of the period exactly once across pages that split equal timestamps', async () => {
    const org = await t.tenant();
    const ids = await seed(org.org.id, 103, 10);
    // Outside the report: another type, another organization, before and at the end of the period.
    await db
      .insertInto('events')
      .values([
        { id: 'evt_x_type', org_id: org.org.id, type: 'api_key.created', data: '{}', created_at: FROM },
        {
          id: 'evt_x_before',
          org_id: org.org.id,
          type: 'dlp.violation',
          data: '{}',
          created_at: '2026-02-28T23:59:59.999Z',
        },
        { id: 'evt_x_end', org_id: org.org.id, type: 'dlp.violation', data: '{}', created_at: TO },
      ])
      .execute();
    const other = await t.tenant();
    await seed(other.org.id, 20, 20);
    for (const limit of [1, 3, 10, 7, 200]) {
      const seen = await walk(org.org.id, limit);
      assert.equal(seen.length, 103, `page size ${limit}`);
      assert.deepEqual(seen.map((r) => r.id).sort(), [...ids].sort(), `page size ${limit}: each event once`);
      const order = [...seen].sort((a, b) =>
        a.created_at === b.created_at ? (a.id < b.id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1,
      );
      assert.deepEqual(seen, order, `page size ${limit}: in (created_at, id) order`);
    }
  });

  it("a later page starts its index range at the cursor instead of re-reading the period's earlier events", async () => {
    const org = await t.tenant();
    await seed(org.org.id, 3_000, 4);
    if (t.ctx.storage.dialect === 'postgres') await sql`ANALYZE events`.execute(db);
    // The query of the last pages, as the repository builds it, captured before it runs.
    let captured: RootOperationNode | null = null;
    const capture: KyselyPlugin = {
      transformQuery: (args) => {
        captured = args.node;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const repo = createReportsRepo(db.withPlugin(capture));
    const all = await walk(org.org.id, 500);
    assert.equal(all.length, 3_000);
    // A page in the middle: before, a plan either re-read the 1,500 events before the cursor (index scan,
    // filtered) or fetched the 1,500 after it to sort them (bitmap OR); either way a page cost the period.
    const cursor = all[1_499]!;
    await repo.eventsPage(org.org.id, TYPES, FROM, TO, { createdAt: cursor.created_at, id: cursor.id }, 50);
    assert.ok(captured, 'query captured');
    const q = db.getExecutor().compileQuery(captured, createQueryId());
    if (t.ctx.storage.dialect === 'postgres') {
      // Rows the plan's scans produced or threw away (counted by the executor, not timed): with the range
      // starting at the cursor in the page's order, the page and the few that share the cursor's timestamp.
      const res = await db.executeQuery<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
        CompiledQuery.raw(`EXPLAIN (ANALYZE, FORMAT JSON) ${q.sql}`, [...q.parameters]),
      );
      const plan = res.rows[0]!['QUERY PLAN'][0]!.Plan;
      const read = rowsRead(plan);
      assert.ok(read <= 50 + 10, `rows read for a page of 50: ${read}\n${JSON.stringify(plan)}`);
    } else {
      const res = await db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`EXPLAIN QUERY PLAN ${q.sql}`, [...q.parameters]),
      );
      // SQLite has no row counts in its plans: the range itself must start at the cursor (`created_at>?`,
      // the `>=` bound) and the order must come from the index, not from sorting what the range holds.
      const plan = res.rows.map((r) => r.detail);
      assert.ok(
        plan.some((d) =>
          /^SEARCH events USING (COVERING )?INDEX \w+ \(org_id=\? AND created_at>\? AND created_at<\?\)$/.test(
            d,
          ),
        ),
        plan.join('\n'),
      );
      assert.ok(!plan.some((d) => d.includes('TEMP B-TREE')), plan.join('\n'));
    }
  });
});

interface PlanNode {
  'Node Type': string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** Rows the plan's table scans returned or discarded (a bitmap's index scans feed its heap scan: not twice). */
function rowsRead(node: PlanNode): number {
  const scan = /Scan$/.test(node['Node Type']) && node['Node Type'] !== 'Bitmap Index Scan';
  const own = scan
    ? (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1) +
      (node['Rows Removed by Filter'] ?? 0) +
      (node['Rows Removed by Index Recheck'] ?? 0)
    : 0;
  return own + (node.Plans ?? []).reduce((n, p) => n + rowsRead(p), 0);
}
