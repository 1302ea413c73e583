import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Cache, createMemoryCache } from '../../platform/cache/index.js';
import { ManualClock } from '../../platform/clock/index.js';
import type { Db } from '../../platform/storage/index.js';
import { createLimitsService } from './limits.service.js';

/** One cache shared by several limits services (the processes of a cluster), counting its increments. */
function sharedCache(clock: ManualClock): { cache: Cache; incrs: () => number } {
  const inner = createMemoryCache(clock);
  let n = 0;
  return {
    cache: {
      ...inner,
      kind: inner.kind,
      incr: (key, by, ttl) => {
        n++;
        return inner.incr(key, by, ttl);
      },
    },
    incrs: () => n,
  };
}

// hitWindow touches neither the database nor quota events.
const service = (cache: Cache, clock: ManualClock) =>
  createLimitsService({ db: {} as Db, cache, clock, emit: async () => undefined });

describe('per-minute windows', () => {
  it('counts a small limit hit by hit in the shared counter, exact across processes', async () => {
    const clock = new ManualClock('2026-03-01T10:00:05Z');
    const { cache, incrs } = sharedCache(clock);
    const [a, b] = [service(cache, clock), service(cache, clock)];
    const remaining: number[] = [];
    for (let i = 0; i < 12; i++) remaining.push((await (i % 2 ? b : a).hitWindow('rl:x', 10)).remaining);
    assert.deepEqual(remaining, [9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0]);
    assert.equal(incrs(), 12);
  });

  it('takes a large limit from the shared counter in blocks, and never admits more than the limit', async () => {
    const clock = new ManualClock('2026-03-01T10:00:05Z');
    const { cache, incrs } = sharedCache(clock);
    const procs = [service(cache, clock), service(cache, clock), service(cache, clock)];
    const limit = 60_000; // blocks of 60
    let admitted = 0;
    const counts = new Set<number>();
    for (let i = 0; i < limit + 1_000; i++) {
      // Uneven turns, so that the processes' blocks interleave in the shared count.
      const s = await (procs[(i * 7) % 3 === 0 ? 0 : i % 2 ? 1 : 2] ?? procs[0]!).hitWindow('rl:big', limit);
      if (!s.exceeded) {
        admitted++;
        counts.add(limit - s.remaining);
      }
    }
    assert.ok(admitted <= limit, `admitted ${admitted}`);
    // Unused counts of the other processes' blocks refuse at most a block each early.
    assert.ok(admitted >= limit - 2 * 60, `admitted ${admitted}`);
    assert.equal(counts.size, admitted, 'no two admitted hits got the same count');
    assert.ok(incrs() <= Math.ceil((limit + 1_000) / 60) + 3, `${incrs()} increments`);
  });

  it('gives one process alone the same counts as hit-by-hit counting, and starts afresh each window', async () => {
    const clock = new ManualClock('2026-03-01T10:00:05Z');
    const { cache } = sharedCache(clock);
    const one = service(cache, clock);
    const remaining: number[] = [];
    for (let i = 0; i < 130; i++) remaining.push((await one.hitWindow('rl:one', 60_000)).remaining);
    assert.deepEqual(
      remaining,
      Array.from({ length: 130 }, (_v, i) => 60_000 - 1 - i),
    );
    clock.advance(60_000);
    assert.equal((await one.hitWindow('rl:one', 60_000)).remaining, 59_999);
  });

  it('keeps the blocks of the current window only: per-address windows set this high do not pile up', async () => {
    // PARAPET_ANONYMOUS_PER_MINUTE and the other per-address limits accept up to 1,000,000: every address
    // seen gets a block, and a past window's blocks are of no use.
    const clock = new ManualClock('2026-03-01T10:00:05Z');
    const { cache } = sharedCache(clock);
    const one = service(cache, clock);
    for (let i = 0; i < 200; i++) await one.hitWindow(`rl:anon:10.0.${i >> 8}.${i & 255}`, 100_000);
    assert.equal(one.leaseCount(), 200);
    clock.advance(60_000);
    assert.equal((await one.hitWindow('rl:anon:10.9.9.9', 100_000)).remaining, 99_999);
    assert.equal(one.leaseCount(), 1);
    // A key of the past window counts afresh in the new one.
    assert.equal((await one.hitWindow('rl:anon:10.0.0.0', 100_000)).remaining, 99_999);
    assert.equal(one.leaseCount(), 2);
  });
});
