/**
 * Builds the shipped AI service catalog (src/modules/shadow-ai/catalog/v<N>.json) from the catalog facts
 * in ../shared/data/ai-catalog.json ({name, domains[], category, vendorCountry}), adding the fields the
 * spec's catalog needs. The derivations are written down in docs/shadow-ai.md ("The catalog"); they are
 * here, in one place, so a new version is one run of this script:
 *
 *   npx tsx scripts/build-ai-catalog.ts [source.json] --version 2026.11.1 --out src/modules/shadow-ai/catalog/v1.json
 *
 * Output is deterministic (entries sorted by id, domains sorted): after `npx biome format --write` on it, an
 * unchanged source gives the same bytes as the committed file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CATALOG_CATEGORIES } from '../src/modules/shadow-ai/shadow-ai.schemas.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { version: { type: 'string' }, out: { type: 'string' }, released: { type: 'string' } },
});
const source = resolve(positionals[0] ?? '../shared/data/ai-catalog.json');
if (!values.version || !values.out) {
  console.error('usage: build-ai-catalog.ts [source.json] --version V --out FILE [--released YYYY-MM-DD]');
  process.exit(2);
}

interface Fact {
  name: string;
  domains: string[];
  category: string;
  vendorCountry: string;
}

const CATEGORIES: readonly string[] = CATALOG_CATEGORIES;
// EU and EEA members: GDPR applies to the vendor directly. Residency is written "EU" for them.
const EEA = new Set(
  'AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE IS LI NO'.split(' '),
);
// Countries with an EU adequacy decision (Art. 45 GDPR) for commercial transfers, as of 2026. The United
// States is adequate only for vendors certified under the EU-US Data Privacy Framework: "conditional".
const ADEQUATE = new Set('AD AR CA CH FO GB GG IL IM JE JP KR NZ UY'.split(' '));

function gdprStatus(country: string): string {
  if (EEA.has(country)) return 'eu';
  if (ADEQUATE.has(country)) return 'adequate';
  if (country === 'US') return 'conditional';
  return 'not_adequate';
}

function slug(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
}

const facts = JSON.parse(readFileSync(source, 'utf8')) as Fact[];
const seen = new Set<string>();
const entries = facts.map((f) => {
  if (!CATEGORIES.includes(f.category)) throw new Error(`${f.name}: unknown category ${f.category}`);
  if (!/^[A-Z]{2}$/.test(f.vendorCountry)) throw new Error(`${f.name}: vendorCountry ${f.vendorCountry}`);
  const id = slug(f.name);
  if (seen.has(id)) throw new Error(`duplicate id ${id}`);
  seen.add(id);
  return {
    id,
    name: f.name,
    domains: [...new Set(f.domains.map((d) => d.trim().toLowerCase()))].sort(),
    category: f.category,
    vendorCountry: f.vendorCountry,
    dataResidency: EEA.has(f.vendorCountry) ? 'EU' : f.vendorCountry,
    gdprStatus: gdprStatus(f.vendorCountry),
    // The shipped classification: every entry starts "review"; organizations decide (docs/shadow-ai.md).
    status: 'review',
  };
});
entries.sort((a, b) => a.id.localeCompare(b.id));

const out = {
  version: values.version,
  released: values.released ?? new Date().toISOString().slice(0, 10),
  source: 'ai-catalog.json (public domain lists; see docs/shadow-ai.md)',
  derivation: 'dataResidency = vendor home jurisdiction (EU for EEA members); gdprStatus from it',
  entries,
};
writeFileSync(resolve(values.out), `${JSON.stringify(out, null, 2)}\n`);
console.log(`wrote ${entries.length} entries, version ${values.version}, to ${values.out}`);
