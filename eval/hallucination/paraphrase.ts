// npx tsx eval/hallucination/paraphrase.ts — the whole engine, with the committed model, on the own paraphrase
// and entity-swap cases (paraphrase-cases.ts): three-way accuracy (supported / contradicted / unsupported,
// partially supported counted as unsupported) per kind and language, and what the misses came out as. These
// cases are never trained on; they check the kinds the private black-box set found weakest. `--agreement`:
// engine-options.ts (run it with the model `npm run train:hallucination -- --agreement` writes).
import { checkClaim } from '../../src/engines/hallucination/index.js';
import { ENGINE_OPTIONS } from './engine-options.js';
import { groupBy, pct } from './metrics.js';
import { PARAPHRASE_PASSAGES } from './paraphrase-cases.js';
import { styleCases } from './style.js';

const threeWay = (v: string) => (v === 'partially_supported' ? 'unsupported' : v);
const rows = styleCases(PARAPHRASE_PASSAGES).map((c) => ({
  ...c,
  got: threeWay(checkClaim(c.claim, c.sources, ENGINE_OPTIONS).verdict),
}));
const line = (name: string, list: typeof rows) => {
  const right = list.filter((r) => r.got === r.label).length;
  const came = [...groupBy(list, (r) => r.got)].map(([v, l]) => `${v} ${l.length}`).join(', ');
  console.log(`${name.padEnd(22)} ${pct(right / list.length)}  (${right}/${list.length}; came out: ${came})`);
};
for (const [kind, list] of groupBy(rows, (r) => r.kind)) {
  line(kind, list);
  for (const [lang, l] of [...groupBy(list, (r) => r.lang)].sort()) line(`  ${lang}`, l);
}
line('all', rows);
