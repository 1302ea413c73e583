import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { decodeLicense, licenseSecret } from '../src/modules/licensing/index.js';
import { parseMasterKey } from '../src/platform/crypto/index.js';

const BIN = fileURLToPath(new URL('../bin/parapet', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'parapet-cli-license-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function cli(...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent', PARAPET_DATA_DIR: join(dir, 'data') };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.PARAPET_MASTER_KEY;
  delete env.PARAPET_LICENSE_SECRET;
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('parapet license', () => {
  it('issues a licence verifiable offline with the deployment key, lists and revokes it', () => {
    const org = JSON.parse(cli('org', 'create', '--name', 'Acme', '--plan', 'business', '--json').stdout);
    const out = cli(
      'license',
      'issue',
      '--org',
      org.id,
      '--seats',
      '50',
      '--expires',
      '2099-01-01',
      '--json',
    );
    assert.equal(out.code, 0, out.stderr);
    const issued = JSON.parse(out.stdout);
    const secret = licenseSecret('', parseMasterKey(readFileSync(join(dir, 'data', 'master.key'), 'utf8')));
    const decoded = decodeLicense(secret, issued.key);
    assert.equal(decoded.ok, true);
    assert.equal(decoded.ok && decoded.payload.seats, 50);
    assert.equal(decoded.ok && decoded.payload.org, org.id);
    assert.match(cli('license', 'list', '--org', org.id).stdout, /active\s+50 seats/);
    assert.equal(cli('license', 'revoke', '--org', org.id, '--id', issued.license.id).code, 0);
    assert.match(cli('license', 'list', '--org', org.id).stdout, /revoked/);
    const bad = cli('license', 'issue', '--org', org.id, '--seats', 'many', '--expires', '2099-01-01');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--seats/);
  });
});
