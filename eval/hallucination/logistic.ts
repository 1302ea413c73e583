// Logistic regression for the learned verdict: standardised signals, class-balanced log loss with a small
// L2 penalty, full-batch gradient descent from zero for a fixed number of steps. No randomness, so the same
// rows give the same weights byte for byte. P(supported) is calibrated by the log loss itself; the
// threshold is 0.5 of the class-balanced model, which targets balanced accuracy.
import type { LogisticModel } from '../../src/engines/hallucination/index.js';

export interface Example {
  x: number[];
  y: 0 | 1;
}

const STEPS = 800;
const RATE = 0.5;
const L2 = 1e-3;
const DIGITS = 1e6;
const fixed = (v: number) => Math.round(v * DIGITS) / DIGITS;

/**
 * Options for the development comparisons (levers.ts); the shipped model uses the defaults. `weights`: one
 * per example, replacing the class balance (the caller balances); `l2`: the penalty.
 */
export interface TrainOptions {
  weights?: readonly number[];
  l2?: number;
}

export function train(
  examples: Example[],
  features: readonly string[],
  options: TrainOptions = {},
): LogisticModel {
  const l2 = options.l2 ?? L2;
  const d = features.length;
  const n = examples.length;
  const mean = new Array<number>(d).fill(0);
  const scale = new Array<number>(d).fill(0);
  for (const e of examples) for (let j = 0; j < d; j++) mean[j]! += e.x[j]! / n;
  for (const e of examples) for (let j = 0; j < d; j++) scale[j]! += (e.x[j]! - mean[j]!) ** 2 / n;
  for (let j = 0; j < d; j++) scale[j] = Math.sqrt(scale[j]!) || 1;
  const xs = examples.map((e) => e.x.map((v, j) => (v - fixed(mean[j]!)) / fixed(scale[j]!)));
  const positives = examples.filter((e) => e.y === 1).length;
  // Each class weighs half of the loss, whatever its count.
  const balanced = (y: number) =>
    y === 1 ? n / (2 * Math.max(1, positives)) : n / (2 * Math.max(1, n - positives));
  // Given weights are rescaled to sum to n, so the step size means the same as with the class balance.
  const total = options.weights?.reduce((a, b) => a + b, 0) ?? 0;
  const weightOf = (y: number, i: number) =>
    options.weights ? (options.weights[i]! * n) / total : balanced(y);
  const w = new Array<number>(d).fill(0);
  let b = 0;
  for (let step = 0; step < STEPS; step++) {
    const gw = new Array<number>(d).fill(0);
    let gb = 0;
    for (let i = 0; i < n; i++) {
      const x = xs[i]!;
      let z = b;
      for (let j = 0; j < d; j++) z += w[j]! * x[j]!;
      const p = 1 / (1 + Math.exp(-z));
      const g = (p - examples[i]!.y) * weightOf(examples[i]!.y, i);
      for (let j = 0; j < d; j++) gw[j]! += g * x[j]!;
      gb += g;
    }
    for (let j = 0; j < d; j++) w[j]! -= RATE * (gw[j]! / n + l2 * w[j]!);
    b -= RATE * (gb / n);
  }
  return {
    features: [...features],
    mean: mean.map(fixed),
    scale: scale.map(fixed),
    weights: w.map(fixed),
    bias: fixed(b),
    threshold: 0.5,
  };
}
