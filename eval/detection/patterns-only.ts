// The pattern layer alone on the training sources (`npx tsx eval/detection/patterns-only.ts [--attacks]`):
// patterns, TF-IDF similarity and obfuscation points, no learned model, so nothing is fitted and a change
// to a pattern shows at once what it flags and what it stops flagging. Prints the flag rate per label and
// kind and per label and language, then every benign row flagged (with the matches that flagged it), and
// with --attacks every attack caught, for a diff before and after a change. The eval-only file is not read.
import { analyzeFull } from '../../src/engines/detection/analyze.js';
import { combineScore, DEFAULT_THRESHOLDS } from '../../src/engines/detection/scoring.js';
import { loadSources } from './sources.js';

const showAttacks = process.argv.includes('--attacks');
const counts = new Map<string, [number, number]>();
const count = (key: string, flagged: boolean): void => {
  const c = counts.get(key) ?? [0, 0];
  c[0] += flagged ? 1 : 0;
  c[1] += 1;
  counts.set(key, c);
};
const benign: string[] = [];
const caught: string[] = [];
for (const s of loadSources().filter((x) => x.trainable && x.scored !== false)) {
  for (const r of s.rows) {
    const { parts, all } = analyzeFull(r.text, r.context ? { context: r.context } : {}, null);
    const score = combineScore({
      patternWeights: parts.patternWeights,
      similarity: parts.similarity,
      obfuscationPoints: parts.obfuscationPoints,
    });
    const flagged = score >= DEFAULT_THRESHOLDS.warn;
    const label = r.label ? 'attack' : 'benign';
    for (const key of [`${label} all`, `${label} ${r.kind}`, `${label} ${r.lang}`]) count(key, flagged);
    if (!flagged) continue;
    const why = all.map((m) => `${m.patternId}:${m.weight}:${JSON.stringify(m.match.slice(0, 60))}`);
    const line = `${score} ${s.name} ${r.lang} ${r.kind} [${why.join(' ')}] ${JSON.stringify(r.text.slice(0, 220))}`;
    (r.label ? caught : benign).push(line);
  }
}
for (const [key, [flagged, rows]] of [...counts].sort())
  console.log(
    `${key.padEnd(22)} ${`${flagged}/${rows}`.padStart(11)} ${((100 * flagged) / rows).toFixed(1)} %`,
  );
console.log('\nbenign rows flagged by the pattern layer:');
for (const line of benign) console.log(line);
if (showAttacks) {
  console.log('\nattacks caught by the pattern layer:');
  for (const line of caught) console.log(line);
}
