// `npm run dev:hallucination -- --levers` (issue 17, 2026-11-27 evening). Levers of another kind than the
// lexical rounds before, compared on the development split only (the rows dev.ts reads; never the
// leave-one-source-out headline rows): where the gap is (within a source or across sources), the training
// loss and the invariance of the signals, a word-pair table learned from the training pairs, a structural
// substitution signal, a non-linear combiner, and the hand verdict combined with the learned one. Each is
// scored leave-one-dev-source-out like dev.ts; every table is built from the training folds only.
import { probability, SIGNAL_NAMES } from '../../src/engines/hallucination/index.js';
import { canonical, contentTerms, termsMatch } from '../../src/engines/hallucination/terms.js';
import { isStopword, tokenize } from '../../src/engines/hallucination/text.js';
import type { Row } from './dataset.js';
import { train } from './logistic.js';
import { balancedAccuracy, groupBy, pct, type Scored } from './metrics.js';

type Predict = (r: Row) => boolean;
/** Fits on the training rows and returns a prediction for the held-out ones. */
type Fit = (trainRows: Row[], held: Row[]) => Predict;

const label = (r: Row): 0 | 1 => (r.gold === 'supported' ? 1 : 0);
const OWN = 'own_styles';

function score(held: Row[], predict: Predict): { value: number; single: boolean } {
  const scored: Scored[] = held.map((r) => ({
    gold: r.gold,
    pred: predict(r) ? 'supported' : 'unsupported',
  }));
  const b = balancedAccuracy(scored);
  if (!Number.isNaN(b)) return { value: b, single: false };
  const right = scored.filter((x) => (x.gold === 'supported') === (x.pred === 'supported')).length;
  return { value: right / held.length, single: true };
}

/** One line: each source scored by `fit` trained on the others; the mean as in dev.ts (own styles apart). */
function line(name: string, rows: Row[], fit: Fit, folds?: (source: string, held: Row[]) => Predict): void {
  const sources = [...groupBy(rows, (r) => r.source)];
  const results = sources.map(([source, held]) =>
    score(
      held,
      folds
        ? folds(source, held)
        : fit(
            rows.filter((r) => r.source !== source),
            held,
          ),
    ),
  );
  const two = results.filter((x, i) => !x.single && sources[i]![0] !== OWN).map((x) => x.value);
  const cells = results.map((x) => `${pct(x.value)}${x.single ? '*' : ' '}`.padStart(9)).join('');
  console.log(
    `${name.padEnd(30)}${cells}   ${pct(two.reduce((a, b) => a + b, 0) / Math.max(1, two.length))}`,
  );
}

function header(title: string, rows: Row[]): void {
  const sources = [...groupBy(rows, (r) => r.source)];
  console.log(`\n${title}`);
  console.log(
    `${''.padEnd(30)}${sources.map(([s, h]) => `${s.slice(0, 6)}${h.length}`.padStart(9)).join('')}   mean`,
  );
}

/** The shipped recipe (class-balanced logistic regression) on a feature map. */
const logistic =
  (features: (r: Row) => number[], names: readonly string[], options: Parameters<typeof train>[2] = {}) =>
  (trainRows: Row[]): Predict => {
    const m = train(
      trainRows.map((r) => ({ x: features(r), y: label(r) })),
      names,
      options,
    );
    return (r) => probability(m, features(r)) >= m.threshold;
  };

const signals = (r: Row) => r.signals;

// -- (a) loss and invariance ------------------------------------------------------------------------------

/** Every training source weighs the same, and within each source both classes do; then classes overall. */
function sourceBalanced(rows: Row[]): number[] {
  const count = new Map<string, number>();
  for (const r of rows) count.set(r.source + label(r), (count.get(r.source + label(r)) ?? 0) + 1);
  const raw = rows.map((r) => {
    const classes = count.has(r.source + (1 - label(r))) ? 2 : 1;
    return 1 / (count.get(r.source + label(r))! * classes);
  });
  const pos = raw.reduce((a, w, i) => a + (label(rows[i]!) ? w : 0), 0);
  const neg = raw.reduce((a, w) => a + w, 0) - pos;
  return raw.map((w, i) => (label(rows[i]!) ? w / pos : w / neg));
}

