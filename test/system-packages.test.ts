import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

// Issue 24, item 1: `npm test` sets up the Debian packages it needs from ONE list, which the README and CI
// use too; a user who cannot install gets the exact command at once.

const root = fileURLToPath(new URL('..', import.meta.url));
const SCRIPT = join(root, 'scripts', 'ensure-system-packages.sh');
const read = (p: string) => readFileSync(join(root, p), 'utf8');

const listed = read('scripts/system-packages.txt')
  .split('\n')
  .map((l) => l.replace(/#.*/, '').trim())
  .filter(Boolean);

const fakes = mkdtempSync(join(tmpdir(), 'parapet-apt-'));
after(() => rmSync(fakes, { recursive: true, force: true }));

/** Runs the script with dpkg-query and id replaced: MISSING packages are not installed, the user is not root. */
function ensure(missing: string[]) {
  writeFileSync(
    join(fakes, 'dpkg-query'),
    '#!/bin/sh\nfor a; do p=$a; done\ncase " $MISSING " in *" $p "*) exit 1;; esac\nprintf "install ok installed"\n',
  );
  writeFileSync(join(fakes, 'id'), '#!/bin/sh\necho 1000\n');
  chmodSync(join(fakes, 'dpkg-query'), 0o755);
  chmodSync(join(fakes, 'id'), 0o755);
  return spawnSync('bash', [SCRIPT], {
    env: { ...process.env, PATH: `${fakes}:${process.env.PATH}`, MISSING: missing.join(' ') },
    encoding: 'utf8',
  });
}

describe('the system packages of the test suite', () => {
  it('are one list, run by npm test (pretest), pointed to by the README, and CI runs npm test', () => {
    const pkg = JSON.parse(read('package.json'));
    assert.equal(pkg.scripts.pretest, 'bash scripts/ensure-system-packages.sh');
    assert.match(read('scripts/ensure-system-packages.sh'), /system-packages\.txt/);
    assert.match(read('README.md'), /\(scripts\/system-packages\.txt\)/);
    const ci = read('.ci/run');
    assert.match(ci, /\bnpm test\b/);
    assert.doesNotMatch(ci, /apt-get install/, 'CI installs nothing the list does not name');
    // what the test helpers start or call: receivers, the verifier's sshd, dig, the browser, zstd
    for (const p of [
      'rsyslog',
      'prelude-manager',
      'python3-prelude',
      'openssh-server',
      'bind9-dnsutils',
      'chromium',
      'zstd',
    ]) {
      assert.ok(listed.includes(p), `${p} is listed`);
    }
  });

  it('stops at once with the exact install command when packages are missing and it cannot install', () => {
    const r = ensure(['zstd', 'chromium']);
    assert.equal(r.status, 1, r.stderr);
    assert.match(
      r.stderr,
      /Run:\n {2}sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium zstd\n/,
    );
  });

  it('passes when every package is installed', () => {
    const r = ensure([]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
  });
});
