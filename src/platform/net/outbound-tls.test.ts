import assert from 'node:assert/strict';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { makeTestPki, type TestPki } from '../../../test/receivers/pki.js';
import { createOutbound } from './outbound.js';
import { OutboundError } from './outbound-error.js';

let pki: TestPki;
let server: https.Server;
let port = 0;
before(async () => {
  pki = makeTestPki(mkdtempSync(join(tmpdir(), 'parapet-outbound-tls-')));
  server = https.createServer({ key: pki.keyPem, cert: pki.certPem }, (_req, res) => res.end('secure'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  rmSync(pki.dir, { recursive: true, force: true });
});

it('speaks HTTPS to a server signed by an extra trusted CA, checking the host name', async () => {
  const out = createOutbound({ allowPrivate: true, timeoutMs: 3000, ca: pki.caPem });
  const res = await out.request(`https://localhost:${port}/`);
  assert.equal(res.status, 200);
  assert.equal(res.body, 'secure');
  await out.close();
});

it('classifies an untrusted certificate as a tls error', async () => {
  const out = createOutbound({ allowPrivate: true, timeoutMs: 3000 });
  await assert.rejects(out.request(`https://localhost:${port}/`), (err: unknown) => {
    assert.ok(err instanceof OutboundError);
    assert.equal(err.code, 'tls');
    return true;
  });
  await out.close();
});
