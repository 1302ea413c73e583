import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeHttp, type RecordedRequest, startFakeHttp } from '../../../../test/receivers/fake-http.js';
import { type PreludeReceiver, startPreludeManager } from '../../../../test/receivers/prelude.js';
import { detectionEvent, dlpEvent } from '../../../../test/receivers/sample-events.js';
import { createOutbound, type Outbound } from '../../../platform/net/index.js';
import { createSink } from './create-sink.js';

let prelude: PreludeReceiver;
let outbound: Outbound;
let collector: FakeHttp;
before(async () => {
  prelude = await startPreludeManager();
  outbound = createOutbound({ allowPrivate: true, timeoutMs: 5000 });
  // An IDMEF-over-HTTPS collector: bearer key, XML body with the IDMEF namespace.
  collector = await startFakeHttp((req: RecordedRequest) => {
    if (req.headers['authorization'] !== 'Bearer idmef-key')
      return { status: 401, body: { error: 'unauthorized' } };
    if (!String(req.headers['content-type']).startsWith('application/xml')) return { status: 415, body: {} };
    if (!req.text.includes('xmlns:idmef="http://iana.org/idmef"')) return { status: 400, body: {} };
    return { status: 200, body: { accepted: true } };
  });
});
after(async () => {
  await outbound.close();
  await collector.close();
  await prelude?.stop();
});

describe('Prelude sink against prelude-manager', () => {
  it('delivers IDMEF alerts that the manager writes out with our fields', async () => {
    const sink = createSink(
      {
        platform: 'PRELUDE',
        endpoint: `prelude://${prelude.address}`,
        config: {},
        credentials: { agentId: prelude.sensorProfile, analyzerId: 'parapet-analyzer-1', apiKey: 'unused' },
      },
      { outbound, allowPrivate: true, timeoutMs: 15_000 },
    );
    const r = await sink.send([detectionEvent(1), dlpEvent(2)]);
    assert.deepEqual(r, { ok: true, retryable: false });
    const alert = await prelude.waitForAlert('evt_det_1');
    assert.match(alert, /<Analyzer analyzerid="parapet-analyzer-1" name="Parapet"/);
    assert.match(alert, /<Impact severity="high" completion="failed" type="other">BLOCKED<\/Impact>/);
    assert.match(alert, /<Action category="block-installed"\/>/);
    assert.match(alert, /<address>198\.51\.100\.7<\/address>/);
    assert.match(alert, /<Classification text="detection\.high_severity DAN_JAILBREAK BLOCKED risk=92">/);
    assert.match(
      alert,
      /<AdditionalData type="string" meaning="organization.id">\s*<string>org_test<\/string>/,
    );
    assert.match(alert, /<AdditionalData type="integer" meaning="risk_score">\s*<integer>92<\/integer>/);
    assert.match(alert, /<CreateTime[^>]*>2026-11-22T03:00:00\.001/);
    const dlp = await prelude.waitForAlert('evt_dlp_2');
    assert.match(dlp, /<Impact severity="medium" completion="failed" type="other">REDACTED<\/Impact>/);
    await sink.close();
  });

  it('keeps alerts sent while the manager is down in the libprelude spool and delivers them after it returns', async () => {
    const sink = createSink(
      {
        platform: 'PRELUDE',
        endpoint: `prelude://${prelude.address}`,
        config: {},
        credentials: { agentId: prelude.sensorProfile, analyzerId: 'parapet-analyzer-1' },
      },
      { outbound, allowPrivate: true, timeoutMs: 15_000 },
    );
    assert.equal((await sink.send([detectionEvent(30)])).ok, true);
    await prelude.waitForAlert('evt_det_30');
    await prelude.stopManager();
    const whileDown = await sink.send([detectionEvent(31)]);
    assert.deepEqual(whileDown, { ok: true, retryable: false });
    await prelude.startManager();
    // libprelude retries its manager connection about every 10 s, then flushes the spool.
    await prelude.waitForAlert('evt_det_31', 60_000);
    await sink.close();
  });

  it('reports a missing sensor profile as a permanent configuration failure', async () => {
    const sink = createSink(
      { platform: 'PRELUDE', endpoint: `prelude://${prelude.address}`, config: {}, credentials: {} },
      { outbound, allowPrivate: true, timeoutMs: 5000 },
    );
    const r = await sink.send([detectionEvent(3)]);
    assert.equal(r.ok, false);
    assert.equal(r.retryable, false);
    await sink.close();
  });

  it('refuses a manager address on loopback when private targets are not allowed', async () => {
    const strict = createOutbound({ allowPrivate: false, timeoutMs: 1000 });
    const sink = createSink(
      {
        platform: 'PRELUDE',
        endpoint: `prelude://${prelude.address}`,
        config: {},
        credentials: { agentId: prelude.sensorProfile },
      },
      { outbound: strict, allowPrivate: false, timeoutMs: 5000 },
    );
    const r = await sink.send([detectionEvent(4)]);
    assert.equal(r.reason, 'blocked');
    await sink.close();
    await strict.close();
  });

  it('posts RFC 4765 XML to an HTTPS collector with the bearer key', async () => {
    const sink = createSink(
      {
        platform: 'PRELUDE',
        endpoint: `${collector.url}/idmef`,
        config: {},
        credentials: { apiKey: 'idmef-key', analyzerId: 'a-1' },
      },
      { outbound, allowPrivate: true },
    );
    const r = await sink.send([detectionEvent(5), dlpEvent(6)]);
    assert.equal(r.ok, true);
    const xml = collector.requests.at(-1)!.text;
    assert.equal(xml.match(/<idmef:Alert /g)?.length, 2);
    assert.match(xml, /<idmef:Alert messageid="evt_det_5">/);
    assert.match(xml, /<idmef:Analyzer analyzerid="a-1"/);
    assert.match(
      xml,
      /<idmef:Impact severity="high" completion="failed" type="other">BLOCKED<\/idmef:Impact>/,
    );
    const denied = createSink(
      {
        platform: 'PRELUDE',
        endpoint: `${collector.url}/idmef`,
        config: {},
        credentials: { apiKey: 'wrong' },
      },
      { outbound, allowPrivate: true },
    );
    assert.equal((await denied.send([detectionEvent(7)])).reason, 'auth');
  });
});
