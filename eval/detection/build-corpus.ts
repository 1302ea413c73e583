// Composes eval/detection/corpus/{tune,test}.jsonl from the hand-written fragments. Deterministic: the
// same fragments always give the same files. Run: npx tsx eval/detection/build-corpus.ts
import { writeFileSync } from 'node:fs';
import { referenceAttacks } from '../../src/engines/detection/reference/index.js';
import { HOLDOUT, HOLDOUT_INDIRECT } from './fragments/holdout.js';
import { TEST, TEST_INDIRECT } from './fragments/test.js';
import { TUNE, TUNE_INDIRECT } from './fragments/tune.js';
import type { Fragments, Lang } from './fragments/types.js';
import { OBFUSCATIONS } from './obfuscate.js';

export interface Row {
  text: string;
  label: 0 | 1;
  category: string;
  lang: Lang;
  kind: 'attack' | 'obfuscated' | 'indirect' | 'benign' | 'hard_negative';
  context?: string;
  obfuscation?: string;
}

const GREETING: Record<Lang, [string, string]> = {
  en: ['Hi there! ', ' Thanks a lot.'],
  fr: ['Bonjour ! ', ' Merci beaucoup.'],
  de: ['Hallo! ', ' Vielen Dank.'],
  it: ['Ciao! ', ' Grazie mille.'],
  es: ['¡Hola! ', ' Muchas gracias.'],
};

function fill(text: string, goal: string): string {
  return text.replace('{goal}', goal).replace(/\.\.$/, '.');
}

function build(f: Fragments, indirect: Record<string, string[]>): Row[] {
  const rows: Row[] = [];
  const direct: Row[] = [];
  for (const group of f.attacks) {
    const goals = f.goals[group.lang];
    for (const t of group.texts) {
      const texts = t.includes('{goal}') ? goals.map((g) => fill(t, g)) : [t];
      for (const text of texts)
        direct.push({ text, label: 1, category: group.category, lang: group.lang, kind: 'attack' });
    }
  }
  direct.forEach((r, i) => {
    rows.push(r);
    const benign = f.benign[r.lang];
    if (i % 2 === 0) rows.push({ ...r, text: `${benign[i % benign.length]} ${r.text}` });
    if (i % 2 === 1 || r.lang !== 'en') {
      const ob = OBFUSCATIONS[i % OBFUSCATIONS.length] as (typeof OBFUSCATIONS)[number];
      rows.push({ ...r, text: ob.apply(r.text, i), kind: 'obfuscated', obfuscation: ob.name });
    }
  });
  for (const lang of Object.keys(f.documents) as Lang[]) {
    const docs = f.documents[lang];
    const injections = indirect[lang] ?? [];
    docs.forEach((doc, d) => {
      rows.push({ text: doc, label: 0, category: 'benign', lang, kind: 'benign', context: 'document' });
      injections.forEach((inj, k) => {
        for (let pos = 0; pos < 3; pos++) {
          if (lang === 'en' && (d + k + pos) % 2 === 1) continue;
          const sentences = doc.split(/(?<=[.!?])\s+/);
          const at = pos === 0 ? 0 : pos === 1 ? Math.ceil(sentences.length / 2) : sentences.length;
          sentences.splice(at, 0, inj);
          rows.push({
            text: sentences.join(' '),
            label: 1,
            category: 'indirect_injection',
            lang,
            kind: 'indirect',
            context: 'document',
          });
        }
      });
    });
  }
  for (const lang of Object.keys(f.benign) as Lang[]) {
    const [hi, thanks] = GREETING[lang];
    f.benign[lang].forEach((b, i) => {
      rows.push({ text: b, label: 0, category: 'benign', lang, kind: 'benign' });
      rows.push({
        text: i % 2 ? `${hi}${b}` : `${b}${thanks}`,
        label: 0,
        category: 'benign',
        lang,
        kind: 'benign',
      });
      rows.push({ text: `${hi}${b}${thanks}`, label: 0, category: 'benign', lang, kind: 'benign' });
    });
    f.hard[lang].forEach((h, i) => {
      rows.push({ text: h, label: 0, category: 'hard_negative', lang, kind: 'hard_negative' });
      rows.push({
        text: i % 2 ? `${hi}${h}` : `${h}${thanks}`,
        label: 0,
        category: 'hard_negative',
        lang,
        kind: 'hard_negative',
      });
    });
    const quotes = direct.filter((r) => r.lang === lang && r.category !== 'nsfw');
    f.discussion[lang].forEach((frame, i) => {
      for (let k = 0; k < 5; k++) {
        const q = quotes[(i * 7 + k * 3) % quotes.length];
        if (!q) continue;
        const quote = q.text
          .replace(/[\n"«»„“]/g, ' ')
          .replace(/\s+/g, ' ')
          .trim();
        rows.push({
          text: frame.replace('{quote}', quote),
          label: 0,
          category: 'hard_negative',
          lang,
          kind: 'hard_negative',
        });
      }
    });
  }
  return rows;
}

/** Test rows must not repeat a tuning fragment or a reference attack. */
function leakage(test: Row[], tuneTexts: Set<string>, reference: string[]): number {
  const norm = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();
  let n = 0;
  for (const r of test) {
    const t = norm(r.text);
    if (tuneTexts.has(t) || reference.some((ref) => ref.length > 25 && t.includes(ref))) n++;
  }
  return n;
}

function main(): void {
  const tune = build(TUNE, TUNE_INDIRECT);
  const test = build(TEST, TEST_INDIRECT);
  const holdout = build(HOLDOUT, HOLDOUT_INDIRECT);
  const norm = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();
  const tuneTexts = new Set(tune.map((r) => norm(r.text)));
  const reference = referenceAttacks().map((r) => norm(r.text));
  for (const [name, rows] of [
    ['test', test],
    ['holdout', holdout],
  ] as const) {
    const leaks = leakage(rows, tuneTexts, reference);
    if (leaks > 0) throw new Error(`${leaks} ${name} rows repeat tuning or reference text`);
  }
  const dir = new URL('./corpus/', import.meta.url);
  writeFileSync(new URL('tune.jsonl', dir), `${tune.map((r) => JSON.stringify(r)).join('\n')}\n`);
  writeFileSync(new URL('test.jsonl', dir), `${test.map((r) => JSON.stringify(r)).join('\n')}\n`);
  writeFileSync(new URL('holdout.jsonl', dir), `${holdout.map((r) => JSON.stringify(r)).join('\n')}\n`);
  const count = (rows: Row[], kind: string): number => rows.filter((r) => r.kind === kind).length;
  for (const [name, rows] of [
    ['tune', tune],
    ['test', test],
    ['holdout', holdout],
  ] as const) {
    console.log(
      `${name}: ${rows.length} rows (attack ${count(rows, 'attack')}, obfuscated ${count(rows, 'obfuscated')}, indirect ${count(rows, 'indirect')}, benign ${count(rows, 'benign')}, hard_negative ${count(rows, 'hard_negative')})`,
    );
  }
}

main();