/** Counts capped at 1 (whether, not how many) and no lengths: what a source's sentence length shifts. */
const COUNTS = new Set<string>([
  'conflict_number',
  'conflict_name',
  'conflict_negation',
  'conflict_antonym_quantifier',
  'conflict_other',
  'missing_number_date',
  'missing_name',
  'missing_words',
  'lex_antonym',
  'claim_negations',
  'unit_negations',
  'conflict_role',
  'absent_names',
]);
const LENGTHS = new Set<string>(['claim_words_log', 'unit_words_log']);
const INVARIANT_NAMES = SIGNAL_NAMES.filter((n) => !LENGTHS.has(n));
const invariant = (r: Row): number[] =>
  r.signals.flatMap((v, i) => {
    const n = SIGNAL_NAMES[i]!;
    return LENGTHS.has(n) ? [] : [COUNTS.has(n) ? Math.min(1, v) : v];
  });

// -- (b) word pairs learned from the training pairs ------------------------------------------------------

interface Gaps {
  /** Claim terms no source states, and source terms the claim does not use. */
  claim: string[];
  source: string[];
}

function gapsOf(r: Row): Gaps {
  const isWord = (t: string) => !/^\d+$/.test(t);
  const c = [...new Set(contentTerms(r.claim).filter(isWord))];
  const s = [...new Set(r.sources.flatMap((x) => contentTerms(x)).filter(isWord))];
  return {
    claim: c.filter((w) => !s.some((v) => termsMatch(w, v))),
    source: s.filter((v) => !c.some((w) => termsMatch(w, v))),
  };
}

/** Co-occurrence of an unstated claim term with an unused source term, in supported and other pairs. */
interface PairTable {
  pairs: Map<string, [number, number]>;
  claimTerm: Map<string, [number, number]>;
  sourceTermSupported: Map<string, number>;
  supported: number;
  other: number;
}

function pairTable(rows: Row[], gaps: Map<Row, Gaps>): PairTable {
  const t: PairTable = {
    pairs: new Map(),
    claimTerm: new Map(),
    sourceTermSupported: new Map(),
    supported: 0,
    other: 0,
  };
  const bump = (m: Map<string, [number, number]>, k: string, y: 0 | 1) => {
    const v = m.get(k) ?? [0, 0];
    v[y]++;
    m.set(k, v);
  };
  for (const r of rows) {
    const g = gaps.get(r)!;
    const y = label(r);
    if (y) t.supported++;
    else t.other++;
    for (const w of g.claim) bump(t.claimTerm, w, y);
    if (y) for (const v of g.source) t.sourceTermSupported.set(v, (t.sourceTermSupported.get(v) ?? 0) + 1);
    for (const w of g.claim) for (const v of g.source) bump(t.pairs, `${w} ${v}`, y);
  }
  return t;
}

/**
 * Share of unstated claim terms a source term paraphrases by the table (seen together in at least two
 * supported pairs, positive PMI, more often in supported pairs than in others), and the mean log-odds of
 * support when each unstated term is missing.
 */
function pairFeatures(t: PairTable, g: Gaps): number[] {
  if (g.claim.length === 0) return [0, 0];
  let credited = 0;
  let odds = 0;
  const prior = Math.log((t.supported + 1) / (t.other + 1));
  for (const w of g.claim) {
    const [wOther, wSupported] = t.claimTerm.get(w) ?? [0, 0];
    odds += Math.log((wSupported + 1) / (wOther + 1)) - prior;
    for (const v of g.source) {
      const [other, supported] = t.pairs.get(`${w} ${v}`) ?? [0, 0];
      if (supported < 2 || supported <= other) continue;
      const pmi = Math.log((supported * t.supported) / (wSupported * (t.sourceTermSupported.get(v) ?? 1)));
      if (pmi > 0) {
        credited++;
        break;
      }
    }
  }
  return [credited / g.claim.length, odds / g.claim.length];
}

