// npx tsx eval/dlp/errors.ts [corpus-fragment] [count] — prints NAME errors on the public PER corpora,
// grouped by a rough category, to decide which rule to work on next. Reads ../shared/data/dlp at run time.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { detectEntities } from '../../src/engines/dlp/index.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const dir = process.env.DLP_DATA_DIR ?? join(here, '../../../shared/data/dlp');
const FILES = [
  'universal_ner_en_de.jsonl',
  'wnut17_en.jsonl',
  'germeval2014_de.jsonl',
  'europeana_newspapers_ner_de_fr.jsonl',
];
const [fragment = '', countArg = '40'] = process.argv.slice(2);
const perCategory = Number(countArg);

interface Row {
  text: string;
  lang: string;
  entities: Array<{ type: string; start: number; end: number; value: string }>;
}

function category(kind: 'FN' | 'FP', value: string, overlapping: boolean, other: string | undefined): string {
  if (overlapping) return `${kind} wrong boundary`;
  if (kind === 'FP' && other) return `FP is gold ${other}`;
  const words = value.split(/\s+/).length;
  if (value === value.toUpperCase()) return `${kind} all caps`;
  if (value === value.toLowerCase()) return `${kind} lower case`;
  return `${kind} ${words === 1 ? 'one word' : 'several words'}`;
}

const groups = new Map<string, string[]>();
for (const file of FILES) {
  for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const row = JSON.parse(line) as Row;
    const tag = `${file.split('_')[0]}/${row.lang}`;
    if (fragment && !tag.includes(fragment)) continue;
    const gold = row.entities.filter((e) => e.type === 'PER');
    const found = detectEntities(row.text).filter((e) => e.type === 'NAME');
    const show = (s: number, e: number) =>
      `${row.text.slice(Math.max(0, s - 50), s)}[[${row.text.slice(s, e)}]]${row.text.slice(e, e + 40)}`.replace(
        /\n/g,
        ' ',
      );
    for (const g of gold) {
      if (found.some((f) => f.start === g.start && f.end === g.end)) continue;
      const ov = found.some((f) => f.start < g.end && g.start < f.end);
      const key = `${tag} ${category('FN', g.value, ov, undefined)}`;
      groups.set(key, [...(groups.get(key) ?? []), show(g.start, g.end)]);
    }
    for (const f of found) {
      if (gold.some((g) => f.start === g.start && f.end === g.end)) continue;
      const ov = gold.some((g) => f.start < g.end && g.start < f.end);
      const other = row.entities.find((e) => e.type !== 'PER' && f.start < e.end && e.start < f.end)?.type;
      const key = `${tag} ${category('FP', f.value, ov, other)}`;
      groups.set(key, [
        ...(groups.get(key) ?? []),
        `${show(f.start, f.end)}  (${f.detector} ${f.confidence})`,
      ]);
    }
  }
}
for (const [key, list] of [...groups.entries()].sort((a, b) => b[1].length - a[1].length)) {
  console.log(`\n## ${key}: ${list.length}`);
  for (const s of list.slice(0, perCategory)) console.log(`  ${s}`);
}
