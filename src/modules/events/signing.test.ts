import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { startWebhookFake } from '../../../test/receivers/webhook-fake.js';
import { createOutbound } from '../../platform/net/index.js';
import {
  generateWebhookSecret,
  isAcceptableWebhookSecret,
  signStandardWebhook,
  signWebhook,
  verifyStandardWebhook,
  verifyWebhook,
  webhookHeaders,
} from './signing.js';

const body = JSON.stringify({ id: 'evt_1', type: 'detection.created', data: { riskScore: 91 } });

describe('signWebhook', () => {
  it('is hex HMAC-SHA256 over "<ts>.<body>" keyed with the secret string', () => {
    const expected = createHmac('sha256', 'whsec_abc').update(`1700000000.${body}`).digest('hex');
    assert.equal(signWebhook('whsec_abc', 1700000000, body), `sha256=${expected}`);
  });

  it('reproduces the Standard Webhooks shared test vector', () => {
    assert.equal(
      signStandardWebhook(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });
});

describe('webhookHeaders + verification', () => {
  const now = Math.floor(Date.now() / 1000);

  it('round-trips through verifyWebhook and rejects tampering', () => {
    const secret = generateWebhookSecret();
    const h = webhookHeaders({
      secret,
      eventId: 'evt_1',
      eventType: 'detection.created',
      timestampSec: now,
      rawBody: body,
    });
    assert.equal(h['x-service-event-id'], 'evt_1');
    assert.equal(h['x-service-event-type'], 'detection.created');
    assert.equal(h['x-service-timestamp'], String(now));
    assert.match(h['x-service-signature'] ?? '', /^sha256=[0-9a-f]{64}$/);
    assert.equal(verifyWebhook(secret, h, body, now), true);
    const upper = Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toUpperCase(), v]));
    assert.equal(verifyWebhook(secret, upper, body, now), true);
    assert.equal(verifyWebhook(secret, h, body.replace('91', '92'), now), false);
    assert.equal(verifyWebhook(generateWebhookSecret(), h, body, now), false);
    assert.equal(verifyWebhook(secret, { ...h, 'x-service-timestamp': String(now + 1) }, body, now), false);
    assert.equal(verifyWebhook(secret, { ...h, 'x-service-signature': 'sha256=00' }, body, now), false);
    assert.equal(verifyWebhook(secret, {}, body, now), false);
  });

  it('rejects timestamps outside the 300 s tolerance, both directions', () => {
    const secret = generateWebhookSecret();
    const h = webhookHeaders({
      secret,
      eventId: 'evt_2',
      eventType: 'dlp.violation',
      timestampSec: now,
      rawBody: body,
    });
    assert.equal(verifyWebhook(secret, h, body, now + 300), true);
    assert.equal(verifyWebhook(secret, h, body, now + 301), false);
    assert.equal(verifyWebhook(secret, h, body, now - 301), false);
    assert.equal(verifyStandardWebhook(secret, h, body, now + 301), false);
  });

  it('is verified by the standardwebhooks library', () => {
    const secret = generateWebhookSecret();
    const h = webhookHeaders({
      secret,
      eventId: 'evt_3',
      eventType: 'api_key.created',
      timestampSec: now,
      rawBody: body,
    });
    const payload = new Webhook(secret).verify(body, h) as { id: string };
    assert.equal(payload.id, 'evt_1');
    assert.throws(() => new Webhook(secret).verify(body.replace('91', '90'), h), /No matching signature/);
    assert.throws(() => new Webhook(generateWebhookSecret()).verify(body, h), /No matching signature/);
    assert.throws(() => new Webhook(secret).verify(body, { ...h, 'webhook-id': 'evt_other' }), /No matching/);
  });

  it('lets the library reject stale deliveries', () => {
    const secret = generateWebhookSecret();
    const old = webhookHeaders({
      secret,
      eventId: 'e',
      eventType: 't',
      timestampSec: now - 400,
      rawBody: body,
    });
    assert.throws(() => new Webhook(secret).verify(body, old), /too old/);
  });

  it('signs with old and new secrets during rotation, each verifiable alone', () => {
    const oldSecret = generateWebhookSecret();
    const newSecret = generateWebhookSecret();
    const h = webhookHeaders({
      secret: newSecret,
      secrets: [oldSecret],
      eventId: 'evt_4',
      eventType: 'user.joined',
      timestampSec: now,
      rawBody: body,
    });
    assert.equal((h['webhook-signature'] ?? '').split(' ').length, 2);
    assert.doesNotThrow(() => new Webhook(newSecret).verify(body, h));
    assert.doesNotThrow(() => new Webhook(oldSecret).verify(body, h));
    assert.equal(verifyStandardWebhook(oldSecret, h, body, now), true);
    assert.equal(verifyWebhook(newSecret, h, body, now), true);
  });

  it('uses the UTF-8 bytes of a secret without the whsec_ prefix (library raw format)', () => {
    const secret = 'my-own-shared-secret-123';
    const h = webhookHeaders({
      secret,
      eventId: 'evt_5',
      eventType: 'quota.warning',
      timestampSec: now,
      rawBody: body,
    });
    assert.doesNotThrow(() => new Webhook(secret, { format: 'raw' }).verify(body, h));
    assert.equal(verifyWebhook(secret, h, body, now), true);
  });
});

describe('secrets', () => {
  it('generates whsec_ + base64 of 32 random bytes', () => {
    const a = generateWebhookSecret();
    assert.match(a, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(a.slice(6), 'base64').length, 32);
    assert.notEqual(a, generateWebhookSecret());
    assert.equal(isAcceptableWebhookSecret(a), true);
  });

  it('refuses secrets the two schemes would read differently', () => {
    assert.equal(isAcceptableWebhookSecret('whsec_not base64!'), false);
    assert.equal(isAcceptableWebhookSecret('whsec_AAAA'), false);
    assert.equal(isAcceptableWebhookSecret('short'), false);
    assert.equal(isAcceptableWebhookSecret('a-long-enough-plain-secret'), true);
  });
});

describe('a signed delivery over HTTP', () => {
  it('is accepted by a receiver that verifies both schemes, and refused when the body changes', async () => {
    const secret = generateWebhookSecret();
    const receiver = await startWebhookFake(secret);
    const out = createOutbound({ allowPrivate: true, timeoutMs: 2000 });
    try {
      const ts = Math.floor(Date.now() / 1000);
      const event = {
        id: 'evt_http_1',
        type: 'detection.created',
        created: new Date().toISOString(),
        data: {},
      };
      const raw = JSON.stringify(event);
      const headers = webhookHeaders({
        secret,
        eventId: event.id,
        eventType: event.type,
        timestampSec: ts,
        rawBody: raw,
      });
      const res = await out.request(`${receiver.url}/hook`, { method: 'POST', headers, body: raw });
      assert.equal(res.status, 200);
      await out.request(`${receiver.url}/hook`, {
        method: 'POST',
        headers,
        body: raw.replace('created', 'deleted'),
      });
      const [good, tampered] = receiver.deliveries;
      assert.equal(good?.serviceSignatureValid, true);
      assert.equal(good?.standardSignatureValid, true);
      assert.equal(good?.request.headers['x-service-event-id'], 'evt_http_1');
      assert.equal(tampered?.serviceSignatureValid, false);
      assert.equal(tampered?.standardSignatureValid, false);
    } finally {
      await out.close();
      await receiver.close();
    }
  });
});
