// `--opt key=value` on the command line of the design scripts (dev.ts, holdout.ts) overrides one training
// option for a comparison (e.g. --opt groupCap=600); the trainer itself always uses DEFAULT_TRAIN.
import { FEATURE_SET } from '../../src/engines/detection/model/features.js';
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

/**
 * The feature switches tried in inj-lr-9 (all off in the shipped model), for dev.ts and holdout.ts, so a
 * design is checked on round 8 as it was on dev: --split (concepts of compound parts and of verbs with
 * fused clitics), --unordered (unordered concept pairs) with --reach N, --in-sentence and --verbs, --me (the
 * concept ME).
 */
export function featureSwitchesFromArgs(args: string[]): void {
  if (args.includes('--split')) FEATURE_SET.split = true;
  if (args.includes('--unordered')) FEATURE_SET.unordered = true;
  const reach = args.indexOf('--reach');
  if (reach >= 0) {
    const n = Number(args[reach + 1]);
    if (!Number.isInteger(n) || n < 1) throw new Error('--reach: needs a whole number of words');
    FEATURE_SET.unorderedReach = n;
  }
  if (args.includes('--in-sentence')) FEATURE_SET.unorderedInSentence = true;
  if (args.includes('--verbs')) FEATURE_SET.unorderedVerbs = true;
  if (args.includes('--me')) FEATURE_SET.firstPerson = true;
}
