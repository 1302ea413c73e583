import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../../platform/clock/index.js';
import { createOrgCache } from './corrections.cache.js';

const make = (clock: ManualClock, over: { maxOrgs?: number; maxWeight?: number } = {}) =>
  createOrgCache<string[]>({
    clock,
    ttlMs: 1_000,
    maxOrgs: over.maxOrgs ?? 10,
    weigh: (v) => v.join('').length,
    maxWeight: over.maxWeight ?? 1_000,
  });

describe('per-organization cache', () => {
  it('loads once within the TTL and again after it', async () => {
    const clock = new ManualClock();
    const cache = make(clock);
    let loads = 0;
    const load = async () => [`v${++loads}`];
    assert.deepEqual(await cache.get('o1', load), ['v1']);
    assert.deepEqual(await cache.get('o1', load), ['v1']);
    clock.advance(1_001);
    assert.deepEqual(await cache.get('o1', load), ['v2']);
    assert.equal(loads, 2);
  });

  it('shares one load between concurrent callers', async () => {
    const cache = make(new ManualClock());
    let loads = 0;
    const load = async () => {
      loads++;
      await new Promise((r) => setImmediate(r));
      return ['x'];
    };
    await Promise.all([cache.get('o', load), cache.get('o', load), cache.get('o', load)]);
    assert.equal(loads, 1);
  });

  it('forgets on invalidate, and a load that began before it does not store stale data', async () => {
    const cache = make(new ManualClock());
    let release!: () => void;
    const slow = cache.get('o', () => new Promise<string[]>((r) => (release = () => r(['old']))));
    cache.invalidate('o');
    release();
    assert.deepEqual(await slow, ['old']);
    assert.deepEqual(await cache.get('o', async () => ['new']), ['new']);
    assert.deepEqual(await cache.get('o', async () => ['newer']), ['new']);
  });

  it('does not cache a failed load', async () => {
    const cache = make(new ManualClock());
    await assert.rejects(
      cache.get('o', async () => Promise.reject(new Error('db down'))),
      /db down/,
    );
    assert.deepEqual(await cache.get('o', async () => ['ok']), ['ok']);
  });

  it('evicts the least recently used organization by count and by weight', async () => {
    const cache = make(new ManualClock(), { maxOrgs: 2, maxWeight: 10 });
    await cache.get('a', async () => ['aaaa']);
    await cache.get('b', async () => ['bbbb']);
    await cache.get('a', async () => ['reloaded']); // a hit: a becomes the most recent
    await cache.get('c', async () => ['cc']);
    assert.equal(cache.size(), 2);
    assert.deepEqual(await cache.get('a', async () => ['reloaded']), ['aaaa']);
    assert.deepEqual(await cache.get('b', async () => ['b2']), ['b2']);
    // c was the least recently used, so it made room for b2
    assert.ok(cache.weight() <= 10);
    await cache.get('d', async () => ['dddddddddd']);
    assert.equal(cache.weight(), 10);
    assert.equal(cache.size(), 1);
    await cache.get('huge', async () => ['x'.repeat(11)]);
    assert.equal(cache.size(), 1, 'a value above the whole budget is served but not kept');
  });
});
