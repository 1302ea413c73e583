import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { detectionEvent, dlpEvent } from '../../../../test/receivers/sample-events.js';
import { type HecFake, startHecFake } from '../../../../test/receivers/splunk-hec-fake.js';
import { createOutbound, type Outbound } from '../../../platform/net/index.js';
import { createSink } from './create-sink.js';
import { retryAfterMs } from './http-result.js';
import { hecEventUrl } from './splunk.js';

let hec: HecFake;
let outbound: Outbound;
before(async () => {
  hec = await startHecFake('hec-token-1');
  outbound = createOutbound({ allowPrivate: true, timeoutMs: 2000 });
});
after(async () => {
  await outbound.close();
  await hec.close();
});

const splunk = (token = 'hec-token-1', hecUrl = hec.url) =>
  createSink(
    {
      platform: 'SPLUNK',
      config: { hecUrl, hecToken: token, index: 'security', source: 'parapet', sourcetype: 'parapet:json' },
    },
    { outbound, allowPrivate: true, hostname: 'parapet-test' },
  );

describe('Splunk HEC sink', () => {
  it('posts a batch of concatenated envelopes in the spec shape with the Splunk token', async () => {
    const before = hec.envelopes.length;
    const r = await splunk().send([detectionEvent(1), dlpEvent(2), detectionEvent(3)]);
    assert.deepEqual(r, { ok: true, retryable: false, status: 200 });
    const req = hec.requests.at(-1)!;
    assert.equal(req.path, '/services/collector/event');
    assert.equal(req.headers['authorization'], 'Splunk hec-token-1');
    assert.ok(!req.text.trimStart().startsWith('['), 'no JSON array');
    const got = hec.envelopes.slice(before);
    assert.equal(got.length, 3);
    const e = got[0] as {
      time: number;
      host: string;
      source: string;
      sourcetype: string;
      index: string;
      event: Record<string, unknown>;
      fields: Record<string, string>;
    };
    assert.equal(e.time, Date.parse('2026-11-22T03:00:00.001Z') / 1000);
    assert.deepEqual(
      [e.host, e.source, e.sourcetype, e.index],
      ['parapet-test', 'parapet', 'parapet:json', 'security'],
    );
    assert.equal(e.event['eventType'], 'detection.high_severity');
    assert.equal(e.event['severity'], 'HIGH');
    assert.equal(e.event['riskScore'], 92);
    assert.equal(e.event['category'], 'DAN_JAILBREAK');
    assert.equal(e.event['organizationId'], 'org_test');
    assert.equal(e.event['action'], 'BLOCKED');
    assert.equal(e.event['sourceIp'], '198.51.100.7');
    assert.deepEqual((e.event['patterns'] as { category: string }[])[0]?.category, 'instruction_override');
    assert.equal(e.fields.event_id, 'evt_det_1');
  });

  it('reports a wrong token as an auth failure that keeps the data', async () => {
    const r = await splunk('wrong').send([detectionEvent(1)]);
    assert.equal(r.ok, false);
    assert.equal(r.status, 403);
    assert.equal(r.reason, 'auth');
    assert.equal(r.retryable, true);
  });

  it('retries server busy (code 9) and dead-letters invalid data (code 6)', async () => {
    hec.fail({ status: 503, body: { text: 'Server is busy', code: 9 }, headers: { 'retry-after': '7' } });
    const busy = await splunk().send([detectionEvent(1)]);
    assert.equal(busy.retryable, true);
    assert.equal(busy.retryAfterMs, 7000);
    hec.fail({ status: 400, body: { text: 'Invalid data format', code: 6 } });
    const bad = await splunk().send([detectionEvent(1)]);
    assert.equal(bad.retryable, false);
    assert.equal(bad.reason, 'permanent');
  });

  it('halves a batch the collector finds too large', async () => {
    hec.fail({ status: 413, body: { text: 'Content too large', code: 413 } });
    const before = hec.envelopes.length;
    const r = await splunk().send([
      detectionEvent(1),
      detectionEvent(2),
      detectionEvent(3),
      detectionEvent(4),
    ]);
    assert.equal(r.ok, true);
    assert.equal(hec.envelopes.length - before, 4);
  });

  it('classifies timeouts and resets as retryable', async () => {
    hec.fail('reset');
    const reset = await splunk().send([detectionEvent(1)]);
    assert.equal(reset.ok, false);
    assert.equal(reset.retryable, true);
  });

  it('normalises the HEC URL', () => {
    assert.equal(hecEventUrl('https://h:8088'), 'https://h:8088/services/collector/event');
    assert.equal(hecEventUrl('https://h:8088/services/collector'), 'https://h:8088/services/collector/event');
    assert.equal(hecEventUrl('https://h/services/collector/event'), 'https://h/services/collector/event');
  });

  it('is refused by the SSRF guard when private targets are not allowed', async () => {
    const strict = createOutbound({ allowPrivate: false, timeoutMs: 2000 });
    const sink = createSink(
      { platform: 'SPLUNK', config: { hecUrl: hec.url, hecToken: 'hec-token-1' } },
      { outbound: strict, allowPrivate: false },
    );
    const before = hec.requests.length;
    const r = await sink.send([detectionEvent(1)]);
    assert.equal(r.reason, 'blocked');
    assert.equal(r.retryable, false);
    assert.equal(hec.requests.length, before);
    await strict.close();
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates', () => {
    const now = Date.parse('2026-11-22T03:00:00Z');
    assert.equal(retryAfterMs('12', now), 12000);
    assert.equal(retryAfterMs('Sun, 22 Nov 2026 03:00:30 GMT', now), 30000);
    assert.equal(retryAfterMs('soon', now), null);
    assert.equal(retryAfterMs(undefined, now), null);
  });
});
