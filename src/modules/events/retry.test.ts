import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  classifyWebhookStatus,
  MAX_RETRY_AFTER_MS,
  nextWebhookAttempt,
  parseRetryAfter,
  siemBackoff,
  WEBHOOK_RETRY_DELAYS_MS,
} from './retry.js';

const t0 = new Date('2026-11-22T03:00:00.000Z');
const after = (d: Date | null) => (d === null ? null : d.getTime() - t0.getTime());

describe('webhook schedule', () => {
  it('is 0 s, 1 s, 5 s, 30 s, 2 min, then failed', () => {
    assert.deepEqual([...WEBHOOK_RETRY_DELAYS_MS], [0, 1000, 5000, 30000, 120000]);
    assert.equal(after(nextWebhookAttempt(0, t0)), 0);
    assert.equal(after(nextWebhookAttempt(1, t0)), 1000);
    assert.equal(after(nextWebhookAttempt(2, t0)), 5000);
    assert.equal(after(nextWebhookAttempt(3, t0)), 30000);
    assert.equal(after(nextWebhookAttempt(4, t0)), 120000);
    assert.equal(nextWebhookAttempt(5, t0), null);
    assert.equal(nextWebhookAttempt(9, t0), null);
    assert.throws(() => nextWebhookAttempt(-1, t0), RangeError);
  });

  it('honours a longer Retry-After in seconds or as an HTTP date, never a shorter one', () => {
    assert.equal(after(nextWebhookAttempt(1, t0, '120')), 120000);
    assert.equal(after(nextWebhookAttempt(3, t0, '2')), 30000);
    assert.equal(after(nextWebhookAttempt(2, t0, 'Sun, 22 Nov 2026 03:01:00 GMT')), 60000);
    assert.equal(after(nextWebhookAttempt(2, t0, 'garbage')), 5000);
    assert.equal(after(nextWebhookAttempt(1, t0, '999999')), MAX_RETRY_AFTER_MS);
    assert.equal(nextWebhookAttempt(5, t0, '10'), null);
  });

  it('parses Retry-After forms', () => {
    assert.equal(parseRetryAfter(undefined, t0), null);
    assert.equal(parseRetryAfter(' 7 ', t0), 7000);
    assert.equal(parseRetryAfter('Sun, 22 Nov 2026 02:00:00 GMT', t0), 0);
    assert.equal(parseRetryAfter('-5', t0), null);
  });

  it('classifies answers', () => {
    assert.equal(classifyWebhookStatus(200), 'delivered');
    assert.equal(classifyWebhookStatus(204), 'delivered');
    assert.equal(classifyWebhookStatus(410), 'disable_endpoint');
    assert.equal(classifyWebhookStatus(301), 'retry');
    assert.equal(classifyWebhookStatus(429), 'retry');
    assert.equal(classifyWebhookStatus(500), 'retry');
  });
});

describe('siemBackoff', () => {
  it('doubles from the base up to the cap without jitter', () => {
    const opts = { random: () => 0.5 };
    const ms = [1, 2, 3, 4, 9, 10, 50].map((f) => siemBackoff(f, t0, opts).getTime() - t0.getTime());
    assert.deepEqual(ms, [1000, 2000, 4000, 8000, 256000, 300000, 300000]);
  });

  it('stays within ±20% of the exponential value for any random draw', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        (f, r) => {
          const raw = Math.min(300000, 1000 * 2 ** (f - 1));
          const ms = siemBackoff(f, t0, { random: () => r }).getTime() - t0.getTime();
          return ms >= Math.floor(raw * 0.8) && ms <= Math.ceil(raw * 1.2);
        },
      ),
    );
  });
});
