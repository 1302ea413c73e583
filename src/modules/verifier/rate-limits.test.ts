import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestVerifier, type TestVerifier } from '../../../test/support/verifier-harness.js';
import { ManualClock } from '../../platform/clock/index.js';
import { loadConfig } from '../../platform/config/index.js';

// The verification server counts every request in a one-minute window, as the API server does
// (docs/verifier.md, "Rate limits"): per API key once authenticated, per address for failed
// authentications, public routes (health, docs) and unknown routes. Every response carries the window's
// X-RateLimit-* headers; past the limit it answers 429 with the error body, retryAfter and Retry-After.
// The clock is a test clock, so the reset time and the wait are known exactly.

const START = '2026-06-01T09:00:30.000Z';
const RESET = String(Date.parse('2026-06-01T09:01:00.000Z') / 1000);
/** Unix seconds of an instant, as X-RateLimit-Reset gives it. */
const unix = (iso: string) => String(Date.parse(iso) / 1000);

describe('verification server rate limits', () => {
  const clock = new ManualClock(START);
  let v: TestVerifier;
  before(async () => {
    v = await startTestVerifier({
      clock,
      env: {
        PARAPET_VERIFIER_RATE_PER_MINUTE: '3',
        PARAPET_ANONYMOUS_PER_MINUTE: '2',
        PARAPET_AUTH_FAILURES_PER_MINUTE: '2',
      },
    });
  });
  after(() => v.close());

  const rate = (res: { headers: Headers }) => [
    res.headers.get('x-ratelimit-limit'),
    res.headers.get('x-ratelimit-remaining'),
    res.headers.get('x-ratelimit-reset'),
  ];
  const assertLimited = (
    res: { status: number; headers: Headers; body: any },
    limit: number,
    wait: number,
  ) => {
    assert.equal(res.status, 429);
    assert.equal(res.body.error, 'rate_limit_exceeded');
    assert.equal(res.body.statusCode, 429);
    assert.equal(res.body.retryAfter, wait);
    assert.equal(
      res.body.message,
      `Rate limit of ${limit} requests per minute reached; retry in ${wait} seconds.`,
    );
    assert.match(res.body.requestId, /^req_/);
    assert.equal(res.headers.get('retry-after'), String(wait));
    assert.equal(res.headers.get('x-ratelimit-remaining'), '0');
  };

  it('limits each key to its window, with the headers on every answer and 429 past it', async () => {
    clock.set(START);
    const seen: Array<Array<string | null>> = [];
    for (let i = 0; i < 3; i++) {
      const res = await v.request('GET', '/api/score', { key: v.user });
      assert.equal(res.status, 200, res.text);
      seen.push(rate(res));
    }
    assert.deepEqual(seen, [
      ['3', '2', RESET],
      ['3', '1', RESET],
      ['3', '0', RESET],
    ]);
    // Over the limit: every route of that key, a verify included (nothing is analysed).
    const over = await v.request('POST', '/api/verify', {
      key: v.user,
      body: { response: 'The sky is blue.' },
    });
    assertLimited(over, 3, 30);
    assert.equal(over.headers.get('x-ratelimit-reset'), RESET);
    // Another key has its own window.
    const other = await v.request('GET', '/api/sources', { key: v.admin });
    assert.equal(other.status, 200, other.text);
    assert.deepEqual(rate(other), ['3', '2', RESET]);
    // The window is checked before the role (the API server's order, docs/errors.md): 429, not 403.
    const forbidden = await v.request('POST', '/api/sources', {
      key: v.user,
      body: { type: 'file', url: '/x.txt' },
    });
    assertLimited(forbidden, 3, 30);
    // The next window admits the key again.
    clock.advance(30_000);
    const again = await v.request('GET', '/api/score', { key: v.user });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.headers.get('x-ratelimit-remaining'), '2');
    assert.equal(again.headers.get('x-ratelimit-reset'), String(Number(RESET) + 60));
  });

  it('limits failed authentications per address; a valid key of that address is not held back', async () => {
    clock.set('2026-06-01T10:00:15.000Z');
    for (let i = 0; i < 2; i++) {
      const res = await v.request('GET', '/api/score', { key: 'vf_live_guessed' });
      assert.equal(res.status, 401);
      assert.equal(res.headers.get('x-ratelimit-limit'), '2');
      assert.equal(res.headers.get('x-ratelimit-remaining'), String(1 - i));
    }
    const guessed = await v.request('POST', '/api/verify', { body: { response: 'x' } });
    assertLimited(guessed, 2, 45);
    assert.equal(guessed.headers.get('x-ratelimit-reset'), unix('2026-06-01T10:01:00.000Z'));
    const valid = await v.request('GET', '/api/score', { key: v.admin });
    assert.equal(valid.status, 200, valid.text);
    assert.equal(valid.headers.get('x-ratelimit-limit'), '3');
    // A role refusal (403) is counted in the key's window and carries its headers.
    const forbidden = await v.request('POST', '/api/sources', {
      key: v.user,
      body: { type: 'file', url: '/x.txt' },
    });
    assert.equal(forbidden.status, 403, forbidden.text);
    assert.deepEqual(rate(forbidden), ['3', '2', unix('2026-06-01T10:01:00.000Z')]);
  });

  it('limits public and unknown routes per address', async () => {
    clock.set('2026-06-01T11:00:50.000Z');
    const health = await v.request('GET', '/api/health');
    assert.equal(health.status, 200);
    assert.equal(health.headers.get('x-ratelimit-limit'), '2');
    assert.equal(health.headers.get('x-ratelimit-remaining'), '1');
    const unknown = await v.request('GET', '/api/nothing-here');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.headers.get('x-ratelimit-remaining'), '0');
    const over = await v.request('GET', '/api/health');
    assertLimited(over, 2, 10);
    assert.equal((await v.request('GET', '/api/openapi.json')).status, 429);
    assert.equal((await v.request('GET', '/api/nothing-here')).status, 429);
  });

  it('defaults to 600 a minute per key, and the addresses’ windows of the API server', () => {
    const config = loadConfig({});
    assert.equal(config.verifierRatePerMinute, 600);
    assert.equal(config.anonymousPerMinute, 1200);
    assert.equal(config.authFailuresPerMinute, 300);
  });
});
