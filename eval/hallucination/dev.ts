// npm run dev:hallucination [-- --per-source N --offset K]
// Design decisions for the claim checker's signals are taken HERE, on a development split of the training
// sources only, never on the leave-one-source-out headline: rows after the first K of each trainable file's
// seeded order (the headline reads the first 300 or 400), the team's tuning part and the tuning part of the own
// style cases (style.ts) only, and no eval-only file.
// Signals are computed once; each variant is a subset of the signals, scored by leave-one-dev-source-out
// (trained on the other dev sources, supported iff P >= 0.5 on the weakest sub-claim).
import { parseArgs } from 'node:util';
import { probability, SIGNAL_NAMES } from '../../src/engines/hallucination/index.js';
import { sharedDataDir } from '../shared-data.js';
import { EVAL_ONLY, loadRows, type Row } from './dataset.js';
import { AGREEMENT_ARG } from './engine-options.js';
import { train } from './logistic.js';
import { levers } from './levers.js';
import { leaveOneSourceOut } from './loso.js';
import { balancedAccuracy, groupBy, pct, type Scored, threeWayAccuracy } from './metrics.js';

const { values } = parseArgs({
  options: {
    'per-source': { type: 'string', default: '250' },
    offset: { type: 'string', default: '300' },
    // Also run the whole engine with each fold's model (loso.ts on the dev rows): for changes of the verdict
    // logic itself rather than of the signals.
    engine: { type: 'boolean', default: false },
    // Levers of another kind than signal subsets (levers.ts): the loss, learned word pairs, a non-linear
    // combiner…; best with --per-source 600 (more rows, less noise).
    levers: { type: 'boolean', default: false },
    ...AGREEMENT_ARG,
  },
});

type Name = (typeof SIGNAL_NAMES)[number];
// Signals added on 2026-11-27 evening (roles.ts, absent names); the variants show what each adds.
const ROLE: Name[] = ['conflict_role'];
const ABSENT: Name[] = ['absent_names', 'absent_name_share'];
const BASE = SIGNAL_NAMES.filter((n) => !ROLE.includes(n) && !ABSENT.includes(n));
const VARIANTS: Record<string, readonly Name[]> = {
  'signals 11-27': BASE,
  '+role': [...BASE, ...ROLE],
  '+absent names': [...BASE, ...ABSENT],
  '+role +absent': SIGNAL_NAMES,
};

const t0 = performance.now();
const rows = loadRows(sharedDataDir('hallucination'), Number(values['per-source']), undefined, {
  offset: Number(values.offset),
  skip: EVAL_ONLY,
  teamParts: ['tuning'],
  teamOffset: 0,
  styleParts: ['tuning'],
}).filter((r) => r.signals.length === SIGNAL_NAMES.length);
console.log(`${rows.length} dev rows, signals in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

// How often each new conflict fires on the dev rows, by gold label: a role inversion on a supported claim is a
// false contradiction.
const roleAt = SIGNAL_NAMES.indexOf('conflict_role');
for (const [source, list] of groupBy(rows, (r) => r.source)) {
  const fired = list.filter((r) => r.signals[roleAt]! > 0);
  if (fired.length === 0) continue;
  const byGold = [...groupBy(fired, (r) => r.gold)].map(([g, l]) => `${g} ${l.length}`).join(', ');
  console.log(`role inversions in ${source}: ${fired.length} of ${list.length} (${byGold})`);
}

const pick = (r: Row, cols: number[]) => cols.map((c) => r.signals[c]!);
const sources = [...groupBy(rows, (r) => r.source)];
console.log(`\nvariant          ${sources.map(([s]) => s.slice(0, 14).padStart(15)).join('')}   mean`);
for (const [name, features] of Object.entries(VARIANTS)) {
  const cols = features.map((f) => SIGNAL_NAMES.indexOf(f));
  const scores: number[] = [];
  const single = new Map<string, number>();
  for (const [source, held] of sources) {
    const rest = rows.filter((r) => r.source !== source);
    const model = train(
      rest.map((r) => ({ x: pick(r, cols), y: r.gold === 'supported' ? 1 : 0 })),
      features,
    );
    const scored: Scored[] = held.map((r) => ({
      gold: r.gold,
      pred: probability(model, pick(r, cols)) >= model.threshold ? 'supported' : 'unsupported',
    }));
    const b = balancedAccuracy(scored);
    // A one-class source (FEVER-derived unsupported) is scored by plain accuracy and kept out of the mean.
    scores.push(b);
    single.set(
      source,
      scored.filter((x) => (x.gold === 'supported') === (x.pred === 'supported')).length / scored.length,
    );
  }
  // The mean over the public sources and the team's cases (comparable with earlier runs); own styles apart.
  const two = scores.filter((s, i) => !Number.isNaN(s) && sources[i]![0] !== 'own_styles');
  const mean = two.reduce((a, b) => a + b, 0) / Math.max(1, two.length);
  const cells = scores.map((s, i) =>
    (Number.isNaN(s) ? `${pct(single.get(sources[i]![0])!)}*` : pct(s)).padStart(15),
  );
  console.log(`${name.padEnd(16)} ${cells.join('')}   ${pct(mean)}`);
}

if (values.engine) {
  console.log('\nwhole engine, leave-one-dev-source-out (balanced accuracy; three-way accuracy)');
  const means: number[] = [];
  for (const r of leaveOneSourceOut(rows)) {
    const b = balancedAccuracy(r.learned);
    if (!Number.isNaN(b) && r.source !== 'own_styles') means.push(b);
    console.log(`${r.source.padEnd(30)} ${pct(b)}   ${pct(threeWayAccuracy(r.learned))}`);
    // The hand-written sources are in three languages: German and French weaknesses show only per language.
    if (r.source === 'team' || r.source === 'own_styles') {
      const byLang = groupBy(
        r.learned.map((x, i) => ({ ...x, lang: r.rows[i]!.lang })),
        (x) => x.lang,
      );
      for (const [lang, xs] of [...byLang].sort())
        console.log(`  ${lang.padEnd(28)} ${pct(balancedAccuracy(xs))}   ${pct(threeWayAccuracy(xs))}`);
    }
  }
  console.log(
    `mean (without own styles) ${pct(means.reduce((a, b) => a + b, 0) / Math.max(1, means.length))}`,
  );
}

if (values.levers) levers(rows);
