// Writes cases/tuning.jsonl and cases/test.jsonl from the hand-written facts (npx tsx eval/hallucination/generate.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { ALL_FACTS, casesFor, splitOf } from './cases.js';

const dir = new URL('./cases/', import.meta.url);
mkdirSync(dir, { recursive: true });
for (const part of ['tuning', 'test'] as const) {
  const rows = ALL_FACTS.filter((f) => splitOf(f) === part).flatMap(casesFor);
  writeFileSync(new URL(`${part}.jsonl`, dir), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  console.log(`${part}: ${rows.length} cases`);
}
