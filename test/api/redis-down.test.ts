import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { closedPort, type TestServer, startTestServer } from '../support/harness.js';

// A process whose Redis is down (or whose REDIS_URL points at the wrong port): docs/errors.md promises
// 503 `service_unavailable` with `retryAfter` for a dependency that is down, and the health check must say
// which one. Redis here is a port nothing listens on, so the test needs no Redis of its own.

let t: TestServer;
let key: string;
before(async () => {
  // Organizations and keys are made while Redis is reachable in the real deployment: here, straight in the
  // database, which the dead cache does not touch.
  t = await startTestServer({
    env: { REDIS_URL: `redis://127.0.0.1:${await closedPort()}`, REDIS_PREFIX: 'down:' },
  });
  const org = await t.ctx.orgs.createOrg({ name: 'Down', plan: 'enterprise' });
  key = (await t.ctx.keys.create({ orgId: org.id, kind: 'al', name: 'k' })).secret;
});
after(async () => t.close());

describe('Redis down', () => {
  it('the health check answers 503 degraded, naming the cache as unreachable', async () => {
    const res = await t.request('GET', '/api/health');
    assert.equal(res.status, 503, res.text);
    assert.equal(res.body.status, 'degraded');
    assert.deepEqual(res.body.cache, { reachable: false, kind: 'redis' });
    assert.equal(res.body.database.reachable, true);
  });

  it('a request that needs the counters is 503 service_unavailable with retryAfter, not a 500', async () => {
    const res = await t.request('POST', '/api/v1/analyze', { key, body: { text: 'hello there' } });
    assert.equal(res.status, 503, res.text);
    assert.equal(res.body.error, 'service_unavailable');
    assert.match(res.body.message, /shared cache \(Redis\) cannot be reached/);
    assert.equal(typeof res.body.retryAfter, 'number');
    assert.equal(res.headers.get('retry-after'), String(res.body.retryAfter));
  });
});
