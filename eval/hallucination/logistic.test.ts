import assert from 'node:assert/strict';
import { test } from 'node:test';
import { probability, SIGNAL_NAMES } from '../../src/engines/hallucination/index.js';
import { MODEL } from '../../src/engines/hallucination/model-weights.js';
import { rng } from './cases.js';
import { type Example, train } from './logistic.js';

function data(seed: number, n: number): Example[] {
  const next = rng(seed);
  return Array.from({ length: n }, () => {
    const a = next();
    const b = next();
    // Supported when the first signal outweighs the second; a quarter of the rows are positives.
    return { x: [a, b, next()], y: a - b > 0.4 ? 1 : 0 };
  });
}

test('training is deterministic and separates a separable set with a calibrated probability', () => {
  const rows = data(7, 400);
  const m1 = train(rows, ['a', 'b', 'noise']);
  const m2 = train(rows, ['a', 'b', 'noise']);
  assert.deepEqual(m1, m2);
  assert.ok(m1.weights[0]! > 0 && m1.weights[1]! < 0, JSON.stringify(m1.weights));
  assert.ok(Math.abs(m1.weights[2]!) < Math.abs(m1.weights[0]!) / 3, 'noise weighs little');
  const test = data(8, 400);
  const right = test.filter((e) => (probability(m1, e.x) >= m1.threshold ? 1 : 0) === e.y).length;
  assert.ok(right / test.length > 0.9, `${right}/${test.length}`);
  assert.ok(probability(m1, [1, 0, 0.5]) > 0.9 && probability(m1, [0, 1, 0.5]) < 0.1);
});

test('the committed model was trained on the signals the engine computes, in their order', () => {
  assert.deepEqual(MODEL.features, [...SIGNAL_NAMES]);
  assert.equal(MODEL.weights.length, SIGNAL_NAMES.length);
  assert.ok(MODEL.scale.every((s) => s > 0));
});
