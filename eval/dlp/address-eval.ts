// Address figures of `npm run eval:dlp`: the public bare-address file (../shared/data/dlp, street-level rows,
// the whole text is the address) and the team's own in-sentence addresses (address-texts.ts), per country
// and layout. Nothing in the detector is learned, so there is no source to leave out; the dev split of the
// own texts was read while writing the detector, the test split and the public file only scored.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectEntities } from '../../src/engines/dlp/index.js';
import { addressTexts } from './address-texts.js';
import { structuredTexts } from './structured-texts.js';
import { fnv1a, printTable, score, Table } from './metrics.js';

interface AddressFileRow {
  text: string;
  country: string;
  source: string;
  street_level: boolean;
}

// Half of the rows (dev, by FNV-1a of the text) may be read while working on the detector, the other half
// (test) is only scored.
function half(text: string): 'dev' | 'test' {
  return fnv1a(text) % 2 === 0 ? 'dev' : 'test';
}

export function publicAddresses(dir: string, split: 'dev' | 'test' | 'all', verbose = false): void {
  const path = join(dir, 'addresses_us_gb_de_fr_it_ch_at_es.jsonl');
  if (!existsSync(path)) return;
  const rows = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as AddressFileRow);
  const exact = new Table();
  const overlap = new Table();
  let covered = 0;
  let total = 0;
  const misses: string[] = [];
  for (const row of rows) {
    if (!row.street_level || (split !== 'all' && half(row.text) !== split)) continue;
    const gold = [{ type: 'ADDRESS', start: 0, end: row.text.length }];
    const found = detectEntities(row.text).filter((e) => e.type === 'ADDRESS');
    const key = `${row.country}/${row.source.split('/')[1]!.split('@')[0]}`;
    score(gold, found, (_t, kind) => exact.get(key)[kind]++);
    score(gold, found, (_t, kind) => overlap.get(key)[kind]++, true);
    total += row.text.length;
    for (const f of found) covered += f.end - f.start;
    if (verbose && found.length === 0) misses.push(`  miss ${row.country}: ${JSON.stringify(row.text)}`);
  }
  console.log(
    `\n=== Public bare addresses (addresses_us_gb_de_fr_it_ch_at_es.jsonl, street-level rows, ${split} half; gold = the whole text, which often starts with a company or building name) ===`,
  );
  printTable('Exact span (country/source)', exact);
  printTable('Any overlap', overlap);
  console.log(`Characters of the address texts covered by an ADDRESS finding: ${((covered / total) * 100).toFixed(1)}%`);
  if (verbose) console.log(misses.slice(0, 80).join('\n'));
}

export function ownAddresses(split: 'dev' | 'test', verbose = false): void {
  const rows = addressTexts(split);
  const byCountry = new Table();
  const byLayout = new Table();
  const overlap = new Table();
  const errors: string[] = [];
  for (const row of rows) {
    const found = detectEntities(row.text).filter((e) => e.type === 'ADDRESS');
    score(row.gold, found, (_t, kind) => byCountry.get(`${row.country}/${row.lang}`)[kind]++);
    score(row.gold, found, (_t, kind) => byLayout.get(row.layout)[kind]++);
    score(row.gold, found, (_t, kind) => overlap.get(row.country)[kind]++, true);
    score(row.gold, found, (_t, kind) => byCountry.get('ALL')[kind]++);
    if (verbose) {
      const g = row.gold[0];
      const f = found.map((x) => JSON.stringify(x.value)).join(' + ');
      if (!g ? found.length > 0 : !found.some((x) => x.start === g.start && x.end === g.end)) {
        errors.push(`  ${row.country} ${row.layout}: ${JSON.stringify(row.text)} → ${f || 'nothing'}`);
      }
    }
  }
  console.log(`\n=== Own in-sentence addresses, ${split} split (${rows.length} texts, eval/dlp/address-texts.ts) ===`);
  printTable('Exact span, per country/language', byCountry);
  printTable('Exact span, per layout', byLayout);
  printTable('Any overlap, per country', overlap);
  if (verbose) console.log(errors.slice(0, 120).join('\n'));
}

export function structuredSet(split: 'dev' | 'test', verbose = false): void {
  const rows = structuredTexts(split);
  const byType = new Table();
  const byKind = new Table();
  const errors: string[] = [];
  for (const row of rows) {
    const found = detectEntities(row.text).filter((e) => e.type === 'PHONE' || e.type === 'CARD');
    score(row.gold, found, (t, kind) => byType.get(`${t}/${row.lang}`)[kind]++);
    score(row.gold, found, (t, kind) => byType.get(t)[kind]++);
    score(row.gold, found, (_t, kind) => byKind.get(row.kind)[kind]++);
    const g = row.gold[0]!;
    if (verbose && !found.some((f) => f.type === g.type && f.start === g.start && f.end === g.end)) {
      errors.push(`  ${row.kind}: ${JSON.stringify(row.text)} → ${found.map((f) => `${f.type}:${f.value}`).join(' + ') || 'nothing'}`);
    }
  }
  console.log(`\n=== Public-style phones and cards, ${split} split (${rows.length} texts, eval/dlp/structured-texts.ts) ===`);
  printTable('Exact span, per type and language', byType);
  printTable('Exact span, per locale format / card brand and length', byKind);
  if (verbose) console.log(errors.slice(0, 120).join('\n'));
}
