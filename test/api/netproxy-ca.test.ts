import assert from 'node:assert/strict';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { initCa, readCa, readCaCert } from '../../src/main/proxy.js';

// The CA folder as an operator leaves it: a second init, files of two CAs mixed up, a key lost or damaged,
// a CA past its end. Each is refused with a message naming the file before the proxy listens; a proxy
// that started with them had every client refuse every certificate it presented.

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function caDir(): { proxyCaDir: string } {
  const d = mkdtempSync(join(tmpdir(), 'parapet-ca-'));
  dirs.push(d);
  return { proxyCaDir: join(d, 'proxy-ca') };
}

describe('the network proxy CA folder', () => {
  it('is made 0700 with the key 0600, and a second init is refused without --force', async () => {
    const config = caDir();
    await initCa(config, { name: 'Acme' });
    assert.equal(statSync(config.proxyCaDir).mode & 0o777, 0o700);
    assert.equal(statSync(join(config.proxyCaDir, 'ca-key.pem')).mode & 0o777, 0o600);
    await assert.rejects(initCa(config, {}), /already exists/);
    assert.ok(readCa(config).certPem.includes('BEGIN CERTIFICATE'));
  });

  it('tightens a CA folder made beforehand to 0700', async () => {
    const config = caDir();
    mkdirSync(config.proxyCaDir, { mode: 0o755 });
    chmodSync(config.proxyCaDir, 0o755);
    await initCa(config, { name: 'Acme' });
    assert.equal(statSync(config.proxyCaDir).mode & 0o777, 0o700);
  });

  it('refuses the key of another CA', async () => {
    const config = caDir();
    const other = caDir();
    await initCa(config, { name: 'One' });
    await initCa(other, { name: 'Two' });
    copyFileSync(join(other.proxyCaDir, 'ca-key.pem'), join(config.proxyCaDir, 'ca-key.pem'));
    assert.throws(() => readCa(config), /ca-key\.pem is not the private key of ca\.pem/);
  });

  it('refuses a damaged key or certificate, naming the file', async () => {
    const config = caDir();
    await initCa(config, { name: 'Acme' });
    const cert = readCaCert(config);
    writeFileSync(join(config.proxyCaDir, 'ca-key.pem'), 'garbage\n');
    assert.throws(() => readCa(config), /ca-key\.pem is not a PEM private key/);
    writeFileSync(join(config.proxyCaDir, 'ca.pem'), cert.slice(0, 200));
    assert.throws(() => readCa(config), /ca\.pem is not a PEM certificate/);
  });

  it('refuses a CA past its end', async () => {
    const config = caDir();
    await initCa(config, { name: 'Old', now: new Date(Date.now() - 3651 * 86_400_000) });
    assert.throws(() => readCa(config), /ca\.pem expired on /);
  });

  it('exports the certificate without the key, and names the file that is missing', async () => {
    const config = caDir();
    await initCa(config, { name: 'Acme' });
    rmSync(join(config.proxyCaDir, 'ca-key.pem'));
    assert.match(readCaCert(config), /BEGIN CERTIFICATE/);
    assert.throws(() => readCa(config), /no ca-key\.pem in /);
  });
});
