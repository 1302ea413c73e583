import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { type FakeHttp, type RecordedRequest, type Reply, startFakeHttp } from './fake-http.js';

export interface WebhookDelivery {
  request: RecordedRequest;
  /** X-Service-Signature checked the way the spec tells receivers to (own code, independent of ours). */
  serviceSignatureValid: boolean;
  /** Standard Webhooks headers checked with the `standardwebhooks` library. */
  standardSignatureValid: boolean;
}

export interface WebhookFake extends FakeHttp {
  deliveries: WebhookDelivery[];
}

/**
 * A webhook receiver that verifies both signature schemes on every request and answers 200 unless a fault
 * is scripted (500, 410, 429 + Retry-After, 301, hang, reset via `fail`). With no secret it only records.
 */
export async function startWebhookFake(secret?: string, toleranceSec = 300): Promise<WebhookFake> {
  const deliveries: WebhookDelivery[] = [];
  const handle = (req: RecordedRequest): Reply => {
    const h = (n: string) => {
      const v = req.headers[n];
      return Array.isArray(v) ? v[0] : v;
    };
    let service = false;
    let standard = false;
    if (secret !== undefined) {
      const ts = h('x-service-timestamp') ?? h('webhook-timestamp') ?? '';
      const fresh = /^[0-9]+$/.test(ts) && Math.abs(Date.now() / 1000 - Number(ts)) <= toleranceSec;
      const expected = Buffer.from(
        `sha256=${createHmac('sha256', secret).update(`${ts}.${req.text}`).digest('hex')}`,
      );
      const given = Buffer.from(h('x-service-signature') ?? '');
      service = fresh && expected.length === given.length && timingSafeEqual(expected, given);
      try {
        const key = secret.startsWith('whsec_')
          ? new Webhook(secret)
          : new Webhook(secret, { format: 'raw' });
        key.verify(req.text, req.headers as Record<string, string>);
        standard = true;
      } catch {
        standard = false;
      }
    }
    deliveries.push({ request: req, serviceSignatureValid: service, standardSignatureValid: standard });
    return { status: 200, body: { received: true } };
  };
  const fake = await startFakeHttp(handle);
  return Object.assign(fake, { deliveries });
}
