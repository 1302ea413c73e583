import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RecentByIdentity } from './recent.js';

describe('RecentByIdentity', () => {
  it('finds a value by the identity of its key, not by equal contents', () => {
    const memo = new RecentByIdentity<Uint8Array, string>(2);
    const a = new Uint8Array([1, 2]);
    memo.set(a, 'a');
    assert.equal(memo.get(a), 'a');
    assert.equal(memo.get(new Uint8Array([1, 2])), undefined);
  });

  it('keeps the most recent keys and releases the oldest', () => {
    const memo = new RecentByIdentity<object, number>(3);
    const keys = Array.from({ length: 5 }, () => ({}));
    for (const [i, k] of keys.entries()) memo.set(k, i);
    assert.deepEqual(
      keys.map((k) => memo.get(k)),
      [undefined, undefined, 2, 3, 4],
    );
  });

  it('replaces the value of a key it holds without taking another slot', () => {
    const memo = new RecentByIdentity<object, number>(2);
    const a = {};
    const b = {};
    memo.set(a, 1);
    memo.set(b, 2);
    memo.set(a, 3);
    assert.equal(memo.get(a), 3);
    assert.equal(memo.get(b), 2);
  });

  it('refuses a size below one', () => {
    assert.throws(() => new RecentByIdentity(0), RangeError);
  });
});
