// Rows ready for fitting and scoring: the engine's other signals (patterns, similarity, obfuscation) are
// computed once without any model, and the model's features once, so that a refit per held-out source
// costs only the fit itself.
import { analyzeFull } from '../../src/engines/detection/analyze.js';
import { tokenFeatures } from '../../src/engines/detection/model/features.js';
import type { TrainRow } from '../../src/engines/detection/model/train.js';
import type { EvalRow } from './sources.js';

/** Sources written by the team in five languages: calibration splits them by language (train.ts). */
const SPLIT_BY_LANGUAGE = new Set(['own_training', 'team_corpus']);

/**
 * Near-duplicates: texts of one source that open with the same 64 characters and run on for at least 100
 * (a persona set-up composed with several questions, a document with one of several sentences planted at
 * its end) are one family, counted once in the group caps and calibration (train.ts). Shorter texts are
 * their own family: their first 64 characters are most of them.
 */
const FAMILY_PREFIX = 64;
const familyOf = (source: string, normalised: string): string | undefined =>
  normalised.length >= 100 ? `${source}|${normalised.slice(0, FAMILY_PREFIX)}` : undefined;

export type PreparedRow = TrainRow & { row: EvalRow };

export function prepare(rows: EvalRow[]): PreparedRow[] {
  return rows.map((r) => {
    const { parts } = analyzeFull(r.text, r.context ? { context: r.context } : {}, null);
    return {
      row: r,
      tf: tokenFeatures(parts.normalised, parts.indirect),
      label: r.label,
      source: r.source,
      ...(SPLIT_BY_LANGUAGE.has(r.source) ? { splitKey: `${r.source}:${r.lang}` } : {}),
      lang: r.lang,
      calLang: parts.language ?? 'und',
      kind: r.kind,
      family: familyOf(r.source, parts.normalised),
      ...(r.aux ? { calibrate: false } : {}),
      parts: {
        patternWeights: parts.patternWeights,
        similarity: parts.similarity,
        obfuscationPoints: parts.obfuscationPoints,
      },
    };
  });
}
