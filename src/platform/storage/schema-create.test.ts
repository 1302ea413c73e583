import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { openStorage, type Storage } from './index.js';

const url = process.env.TEST_DATABASE_URL;

// Runs where PostgreSQL is given (TEST_DATABASE_URL), as the project's other PostgreSQL suites do.
if (url)
  describe('a new DATABASE_SCHEMA, opened by replicas started together', () => {
    const schemas: string[] = [];
    after(async () => {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      for (const s of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
      await admin.end();
    });

    it('is created once and opened by every one of them', async () => {
      // CREATE SCHEMA IF NOT EXISTS races: several rounds of six at once met it every time when measured.
      for (let round = 0; round < 4; round++) {
        const schema = `sc_${randomBytes(5).toString('hex')}`;
        schemas.push(schema);
        const opened: Array<PromiseSettledResult<Storage>> = await Promise.allSettled(
          Array.from({ length: 6 }, () => openStorage({ databaseUrl: url as string, schema })),
        );
        for (const r of opened) if (r.status === 'fulfilled') await r.value.close();
        const refused: string[] = opened.filter((r) => r.status === 'rejected').map((r) => String(r.reason));
        assert.deepEqual(refused, [], `round ${round}`);
      }
    });
  });
