import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { openStorage, type Storage } from './index.js';

const url = process.env.TEST_DATABASE_URL;

// Runs where PostgreSQL is given (TEST_DATABASE_URL), as the project's other PostgreSQL suites do.
if (url)
  describe('PostgreSQL introspection scoped to our schema', () => {
    const ours = `si_${randomBytes(5).toString('hex')}`;
    const other = `so_${randomBytes(5).toString('hex')}`;
    let storage: Storage;
    let admin: pg.Client;

    before(async () => {
      admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE SCHEMA "${other}"`);
      await admin.query(`CREATE TABLE "${other}".foreign_rows (id serial primary key)`);
      storage = await openStorage({ databaseUrl: url!, schema: ours });
      await storage.migrate();
    });
    after(async () => {
      await storage.close();
      await admin.query(`DROP SCHEMA IF EXISTS "${ours}" CASCADE`);
      await admin.query(`DROP SCHEMA IF EXISTS "${other}" CASCADE`);
      await admin.end();
    });

    it('lists our tables and the migrator finds its own, and never reads another schema', async () => {
      const tables = await storage.db.introspection.getTables();
      const names = tables.map((t) => t.name);
      assert.ok(names.includes('organizations') && names.includes('dlp_sessions'));
      assert.ok(!names.includes('foreign_rows'));
      assert.ok(tables.every((t) => t.schema === ours));
      assert.ok(!names.includes('kysely_migration'));
      const withInternal = await storage.db.introspection.getTables({ withInternalKyselyTables: true });
      assert.ok(withInternal.some((t) => t.name === 'kysely_migration'));
      // A second migration finds its tables (through this introspector) and has nothing to do.
      assert.deepEqual(await storage.migrate(), []);
    });

    it('migrates while another client keeps creating and dropping schemas', async () => {
      let stop = false;
      const churn = (async () => {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        try {
          while (!stop) {
            const name = `sc_${randomBytes(5).toString('hex')}`;
            await c.query(`CREATE SCHEMA "${name}"; CREATE TABLE "${name}".t (id serial primary key)`);
            await c.query(`DROP SCHEMA "${name}" CASCADE`);
          }
        } finally {
          await c.end();
        }
      })();
      try {
        for (let i = 0; i < 20; i++) {
          const fresh = `sf_${randomBytes(5).toString('hex')}`;
          const s = await openStorage({ databaseUrl: url!, schema: fresh });
          try {
            assert.ok((await s.migrate()).length > 0);
          } finally {
            await s.close();
            await admin.query(`DROP SCHEMA IF EXISTS "${fresh}" CASCADE`);
          }
        }
      } finally {
        stop = true;
        await churn;
      }
    });
  });
