// Training-only rows built on real documents: passages of permissively licensed, non-injection corpora
// under ../shared/data (German Wikipedia and news sentences, English e-mails, reviews, forum answers and
// weblogs, French newspapers, English Wikipedia evidence), read in place and never copied, each used
// twice: once clean (half of them with an ordinary note to a human reader planted) and once with one of the
// team's own sentences addressed to an AI reader planted at the start, middle or end (own/planted.ts). The
// public injection data has almost no benign prose in French or German and only BIPIA's three kinds of
// document; these rows teach that prose in any of those languages is benign and that the address to an AI
// inside it is what makes it an attack. They are trained on in every fold and never scored: their clean half
// is ordinary text the eval's own benign sources already measure, and their attacks are the team's wording.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { plant } from './own/index.js';
import { PLANTED } from './own/planted.js';
import type { LangMaterial } from './own/types.js';
import type { EvalRow, Source } from './sources.js';

type Lang = LangMaterial['lang'];

interface Carrier {
  name: string;
  lang: Lang;
  file: string;
  licence: string;
  passages: (lines: Record<string, unknown>[]) => string[];
}

/** Consecutive texts joined in groups of `n` (a passage of a few sentences), every `step`th group kept. */
function groups(texts: string[], n: number, step: number): string[] {
  const out: string[] = [];
  for (let i = 0; i + n <= texts.length; i += n * step) out.push(texts.slice(i, i + n).join(' '));
  return out;
}

/** EWT sentences grouped by the document their sent_id names (an e-mail, a review, a forum answer). */
function documents(lines: Record<string, unknown>[]): string[] {
  const docs = new Map<string, string[]>();
  for (const l of lines) {
    if (l['lang'] !== 'en') continue;
    const id = String(l['sent_id'] ?? '').replace(/-\d+$/, '');
    docs.set(id, [...(docs.get(id) ?? []), String(l['text'])]);
  }
  return [...docs.values()].filter((s) => s.length >= 2).map((s) => s.slice(0, 6).join(' '));
}

const text = (l: Record<string, unknown>): string => String(l['text'] ?? '');

export const CARRIERS: Carrier[] = [
  {
    name: 'carrier_de_germeval',
    lang: 'de',
    file: 'dlp/germeval2014_de.jsonl',
    licence: 'CC BY 4.0',
    passages: (ls) => groups(ls.map(text), 3, 6),
  },
  {
    name: 'carrier_de_pud',
    lang: 'de',
    file: 'dlp/universal_ner_en_de.jsonl',
    licence: 'CC BY-SA 4.0',
    passages: (ls) => groups(ls.filter((l) => l['lang'] === 'de').map(text), 3, 1),
  },
  {
    name: 'carrier_en_ewt',
    lang: 'en',
    file: 'dlp/universal_ner_en_de.jsonl',
    licence: 'CC BY-SA 4.0',
    passages: documents,
  },
  {
    name: 'carrier_fr_europeana',
    lang: 'fr',
    file: 'dlp/europeana_newspapers_ner_de_fr.jsonl',
    licence: 'CC0',
    passages: (ls) => groups(ls.filter((l) => l['lang'] === 'fr').map(text), 2, 10),
  },
  {
    name: 'carrier_en_fever',
    lang: 'en',
    file: 'hallucination/fever_dev_sample.jsonl',
    licence: 'CC BY-SA 3.0',
    passages: (ls) =>
      groups(
        ls.map((l) => String((l['sources'] as string[] | undefined)?.[0] ?? '')),
        3,
        4,
      ),
  },
];

/** Passages per carrier: enough variety without letting documents outweigh the prompts. */
const PER_CARRIER = 300;
const at = <T>(xs: T[], i: number): T => xs[i % xs.length] as T;

function rowsOf(c: Carrier, passages: string[]): EvalRow[] {
  const out: EvalRow[] = [];
  const step = Math.max(1, Math.floor(passages.length / PER_CARRIER));
  for (let k = 0; k < PER_CARRIER && k * step < passages.length; k++) {
    const doc = passages[k * step] as string;
    if (doc.length < 80) continue;
    // The planted sentence is in the carrier's language three times in five, else Italian or Spanish
    // (there is no Italian or Spanish prose among the permissive files).
    const lang: Lang = k % 5 < 3 ? c.lang : k % 5 === 3 ? 'it' : 'es';
    const m = PLANTED[lang];
    const where = (k * 7) % 3;
    const goal = at(m.goals, k * 3 + (k >> 2));
    const sentence = k % 4 === 3 ? goal : `${at(m.aiAddress, k * 7)} ${goal}`;
    const clean = k % 2 === 1 ? plant(doc, at(m.readerNotes, k), (where + 1) % 3) : doc;
    // As a tool hands it over, as pasted alone, or under the user's task.
    const present = (t: string): Pick<EvalRow, 'text' | 'context'> =>
      k % 3 === 0
        ? { text: t, context: 'document' }
        : k % 3 === 1
          ? { text: t }
          : { text: `${at(PLANTED[c.lang].tasks, k)}\n${t}` };
    const base = { source: c.name, aux: true } as const;
    out.push({ ...present(clean), label: 0, lang: c.lang, kind: 'document', ...base });
    out.push({ ...present(plant(doc, sentence, where)), label: 1, lang, kind: 'indirect', ...base });
  }
  return out;
}

/** The carrier sources found under `dataDir` (the parent of the injection folder). */
export function carrierSources(injectionDir: string): Source[] {
  const dataDir = dirname(injectionDir);
  const out: Source[] = [];
  for (const c of CARRIERS) {
    const path = join(dataDir, c.file);
    if (!existsSync(path)) continue;
    const lines = readFileSync(path, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    out.push({ name: c.name, trainable: true, scored: false, rows: rowsOf(c, c.passages(lines)) });
  }
  return out;
}
