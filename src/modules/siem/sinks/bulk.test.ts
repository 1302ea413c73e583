import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type BulkFake, startBulkFake } from '../../../../test/receivers/bulk-fake.js';
import { detectionEvent, dlpEvent } from '../../../../test/receivers/sample-events.js';
import { createOutbound, type Outbound } from '../../../platform/net/index.js';
import { basicAuth, cloudIdToUrl } from './bulk.js';
import { createSink } from './create-sink.js';

let outbound: Outbound;
let es: BulkFake;
let os: BulkFake;
let wz: BulkFake;
before(async () => {
  outbound = createOutbound({ allowPrivate: true, timeoutMs: 2000 });
  es = await startBulkFake('elasticsearch', 'ApiKey ZWxhc3RpYzprZXk=');
  os = await startBulkFake('opensearch', basicAuth('admin', 'os-pass'));
  wz = await startBulkFake('opensearch', basicAuth('wazuh', 'wz-pass'));
});
after(async () => {
  await outbound.close();
  await Promise.all([es.close(), os.close(), wz.close()]);
});
const deps = () => ({ outbound, allowPrivate: true, hostname: 'parapet-test' });

describe('Elastic sink', () => {
  it('installs the template, bulk-creates ECS documents in date-patterned indices, with the pipeline', async () => {
    const sink = createSink(
      {
        platform: 'ELASTIC',
        config: { url: es.url, apiKey: 'ZWxhc3RpYzprZXk=', index: 'parapet-{yyyy.MM}', pipeline: 'geoip' },
      },
      deps(),
    );
    const r = await sink.send([detectionEvent(1), dlpEvent(2)]);
    assert.deepEqual(r, { ok: true, retryable: false, status: 200 });
    assert.equal(es.templates.size, 1);
    const tpl = [...es.templates.values()][0] as { index_patterns: string[] };
    assert.deepEqual(tpl.index_patterns, ['parapet-*']);
    assert.deepEqual(es.pipelines, ['geoip']);
    const nov = es.indices.get('parapet-2026.11')?.get('evt_det_1') as {
      event: { severity: number };
      organization: { id: string };
    };
    assert.equal(nov.event.severity, 73);
    assert.equal(nov.organization.id, 'org_test');
    assert.ok(es.indices.get('parapet-2026.12')?.has('evt_dlp_2'));
    const bulk = es.requests.find((q) => q.path === '/_bulk')!;
    assert.equal(bulk.headers['content-type'], 'application/x-ndjson');
  });

  it('treats a re-sent batch (409 per item) as delivered without storing duplicates', async () => {
    const sink = createSink(
      {
        platform: 'ELASTIC',
        config: { url: es.url, apiKey: 'ZWxhc3RpYzprZXk=', index: 'parapet-{yyyy.MM}' },
      },
      deps(),
    );
    const again = await sink.send([detectionEvent(1), dlpEvent(2)]);
    assert.equal(again.ok, true);
    assert.equal(es.indices.get('parapet-2026.11')?.size, 1);
  });

  it('returns only the throttled items as retryable rejections', async () => {
    const sink = createSink(
      {
        platform: 'ELASTIC',
        config: { url: es.url, apiKey: 'ZWxhc3RpYzprZXk=', index: 'parapet-{yyyy.MM}' },
      },
      deps(),
    );
    es.throttleIds.add('evt_det_11');
    const r = await sink.send([detectionEvent(10), detectionEvent(11), detectionEvent(12)]);
    assert.equal(r.ok, false);
    assert.equal(r.retryable, true);
    assert.deepEqual(
      r.rejected?.map((x) => [x.id, x.retryable]),
      [['evt_det_11', true]],
    );
    assert.ok(es.indices.get('parapet-2026.11')?.has('evt_det_12'));
    assert.equal((await sink.send([detectionEvent(11)])).ok, true);
  });

  it('rejects a bad index name per item as permanent, and bad credentials as auth', async () => {
    const bad = createSink(
      { platform: 'ELASTIC', config: { url: es.url, apiKey: 'ZWxhc3RpYzprZXk=', index: 'a|b' } },
      deps(),
    );
    const r = await bad.send([detectionEvent(20)]);
    assert.equal(r.retryable, false);
    assert.equal(r.rejected?.[0]?.id, 'evt_det_20');
    const denied = createSink(
      { platform: 'ELASTIC', config: { url: es.url, username: 'u', password: 'p' } },
      deps(),
    );
    const d = await denied.send([detectionEvent(21)]);
    assert.equal(d.status, 401);
    assert.equal(d.reason, 'auth');
  });

  it('derives the cluster URL from a cloud id', () => {
    const id = `my-deploy:${Buffer.from('eu-west-1.aws.found.io$abc123$kib456').toString('base64')}`;
    assert.equal(cloudIdToUrl(id), 'https://abc123.eu-west-1.aws.found.io');
    const withPort = `x:${Buffer.from('host.example:9243$es1$kb1').toString('base64')}`;
    assert.equal(cloudIdToUrl(withPort), 'https://es1.host.example:9243');
    assert.throws(() => cloudIdToUrl('garbage'), RangeError);
  });
});

describe('OpenSearch sink', () => {
  it('bulk-creates with Basic credentials into credentials.index', async () => {
    const sink = createSink(
      {
        platform: 'OPENSEARCH',
        endpoint: os.url,
        config: {},
        credentials: { username: 'admin', password: 'os-pass', index: 'sec-{yyyy.MM.dd}' },
      },
      deps(),
    );
    assert.equal((await sink.send([detectionEvent(1)])).ok, true);
    assert.ok(os.indices.get('sec-2026.11.22')?.has('evt_det_1'));
    assert.equal(os.templates.size, 1);
  });
});

describe('Wazuh sink', () => {
  it('writes alerts with agent id and rule level into the Wazuh indexer', async () => {
    const sink = createSink(
      {
        platform: 'WAZUH',
        endpoint: wz.url,
        config: {},
        credentials: {
          username: 'wazuh',
          password: 'wz-pass',
          agentId: '007',
          index: 'wazuh-parapet-{yyyy.MM.dd}',
        },
      },
      deps(),
    );
    assert.equal((await sink.send([detectionEvent(1)])).ok, true);
    const doc = wz.indices.get('wazuh-parapet-2026.11.22')?.get('evt_det_1') as {
      agent: { id: string };
      rule: { level: number };
    };
    assert.equal(doc.agent.id, '007');
    assert.equal(doc.rule.level, 12);
    assert.equal(wz.templates.size, 0);
  });
});
