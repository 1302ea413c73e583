// Engine options the evaluation and training tools pass to every check. `--agreement` (dev.ts, run.ts,
// paraphrase.ts, scripts/train-hallucination.ts) turns on the negation × antonym agreement and the French/German
// word families (CheckOptions.agreement), tried on 2026-11-28 and not shipped: with it the tools reproduce
// that design's figures (eval/hallucination/results-polarity.md); without it, the shipped engine's.
import type { CheckOptions } from '../../src/engines/hallucination/index.js';

export const ENGINE_OPTIONS: Pick<CheckOptions, 'agreement'> = process.argv.includes('--agreement')
  ? { agreement: true }
  : {};

/** The option for the tools' argument parsers (they refuse unknown options). */
export const AGREEMENT_ARG = { agreement: { type: 'boolean', default: false } } as const;
