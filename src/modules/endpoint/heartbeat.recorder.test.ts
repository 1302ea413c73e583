import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { systemClock } from '../../platform/clock/index.js';
import { openStorage, type Storage } from '../../platform/storage/index.js';
import { createOrgsService } from '../orgs/index.js';
import { createHeartbeatRecorder } from './heartbeat.recorder.js';

const HOUR = '2026-06-01T09';
const SEEN = { last_seen_at: '2026-06-01T09:00:00.000Z' };
const delta = (domain: string, interactions: number) => ({
  sourceId: 'dev_x',
  hour: HOUR,
  domain,
  interactions,
  unapproved: 0,
  dlp: 0,
  policy: 0,
});

describe('heartbeat recorder', () => {
  let storage: Storage;
  let dir: string;
  const interactions = async (orgId: string) =>
    Number(
      (
        await sql<{
          n: number | null;
        }>`select sum(interactions) as n from endpoint_stats where org_id = ${orgId}`.execute(storage.db)
      ).rows[0]?.n ?? 0,
    );

  let bad: string;
  let good: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'parapet-heartbeats-'));
    storage = await openStorage({ sqliteFile: join(dir, 'hb.db') });
    await storage.migrate();
    const orgs = createOrgsService({
      db: storage.db,
      clock: systemClock,
      publish: async () => null,
      sessionTtlHours: 1,
      revokeAdminKeysBy: async () => () => {},
    });
    bad = (await orgs.createOrg({ name: 'Bad', plan: 'business' })).id;
    good = (await orgs.createOrg({ name: 'Good', plan: 'business' })).id;
  });
  after(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("writes the other organizations when one organization's rows fail, reports it, and writes those later", async () => {
    // A database that refuses one organization's statistics (as a constraint would, or an organization
    // deleted meanwhile). The whole batch used to fail and be put back: no organization was recorded again.
    await sql`create trigger refuse_org before insert on endpoint_stats when new.org_id = ${sql.lit(bad)}
      begin select raise(abort, 'refused for the test'); end`.execute(storage.db);
    const errors: Array<{ orgId: string; statsRows: number }> = [];
    const recorder = createHeartbeatRecorder({
      db: storage.db,
      onWriteError: (_err, info) => errors.push({ orgId: info.orgId, statsRows: info.statsRows }),
    });
    recorder.record(bad, 'dev_b', SEEN, [delta('chat.example', 2)]);
    recorder.record(good, 'dev_g', SEEN, [delta('chat.example', 3)]);
    await recorder.flush();
    assert.equal(await interactions(good), 3);
    assert.equal(await interactions(bad), 0);
    assert.deepEqual(errors, [{ orgId: bad, statsRows: 1 }]);

    // Still failing: the good organization's next heartbeats are written all the same.
    recorder.record(good, 'dev_g', SEEN, [delta('chat.example', 1)]);
    recorder.record(bad, 'dev_b', SEEN, [delta('chat.example', 5)]);
    await recorder.flush();
    assert.equal(await interactions(good), 4);

    await sql`drop trigger refuse_org`.execute(storage.db);
    await recorder.close();
    assert.equal(await interactions(bad), 7, 'kept and summed, then written once the database accepts it');
  });
});
