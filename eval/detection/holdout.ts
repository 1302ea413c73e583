// A check on the team's eighth round of material (own/round8.ts), which no model is trained on
// (`npx tsx eval/detection/holdout.ts [--opt key=value]…`): a model is fitted and calibrated on every
// trainable source as `npm run train:detection` does (with the given training options), then the round's
// attacks and benign rows are scored, per language and kind. The round was written for the kinds the
// private black-box set found weakest, so this is a small stand-in for it, written by the same team.
import { combineScore, DEFAULT_THRESHOLDS, modelPoints } from '../../src/engines/detection/scoring.js';
import { maxWindowLogit } from '../../src/engines/detection/model/linear.js';
import { fitDetector } from '../../src/engines/detection/model/train.js';
import { trainOptionsFromArgs } from './options.js';
import { round8Corpus } from './own/index.js';
import { prepare } from './prepare.js';
import { loadSources } from './sources.js';

const args = process.argv.slice(2);
const options = trainOptionsFromArgs(args);

const rows = prepare(
  loadSources()
    .filter((s) => s.trainable)
    .flatMap((s) => s.rows),
);
const { model, calibration } = fitDetector(rows, 'holdout', options);
const held = prepare(round8Corpus());
const tally = new Map<string, [number, number]>();
const count = (key: string, flagged: boolean): void => {
  const t = tally.get(key) ?? [0, 0];
  tally.set(key, [t[0] + (flagged ? 1 : 0), t[1] + 1]);
};
for (const p of held) {
  const z = maxWindowLogit(model, p.tf).logit;
  const zWarn = calibration.byLang[p.calLang] ?? calibration.zWarn;
  const score = combineScore({ ...p.parts, modelPoints: modelPoints(z, zWarn, p.tf.offsets.length - 1) });
  const flagged = score >= DEFAULT_THRESHOLDS.warn;
  const what = p.label ? 'attack recall' : 'benign FP';
  for (const k of [`${what} all`, `${what} ${p.lang}`, `${what} ${p.kind}`]) count(k, flagged);
  if (args.includes('--rows') && flagged !== (p.label === 1))
    console.log(
      `  ${p.label ? 'missed' : 'FP'} ${p.lang} z ${z.toFixed(2)}/${zWarn} ${JSON.stringify(p.row.text.slice(0, 120))}`,
    );
}
console.log(`options ${JSON.stringify(options)}, zWarn ${JSON.stringify(calibration)}`);
for (const [k, [f, n]] of [...tally].sort())
  console.log(
    `  ${k.padEnd(26)} ${String(f).padStart(3)}/${String(n).padEnd(3)} ${((100 * f) / n).toFixed(1)} %`,
  );
