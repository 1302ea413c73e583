import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../../src/platform/clock/index.js';
import { startTestServer } from '../support/harness.js';

// Needs a real Redis: runs whenever TEST_REDIS_URL is set (CI sets it); without it there is nothing to share.
const redisUrl = process.env.TEST_REDIS_URL;

describe('two API servers on one Redis', { skip: redisUrl ? false : 'TEST_REDIS_URL is not set' }, () => {
  it('share one per-minute limit and one quota counter', async () => {
    const clock = new ManualClock('2026-02-02T10:00:01.000Z');
    const a = await startTestServer({ clock });
    const b = await startTestServer({ clock, shareWith: a });
    try {
      assert.equal(a.ctx.cache.kind, 'redis');
      const tenant = await a.tenant({ plan: 'free' });
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const server = i % 2 === 0 ? a : b;
        statuses.push((await server.request('GET', '/api/v1/stats', { key: tenant.al })).status);
      }
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429, 429]);
      const remaining = (await b.request('GET', '/api/v1/stats', { key: tenant.al })).headers.get(
        'x-ratelimit-remaining',
      );
      assert.equal(remaining, '0');
    } finally {
      await b.close();
      await a.close();
    }
  });

  it('share DLP vault sessions: tokenized on one server, extended and rehydrated on the other', async () => {
    const a = await startTestServer();
    const b = await startTestServer({ shareWith: a });
    try {
      const tenant = await a.tenant({ plan: 'pro' });
      const first = await a.request('POST', '/api/v1/dlp/analyze', {
        key: tenant.al,
        body: { text: 'Mail eve@example.org' },
      });
      assert.equal(first.status, 200);
      // b caches the session (via Redis or the database), then a adds a token b has not seen.
      const warm = await b.request('POST', '/api/v1/dlp/rehydrate', {
        key: tenant.al,
        body: { text: first.body.tokenized, sessionId: first.body.sessionId },
      });
      assert.equal(warm.body.rehydrated, 'Mail eve@example.org');
      const second = await a.request('POST', '/api/v1/dlp/analyze', {
        key: tenant.al,
        body: { text: 'and bob@example.org', sessionId: first.body.sessionId },
      });
      const back = await b.request('POST', '/api/v1/dlp/rehydrate', {
        key: tenant.al,
        body: { text: `${first.body.tokenized} ${second.body.tokenized}`, sessionId: first.body.sessionId },
      });
      assert.equal(back.body.rehydrated, 'Mail eve@example.org and bob@example.org');
      assert.equal(back.body.count, 2);
    } finally {
      await b.close();
      await a.close();
    }
  });
});
