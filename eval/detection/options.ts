// `--opt key=value` on the command line of the design scripts (dev.ts, holdout.ts) overrides one training
// option for a comparison (e.g. --opt groupCap=600); the trainer itself always uses DEFAULT_TRAIN.
import { DEFAULT_TRAIN, type TrainOptions } from '../../src/engines/detection/model/train.js';

export function trainOptionsFromArgs(args: string[]): TrainOptions {
  const options: TrainOptions = { ...DEFAULT_TRAIN };
  args.forEach((a, i) => {
    if (a !== '--opt') return;
    const [k, v] = String(args[i + 1]).split('=');
    // Own keys only: `k in options` let inherited names (toString) through.
    if (!k || !Object.hasOwn(options, k) || v === undefined)
      throw new Error(`--opt: unknown option ${args[i + 1]}`);
    const value = v === 'true' ? true : v === 'false' ? false : Number(v);
    if (typeof value === 'number' && Number.isNaN(value))
      throw new Error(`--opt: ${k} needs a number or true/false`);
    (options as unknown as Record<string, number | boolean>)[k] = value;
  });
  return options;
}
