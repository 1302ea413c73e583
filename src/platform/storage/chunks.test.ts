import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { statementChunks } from './chunks.js';

describe('statementChunks', () => {
  it('splits a batch into full chunks and powers of two, so an insert has one of a few SQL texts', () => {
    assert.deepEqual(statementChunks(0, 64), []);
    assert.deepEqual(statementChunks(1, 64), [1]);
    assert.deepEqual(statementChunks(80, 64), [64, 16]);
    assert.deepEqual(statementChunks(200, 64), [64, 64, 64, 8]);
    const texts = new Set<number>();
    for (let n = 1; n <= 1_000; n++) {
      const sizes = statementChunks(n, 64);
      assert.equal(
        sizes.reduce((a, b) => a + b, 0),
        n,
      );
      for (const size of sizes) texts.add(size);
    }
    // Row counts, and so SQL texts, 64-row chunks produce for one table: 64, 32, 16, 8, 4, 2, 1.
    assert.deepEqual(
      [...texts].sort((a, b) => b - a),
      [64, 32, 16, 8, 4, 2, 1],
    );
  });

  it('loses no row when the full chunk is not a power of two', () => {
    assert.deepEqual(statementChunks(99, 100), [64, 32, 2, 1]);
    assert.deepEqual(statementChunks(250, 100), [100, 100, 32, 16, 2]);
    for (const full of [3, 5, 50, 100]) {
      for (let n = 0; n <= 3 * full; n++) {
        const sizes = statementChunks(n, full);
        assert.equal(
          sizes.reduce((a, b) => a + b, 0),
          n,
          `${n} rows in chunks of ${full}`,
        );
        assert.ok(sizes.every((size) => size <= full));
      }
    }
  });
});
