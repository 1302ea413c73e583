import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildProxy } from '../../src/main/proxy.js';
import type { App } from '../../src/platform/http/index.js';
import { type TestServer, startTestServer } from '../support/harness.js';

// `parapet proxy` runs apart from the API, several behind a load balancer (docs/netproxy.md): the balancer
// and the orchestrator need a health check on the proxy's own port, telling whether this process reaches
// its database and Redis.

let t: TestServer;
let proxy: App;
before(async () => {
  t = await startTestServer();
  proxy = (await buildProxy(t.ctx)).app;
});
after(async () => {
  await proxy?.close();
  await t?.close();
});

describe('the network proxy process', () => {
  it('answers /api/health on its own port, as the API does', async () => {
    const res = await proxy.inject({ method: 'GET', url: '/api/health' });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.status, 'ok');
    assert.equal(body.database.reachable, true);
    assert.equal(body.cache.reachable, true);
    assert.ok(res.headers['x-ratelimit-limit'], 'counted in the anonymous window like the API');
  });
});