// -- structural substitution -------------------------------------------------------------------------------

interface Tok {
  term: string;
  content: boolean;
}
const toks = (text: string): Tok[] =>
  tokenize(text).map((t) => ({ term: canonical(t), content: !isStopword(t.norm) && t.norm.length > 1 }));

/**
 * Share of unstated claim words that stand where the source has another unused word (same neighbour on
 * either side): a substitution, as FEVER's refutations are written, rather than an added detail.
 */
function substitution(r: Row): number {
  const c = toks(r.claim);
  const sentences = r.sources.flatMap((s) => s.split(/(?<=[.!?])\s+/u)).map(toks);
  const all = sentences.flat();
  const stated = (w: string) => all.some((e) => termsMatch(w, e.term));
  const inClaim = (w: string) => c.some((e) => termsMatch(w, e.term));
  let unstated = 0;
  let swapped = 0;
  for (let i = 0; i < c.length; i++) {
    if (!c[i]!.content || stated(c[i]!.term)) continue;
    unstated++;
    const hit = sentences.some((s) =>
      s.some(
        (u, j) =>
          u.content &&
          !inClaim(u.term) &&
          ((i > 0 && j > 0 && c[i - 1]!.term === s[j - 1]!.term) ||
            (i + 1 < c.length && j + 1 < s.length && c[i + 1]!.term === s[j + 1]!.term)),
      ),
    );
    if (hit) swapped++;
  }
  return unstated === 0 ? 0 : swapped / unstated;
}

// -- non-linear combiner -------------------------------------------------------------------------------------

interface Stump {
  feature: number;
  cut: number;
  below: number;
  above: number;
}

/**
 * Gradient-boosted stumps (class-balanced log loss, Newton steps, 15 quantile cuts per signal) started from
 * the logistic model's log-odds: what interactions and thresholds within a signal add to the linear model.
 */
function boosted(rounds: number, shrink: number) {
  return (trainRows: Row[]): Predict => {
    const m = train(
      trainRows.map((r) => ({ x: r.signals, y: label(r) })),
      SIGNAL_NAMES,
    );
    const base = (r: Row) => {
      const p = Math.min(1 - 1e-9, Math.max(1e-9, probability(m, r.signals)));
      return Math.log(p / (1 - p));
    };
    const pos = trainRows.filter((r) => label(r)).length;
    const w = trainRows.map((r) => (label(r) ? 0.5 / pos : 0.5 / (trainRows.length - pos)));
    const f = trainRows.map(base);
    const cuts = SIGNAL_NAMES.map((_, j) => {
      const values = [...new Set(trainRows.map((r) => r.signals[j]!))].sort((a, b) => a - b);
      return [
        ...new Set(Array.from({ length: 15 }, (_, q) => values[Math.floor(((q + 1) * values.length) / 16)]!)),
      ];
    });
    const stumps: Stump[] = [];
    for (let k = 0; k < rounds; k++) {
      const p = f.map((z) => 1 / (1 + Math.exp(-z)));
      const g = trainRows.map((r, i) => w[i]! * (label(r) - p[i]!));
      const h = p.map((q, i) => w[i]! * q * (1 - q) + 1e-12);
      let best = { gain: -1, stump: { feature: 0, cut: 0, below: 0, above: 0 } };
      for (let j = 0; j < SIGNAL_NAMES.length; j++)
        for (const cut of cuts[j]!) {
          let gl = 0;
          let hl = 0;
          let gr = 0;
          let hr = 0;
          trainRows.forEach((r, i) => {
            if (r.signals[j]! < cut) {
              gl += g[i]!;
              hl += h[i]!;
            } else {
              gr += g[i]!;
              hr += h[i]!;
            }
          });
          const gain = (gl * gl) / (hl + 1e-3) + (gr * gr) / (hr + 1e-3);
          if (gain > best.gain)
            best = { gain, stump: { feature: j, cut, below: gl / (hl + 1e-3), above: gr / (hr + 1e-3) } };
        }
      const s = { ...best.stump, below: best.stump.below * shrink, above: best.stump.above * shrink };
      stumps.push(s);
      trainRows.forEach((r, i) => {
        f[i]! += r.signals[s.feature]! < s.cut ? s.below : s.above;
      });
    }
    return (r) =>
      stumps.reduce((z, s) => z + (r.signals[s.feature]! < s.cut ? s.below : s.above), base(r)) >= 0;
  };
}

