import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startTestServer } from '../support/harness.js';

// The embedded database and its generated master key, whatever the PostgreSQL settings of the run.
const EMBEDDED = { DATABASE_URL: '', REDIS_URL: '', PARAPET_MASTER_KEY: '' };
const root = mkdtempSync(join(tmpdir(), 'parapet-modes-'));
after(() => rmSync(root, { recursive: true, force: true }));

const mode = (path: string) => statSync(path).mode & 0o777;

async function startIn(dataDir: string) {
  const t = await startTestServer({ env: { ...EMBEDDED, PARAPET_DATA_DIR: dataDir } });
  // A write, so that the WAL and its index exist.
  await t.tenant();
  return t;
}

function assertPrivate(dataDir: string) {
  assert.equal(mode(dataDir).toString(8), '700', 'data folder');
  for (const name of ['parapet.db', 'parapet.db-wal', 'parapet.db-shm', 'master.key']) {
    const file = join(dataDir, name);
    if (name !== 'parapet.db-shm' || existsSync(file)) {
      assert.equal(mode(file).toString(8), '600', name);
    }
  }
}

describe('the data folder is 0700 and its files 0600', () => {
  it('when created by a first start, under a permissive umask', async () => {
    const previous = process.umask(0o022);
    try {
      const dataDir = join(root, 'fresh', 'data');
      const t = await startIn(dataDir);
      try {
        assert.ok(existsSync(join(dataDir, 'parapet.db-wal')), 'WAL mode');
        assertPrivate(dataDir);
      } finally {
        await t.close();
      }
    } finally {
      process.umask(previous);
    }
  });

  it('when an existing folder and files were world-readable: tightened at start', async () => {
    const dataDir = join(root, 'loose');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    writeFileSync(join(dataDir, 'master.key'), `${randomBytes(32).toString('hex')}\n`, { mode: 0o644 });
    writeFileSync(join(dataDir, 'parapet.db'), '', { mode: 0o644 });
    chmodSync(join(dataDir, 'master.key'), 0o644);
    chmodSync(join(dataDir, 'parapet.db'), 0o644);
    const t = await startIn(dataDir);
    try {
      assertPrivate(dataDir);
    } finally {
      await t.close();
    }
  });
});
