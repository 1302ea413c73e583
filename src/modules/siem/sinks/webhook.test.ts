import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { detectionEvent, dlpEvent } from '../../../../test/receivers/sample-events.js';
import { startWebhookFake, type WebhookFake } from '../../../../test/receivers/webhook-fake.js';
import { createOutbound, type Outbound } from '../../../platform/net/index.js';
import { createSink } from './create-sink.js';

let hook: WebhookFake;
let outbound: Outbound;
before(async () => {
  hook = await startWebhookFake('siem-webhook-secret-1');
  outbound = createOutbound({ allowPrivate: true, timeoutMs: 1000 });
});
after(async () => {
  await outbound.close();
  await hook.close();
});

describe('custom webhook sink', () => {
  it('posts {"events": [...]} signed like event webhooks, with extra headers', async () => {
    const sink = createSink(
      {
        platform: 'WEBHOOK',
        config: {
          url: `${hook.url}/ingest`,
          secret: 'siem-webhook-secret-1',
          headers: { 'x-collector': 'c1' },
          batchSize: 2,
        },
      },
      { outbound, allowPrivate: true },
    );
    const r = await sink.send([detectionEvent(1), dlpEvent(2), detectionEvent(3)]);
    assert.equal(r.ok, true);
    assert.equal(hook.deliveries.length, 2);
    const first = hook.deliveries[0]!;
    assert.equal(first.serviceSignatureValid, true);
    assert.equal(first.request.headers['x-collector'], 'c1');
    const body = JSON.parse(first.request.text) as { events: { id: string }[] };
    assert.deepEqual(
      body.events.map((e) => e.id),
      ['evt_det_1', 'evt_dlp_2'],
    );
  });

  it('reports redirects as failures without following them, and hangs as retryable timeouts', async () => {
    const sink = createSink(
      { platform: 'WEBHOOK', config: { url: hook.url } },
      { outbound, allowPrivate: true },
    );
    hook.fail({ status: 301, headers: { location: 'http://169.254.169.254/' } });
    const moved = await sink.send([detectionEvent(1)]);
    assert.equal(moved.ok, false);
    assert.equal(moved.status, 301);
    hook.fail('hang');
    const hung = await sink.send([detectionEvent(2)]);
    assert.equal(hung.ok, false);
    assert.equal(hung.retryable, true);
    assert.match(hung.error ?? '', /^timeout/);
  });
});