export function levers(rows: Row[]): void {
  const all = logistic(signals, SIGNAL_NAMES);

  header('where the gap is: leave-one-source-out against five-fold cross-validation', rows);
  line('leave one source out', rows, all);
  const fiveFold = (withOthers: boolean) => (source: string, held: Row[]) => {
    const predictions = new Map<Row, boolean>();
    for (let k = 0; k < 5; k++) {
      const test = held.filter((_, i) => i % 5 === k);
      const own = held.filter((_, i) => i % 5 !== k);
      const trainRows = withOthers ? [...own, ...rows.filter((r) => r.source !== source)] : own;
      if (new Set(trainRows.map(label)).size < 2) return () => false;
      const p = all(trainRows);
      for (const r of test) predictions.set(r, p(r));
    }
    return (r: Row) => predictions.get(r)!;
  };
  line('5-fold within the source', rows, all, fiveFold(false));
  line('5-fold, other sources added', rows, all, fiveFold(true));

  header('(a) loss and source-invariant signals', rows);
  for (const l2 of [1e-3, 3e-2, 3e-1]) {
    line(`class-balanced, L2 ${l2}`, rows, logistic(signals, SIGNAL_NAMES, { l2 }));
    line(`  source-balanced`, rows, (t) =>
      logistic(signals, SIGNAL_NAMES, { l2, weights: sourceBalanced(t) })(t),
    );
    line(`  invariant signals`, rows, logistic(invariant, INVARIANT_NAMES, { l2 }));
    line(`  both`, rows, (t) => logistic(invariant, INVARIANT_NAMES, { l2, weights: sourceBalanced(t) })(t));
  }

  header('(b) word pairs learned from the training pairs (cross-fitted within the training folds)', rows);
  const gaps = new Map(rows.map((r) => [r, gapsOf(r)]));
  const withPairs =
    (pick: number[]) =>
    (trainRows: Row[]): Predict => {
      // Each training source's features come from a table of the other training sources, as the held-out
      // source's come from a table it did not help build.
      const tables = new Map(
        [...new Set(trainRows.map((r) => r.source))].map((s) => [
          s,
          pairTable(
            trainRows.filter((r) => r.source !== s),
            gaps,
          ),
        ]),
      );
      const full = pairTable(trainRows, gaps);
      const x = (r: Row, t: PairTable) => [
        ...r.signals,
        ...pick.map((i) => pairFeatures(t, gaps.get(r)!)[i]!),
      ];
      const names = [...SIGNAL_NAMES, ...pick.map((i) => ['pair_credit', 'pair_odds'][i]!)];
      const m = train(
        trainRows.map((r) => ({ x: x(r, tables.get(r.source)!), y: label(r) })),
        names,
      );
      return (r) => probability(m, x(r, full)) >= m.threshold;
    };
  line('signals', rows, all);
  line('+ paraphrase credit', rows, withPairs([0]));
  line('+ unstated-word odds', rows, withPairs([1]));
  line('+ both', rows, withPairs([0, 1]));

  header('structural substitution, non-linear combiner, hand verdict', rows);
  const swapped = new Map(rows.map((r) => [r, substitution(r)]));
  line('signals', rows, all);
  line(
    '+ substitution share',
    rows,
    logistic((r) => [...r.signals, swapped.get(r)!], [...SIGNAL_NAMES, 'subst']),
  );
  line('boosted stumps, 100 rounds', rows, boosted(100, 0.3));
  line('learned or hand verdict', rows, (t) => {
    const p = all(t);
    return (r) => p(r) || r.rules === 'supported';
  });
  line('learned and hand verdict', rows, (t) => {
    const p = all(t);
    return (r) => p(r) && r.rules === 'supported';
  });
}
