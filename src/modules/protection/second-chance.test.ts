import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SecondChanceMap } from './second-chance.js';

describe('SecondChanceMap', () => {
  it('drops the oldest entry not read since; one read goes to the back once', () => {
    const m = new SecondChanceMap<number>(3);
    m.set('a', 1);
    m.set('b', 2);
    m.set('c', 3);
    assert.equal(m.get('a'), 1);
    m.set('d', 4);
    // `a` was read: `b` goes instead, and `a` lost its mark.
    assert.deepEqual(
      ['a', 'b', 'c', 'd'].map((k) => m.get(k)),
      [1, undefined, 3, 4],
    );
    assert.equal(m.size, 3);
    assert.equal(m.evictions, 1);
  });

  it('holds its bytes: a replaced entry counts once, large ones push out several', () => {
    const m = new SecondChanceMap<string>(100, 10);
    m.set('a', 'x', 3);
    m.set('a', 'y', 4);
    assert.equal(m.bytes, 4);
    m.set('b', 'z', 3);
    m.set('c', 'w', 8);
    assert.equal(m.get('a'), undefined);
    assert.equal(m.get('b'), undefined);
    assert.equal(m.get('c'), 'w');
    assert.equal(m.bytes, 8);
  });

  it('ends a sweep in which every entry was read', () => {
    const m = new SecondChanceMap<number>(2);
    m.set('a', 1);
    m.set('b', 2);
    m.get('a');
    m.get('b');
    m.set('c', 3);
    // The sweep unmarks `a` and `b` and drops `a` on its second pass; the new entry is never the victim.
    assert.equal(m.size, 2);
    assert.equal(m.evictions, 1);
    assert.equal(m.get('c'), 3);
  });
});
