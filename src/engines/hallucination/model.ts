import { MODEL } from './model-weights.js';
import { SIGNAL_NAMES } from './signals.js';

/** A logistic regression over standardised signals: P(supported) for one atomic claim. */
export interface LogisticModel {
  features: readonly string[];
  mean: readonly number[];
  scale: readonly number[];
  weights: readonly number[];
  bias: number;
  /** P(supported) at or above which the claim is called supported (chosen on the training data). */
  threshold: number;
}

export function probability(model: LogisticModel, x: readonly number[]): number {
  let z = model.bias;
  for (let i = 0; i < model.weights.length; i++) {
    z += model.weights[i]! * ((x[i]! - model.mean[i]!) / model.scale[i]!);
  }
  return 1 / (1 + Math.exp(-z));
}

/** The committed model, or null when its signals are not the ones this code computes (retrain). */
export function shippedModel(): LogisticModel | null {
  const same =
    MODEL.features.length === SIGNAL_NAMES.length && MODEL.features.every((f, i) => f === SIGNAL_NAMES[i]);
  return same ? MODEL : null;
}
