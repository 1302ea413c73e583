// Rows ready for fitting and scoring: the engine's other signals (patterns, similarity, obfuscation) are
// computed once without any model, and the model's features once, so that a refit per held-out source
// costs only the fit itself.
import { analyzeFull } from '../../src/engines/detection/analyze.js';
import { tokenFeatures } from '../../src/engines/detection/model/features.js';
import type { TrainRow } from '../../src/engines/detection/model/train.js';
import type { EvalRow } from './sources.js';

/** Sources written by the team in five languages: calibration splits them by language (train.ts). */
const SPLIT_BY_LANGUAGE = new Set(['own_training', 'team_corpus']);

export type PreparedRow = TrainRow & { row: EvalRow };

export function prepare(rows: EvalRow[]): PreparedRow[] {
  return rows.map((r) => {
    const { parts } = analyzeFull(r.text, r.context ? { context: r.context } : {}, null);
    return {
      row: r,
      tf: tokenFeatures(parts.normalised, parts.indirect, false, parts.language),
      label: r.label,
      source: r.source,
      ...(SPLIT_BY_LANGUAGE.has(r.source) ? { splitKey: `${r.source}:${r.lang}` } : {}),
      lang: r.lang,
      calLang: parts.language ?? 'und',
      kind: r.kind,
      // Near-duplicate families as the corpus generator tagged them (own/index.ts, own/roleplay.ts), not by
      // text openings: a shared opening also groups different texts (docs/detection.md, inj-lr-7).
      ...(r.family !== undefined ? { family: `${r.source}|${r.family}` } : {}),
      ...(r.aux ? { calibrate: false } : {}),
      parts: {
        patternWeights: parts.patternWeights,
        similarity: parts.similarity,
        obfuscationPoints: parts.obfuscationPoints,
      },
    };
  });
}
