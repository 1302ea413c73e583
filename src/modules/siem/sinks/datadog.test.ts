import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type DatadogFake, startDatadogFake } from '../../../../test/receivers/datadog-fake.js';
import { detectionEvent, dlpEvent } from '../../../../test/receivers/sample-events.js';
import { createOutbound, type Outbound } from '../../../platform/net/index.js';
import { createSink } from './create-sink.js';
import { datadogIntakeUrl } from './datadog.js';

let dd: DatadogFake;
let outbound: Outbound;
before(async () => {
  dd = await startDatadogFake('dd-key');
  outbound = createOutbound({ allowPrivate: true, timeoutMs: 5000 });
});
after(async () => {
  await outbound.close();
  await dd.close();
});
const sink = (apiKey = 'dd-key') =>
  createSink(
    {
      platform: 'DATADOG',
      endpoint: `${dd.url}/api/v2/logs`,
      config: { apiKey, site: 'datadoghq.eu', service: 'parapet', env: 'prod', tags: ['team:sec'] },
    },
    { outbound, allowPrivate: true, hostname: 'parapet-test' },
  );

describe('Datadog sink', () => {
  it('posts gzip JSON arrays with reserved attributes and the API key', async () => {
    const r = await sink().send([detectionEvent(1), dlpEvent(2)]);
    assert.equal(r.ok, true);
    assert.equal(r.status, 202);
    const req = dd.requests.at(-1)!;
    assert.equal(req.headers['content-encoding'], 'gzip');
    const [a, b] = dd.logs.slice(-2) as Record<string, unknown>[];
    assert.equal(a!['ddsource'], 'parapet');
    assert.equal(a!['service'], 'parapet');
    assert.equal(a!['hostname'], 'parapet-test');
    assert.equal(a!['status'], 'error');
    assert.equal(b!['status'], 'warn');
    assert.equal(a!['ddtags'], 'env:prod,event_category:detection,severity:high,team:sec');
    assert.equal(a!['timestamp'], Date.parse('2026-11-22T03:00:00.001Z'));
    assert.deepEqual((a!['network'] as { client: { ip: string } }).client.ip, '198.51.100.7');
    assert.equal((a!['parapet'] as { id: string }).id, 'evt_det_1');
  });

  it('splits more than 1000 events into several requests', async () => {
    const before = dd.requests.length;
    const events = Array.from({ length: 2300 }, (_, i) => detectionEvent(i));
    const r = await sink().send(events);
    assert.equal(r.ok, true);
    assert.equal(dd.requests.length - before, 3);
  });

  it('reports a bad key as auth and 5xx as retryable', async () => {
    const bad = await sink('nope').send([detectionEvent(1)]);
    assert.equal(bad.reason, 'auth');
    dd.fail({ status: 500, body: {} });
    const err = await sink().send([detectionEvent(1)]);
    assert.equal(err.retryable, true);
    assert.equal(err.reason, 'transient');
  });

  it('derives the intake URL from the site', () => {
    assert.equal(datadogIntakeUrl('datadoghq.com'), 'https://http-intake.logs.datadoghq.com/api/v2/logs');
    assert.equal(datadogIntakeUrl('datadoghq.eu'), 'https://http-intake.logs.datadoghq.eu/api/v2/logs');
  });
});
