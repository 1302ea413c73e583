// Builds eval/dlp/corpus/{tune,test}.jsonl from the hand-written templates: values come from seeded
// generators, offsets are computed while the text is assembled. Run: npx tsx eval/dlp/corpus/generate.ts
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Lang } from './people.js';
import { mulberry32, type Rng } from './random.js';
import type { TemplateSet } from './template-types.js';
import { DE } from './templates-de.js';
import { EN } from './templates-en.js';
import { FR } from './templates-fr.js';
import { IT } from './templates-it.js';
import { int } from './random.js';
import * as v from './values.js';

export interface LabelledEntity {
  type: string;
  start: number;
  end: number;
  value: string;
}
export interface CorpusRow {
  id: string;
  lang: Lang;
  split: 'tune' | 'test';
  kind: 'pii' | 'benign';
  text: string;
  entities: LabelledEntity[];
}

const PII_REPEATS = 4;
const BENIGN_REPEATS = 3;

function fill(template: string, rng: Rng, lang: Lang): { text: string; entities: LabelledEntity[] } {
  const p1 = v.person(rng, lang);
  let p2 = v.person(rng, lang);
  while (p2.first === p1.first || p2.last === p1.last) p2 = v.person(rng, lang);
  const country = { en: 'GB', fr: 'FR', de: 'CH', it: 'IT' }[lang];
  const values: Record<string, () => [string, string | null]> = {
    NAME: () => [`${p1.first} ${p1.last}`, 'NAME'],
    NAME2: () => [`${p2.first} ${p2.last}`, 'NAME'],
    FIRST: () => [p1.first, 'NAME'],
    LAST: () => [p1.last, 'NAME'],
    LAST_UPPER: () => [p1.last.toUpperCase(), 'NAME'],
    EMAIL: () => [v.email(rng, p1), 'EMAIL'],
    PHONE: () => [v.phone(rng, lang), 'PHONE'],
    IBAN: () => [v.iban(rng, rng() < 0.7 ? country : 'DE', rng() < 0.6), 'IBAN'],
    CARD: () => [v.card(rng), 'CARD'],
    CVV: () => [String(int(rng, 100, 999)), 'CVV'],
    AVS: () => [v.avs(rng), 'AVS'],
    SSN: () => [v.ssn(rng), 'SSN'],
    NINO: () => [v.nino(rng), 'NINO'],
    NIR: () => [v.nir(rng), 'NIR'],
    PASSWORD: () => [v.password(rng), 'PASSWORD'],
    API_KEY: () => [v.apiKey(rng), 'API_KEY'],
    ADDRESS: () => [v.address(rng, lang), 'ADDRESS'],
    DOB: () => [v.birthDate(rng, lang), 'BIRTH_DATE'],
    PASSPORT: () => [v.passport(rng, lang), 'PASSPORT'],
    LICENCE: () => [v.licence(rng), 'DRIVING_LICENCE'],
    ORDER: () => [v.orderNumber(rng), null],
    VERSION: () => [v.version(rng), null],
    PRICE: () => [v.price(rng), null],
    PRODUCT: () => [v.productCode(rng), null],
    BADCARD: () => [v.badCard(rng), null],
    BADIBAN: () => [v.badIban(rng), null],
    DATE: () => [v.plainDate(rng), null],
    SHA: () => [v.sha(rng), null],
    UUID: () => [v.uuid(rng), null],
    TIME: () => [v.time(rng), null],
  };
  let text = '';
  const entities: LabelledEntity[] = [];
  let cursor = 0;
  const cache = new Map<string, [string, string | null]>();
  for (const m of template.matchAll(/\{([A-Z_0-9]+)\}/g)) {
    text += template.slice(cursor, m.index);
    const key = m[1]!;
    const make = values[key];
    if (!make) throw new Error(`unknown placeholder ${key}`);
    // A placeholder used twice in one template is the same datum (the same e-mail twice, for instance).
    const [value, type] = cache.get(key) ?? make();
    cache.set(key, [value, type]);
    if (type) entities.push({ type, start: text.length, end: text.length + value.length, value });
    text += value;
    cursor = m.index + m[0].length;
  }
  text += template.slice(cursor);
  return { text, entities: mergeAdjacentNames(text, entities) };
}

// "DUPONT Marie" is one name: adjacent name parts separated by a single space form one labelled span.
function mergeAdjacentNames(text: string, entities: LabelledEntity[]): LabelledEntity[] {
  const out: LabelledEntity[] = [];
  for (const e of entities) {
    const prev = out[out.length - 1];
    if (prev && prev.type === 'NAME' && e.type === 'NAME' && text.slice(prev.end, e.start) === ' ') {
      prev.end = e.end;
      prev.value = text.slice(prev.start, prev.end);
    } else out.push({ ...e });
  }
  return out;
}

export function buildCorpus(): CorpusRow[] {
  const rows: CorpusRow[] = [];
  const sets: Array<[Lang, TemplateSet]> = [
    ['en', EN],
    ['fr', FR],
    ['de', DE],
    ['it', IT],
  ];
  for (const [lang, set] of sets) {
    for (const split of ['tune', 'test'] as const) {
      const rng = mulberry32([...`${lang}-${split}`].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7));
      for (const kind of ['pii', 'benign'] as const) {
        const templates = set[split][kind];
        const repeats = kind === 'pii' ? PII_REPEATS : BENIGN_REPEATS;
        templates.forEach((template, t) => {
          for (let r = 0; r < repeats; r++) {
            const { text, entities } = fill(template, rng, lang);
            rows.push({ id: `${lang}-${split}-${kind}-${t}-${r}`, lang, split, kind, text, entities });
          }
        });
      }
    }
  }
  return rows;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const rows = buildCorpus();
  for (const split of ['tune', 'test'] as const) {
    const part = rows.filter((r) => r.split === split);
    writeFileSync(join(here, `${split}.jsonl`), `${part.map((r) => JSON.stringify(r)).join('\n')}\n`);
    console.log(`${split}.jsonl: ${part.length} texts`);
  }
}
