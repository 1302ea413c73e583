import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type CountingServer, startCountingServer } from '../../../test/support/counting-server.js';
import { createOutbound } from './outbound.js';
import { OutboundError } from './outbound-error.js';

let server: CountingServer;
let port = 0;
const hits: string[] = [];

before(async () => {
  server = await startCountingServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/redirect') {
      res.writeHead(302, { location: `http://127.0.0.1:${port}/target` }).end();
    } else if (req.url === '/hang') {
      // never answers: the client's deadline must fire
    } else {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => res.writeHead(200, { 'x-echo': req.method ?? '' }).end(`ok:${body}`));
    }
  });
  port = server.port;
});

after(async () => server.close());

async function rejectsWith(p: Promise<unknown>, code: string) {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof OutboundError, `expected OutboundError, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    return true;
  });
}

describe('createOutbound SSRF guard', () => {
  it('refuses loopback IP literals, localhost and encoded forms without connecting', async () => {
    const out = createOutbound({ allowPrivate: false, timeoutMs: 2000 });
    const before = server.connections();
    for (const url of [
      `http://127.0.0.1:${port}/`,
      `http://localhost:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://[::1]:${port}/`,
      `http://0x7f000001:${port}/`,
      `http://2130706433:${port}/`,
      `http://127.1:${port}/`,
      `http://0.0.0.0:${port}/`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/',
      'http://10.0.0.1/',
      'http://100.64.1.1/',
    ]) {
      await rejectsWith(out.request(url), 'ssrf_blocked');
    }
    assert.equal(server.connections(), before, 'no connection may reach the server');
    await out.close();
  });

  it('refuses a name when any of its resolved addresses is private (rebinding)', async () => {
    const out = createOutbound({
      allowPrivate: false,
      timeoutMs: 2000,
      resolver: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
    });
    await rejectsWith(out.request(`http://rebind.example:${port}/`), 'ssrf_blocked');
    await out.close();
  });

  it('connects to loopback when private targets are allowed or the host is listed', async () => {
    const open = createOutbound({ allowPrivate: true, timeoutMs: 2000 });
    const res = await open.request(`http://localhost:${port}/echo`, { method: 'POST', body: 'hello' });
    assert.equal(res.status, 200);
    assert.equal(res.body, 'ok:hello');
    assert.equal(res.headers['x-echo'], 'POST');
    assert.ok(res.timeMs >= 0);
    await open.close();

    const listed = createOutbound({ allowPrivate: false, allowHosts: ['localhost'], timeoutMs: 2000 });
    assert.equal((await listed.request(`http://localhost:${port}/x`)).status, 200);
    await rejectsWith(listed.request(`http://127.0.0.1:${port}/x`), 'ssrf_blocked');
    await listed.close();
  });

  it('does not follow redirects', async () => {
    const out = createOutbound({ allowPrivate: true, timeoutMs: 2000 });
    hits.length = 0;
    const res = await out.request(`http://127.0.0.1:${port}/redirect`);
    assert.equal(res.status, 302);
    assert.equal(res.headers.location, `http://127.0.0.1:${port}/target`);
    assert.deepEqual(hits, ['/redirect']);
    await out.close();
  });

  it('refuses other schemes and credentials in the URL', async () => {
    const out = createOutbound({ allowPrivate: true, timeoutMs: 2000 });
    await rejectsWith(out.request('file:///etc/passwd'), 'invalid_url');
    await rejectsWith(out.request('gopher://127.0.0.1:70/'), 'invalid_url');
    await rejectsWith(out.request(`http://user:pw@127.0.0.1:${port}/`), 'invalid_url');
    await rejectsWith(out.request('not a url'), 'invalid_url');
    await out.close();
    await rejectsWith(out.request(`http://127.0.0.1:${port}/`), 'closed');
  });

  it('classifies a hanging server as timeout and a closed port as connect_failed', async () => {
    const out = createOutbound({ allowPrivate: true, timeoutMs: 5000 });
    await rejectsWith(out.request(`http://127.0.0.1:${port}/hang`, { timeoutMs: 150 }), 'timeout');
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const freePort = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    await rejectsWith(out.request(`http://127.0.0.1:${freePort}/`), 'connect_failed');
    await out.close();
  });
});
