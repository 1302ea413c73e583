// The team's own training corpus: hand-written material per language (en, fr, de, it, es), composed into
// rows. Nothing here is translated from, or copied out of, any evaluation file. Attacks: overrides with a
// goal (some after an ordinary request), persona set-ups with a goal, and indirect injections, where a
// sentence addressed to an AI reader sits at the start, middle or end of an e-mail, page, code file, tool
// result or passage. Benign rows: ordinary requests (role-play and fiction without an override included),
// the same documents without the planted sentence, document tasks, hard negatives, and attacks quoted to
// ask about them or to have them translated.
import type { EvalRow } from '../sources.js';
import { de } from './de.js';
import { en } from './en.js';
import { es } from './es.js';
import { EXTRA } from './extra.js';
import { fr } from './fr.js';
import { hijackRows } from './hijack.js';
import { it } from './it.js';
import { rolePlays } from './roleplay.js';
import { ROUND4 } from './round4.js';
import { ROUND5, ROUND5B, type Round5 } from './round5.js';
import { ROUND6 } from './round6.js';
import { ROUND7, ROUND7_PERSONAS, ROUND7_PLANTED } from './round7.js';
import { ROUND8, ROUND8_PLANTED } from './round8.js';
import { ROUND9, ROUND9_PERSONAS, ROUND9_PLANTED } from './round9.js';
import type { LangMaterial } from './types.js';

const at = <T>(xs: T[], i: number): T => xs[i % xs.length] as T;

/** Plants `sentence` at the start, in the middle (at a line or sentence break) or at the end of `doc`. */
export function plant(doc: string, sentence: string, where: number): string {
  if (where === 0) return `${sentence}\n${doc}`;
  if (where === 2) return `${doc}\n${sentence}`;
  const mid = Math.floor(doc.length / 2);
  let cut = doc.indexOf('\n', mid);
  if (cut < 0) cut = doc.indexOf('. ', mid) >= 0 ? doc.indexOf('. ', mid) + 1 : doc.indexOf(' ', mid);
  if (cut < 0) return `${doc}\n${sentence}`;
  return `${doc.slice(0, cut)} ${sentence} ${doc.slice(cut)}`;
}

function rowsOf(m: LangMaterial, extraRolePlays?: string[]): EvalRow[] {
  const out: EvalRow[] = [];
  const add = (
    text: string,
    label: 0 | 1,
    kind: EvalRow['kind'],
    context?: string,
    family?: string,
  ): void => {
    out.push({
      text,
      label,
      lang: m.lang,
      kind,
      source: 'own_training',
      ...(context ? { context } : {}),
      ...(family ? { family } : {}),
    });
  };
  // Families are per material set (first round, second round) and language: `set` tells them apart.
  const set = extraRolePlays ? 'extra' : 'base';
  m.overrides.forEach((o, i) => {
    m.goals.forEach((g, j) => {
      const attack = `${o} ${g}.`;
      add((i + j) % 3 === 0 ? `${at(m.requests, i * 7 + j)} ${attack}` : attack, 1, 'direct');
    });
  });
  m.personas.forEach((p, i) => {
    m.goals.forEach((g, j) => {
      if ((i + j) % 2 === 0) add(`${p} ${g}.`, 1, 'jailbreak', undefined, `persona:${set}:${m.lang}:${i}`);
    });
  });
  m.documents.forEach((d, i) => {
    m.aiAddress.forEach((a, j) => {
      const doc = plant(d, `${a} ${at(m.goals, i + 3 * j)}.`, (i + j) % 3);
      const k = i * m.aiAddress.length + j;
      // The same injected document, as a user pastes it under a task or as a tool hands it over.
      if (k % 3 === 0) add(`${at(m.docTasks, k)}\n${doc}`, 1, 'indirect');
      else add(doc, 1, 'indirect', k % 3 === 1 ? 'document' : undefined);
    });
    // The clean document alone, as a document and under tasks: one text, one family.
    const family = `doc:${set}:${m.lang}:${i}`;
    add(d, 0, 'document', 'document', family);
    add(d, 0, 'document', undefined, family);
    m.docTasks.forEach((t, j) => {
      if ((i + j) % 2 === 0) add(`${t}\n${d}`, 0, 'document', undefined, family);
    });
  });
  for (const r of m.requests) add(r, 0, 'general');
  m.requests.forEach((r, i) => {
    add(`${r} ${at(m.requests, i + 5)}`, 0, 'general');
  });
  for (const h of m.hardNegatives) add(h, 0, 'hard_negative');
  if (extraRolePlays) for (const r of extraRolePlays) add(r, 0, 'hard_negative');
  else for (const r of rolePlays(m.lang)) add(r.text, 0, 'hard_negative', undefined, r.family);
  m.quoteFrames.forEach((f, i) => {
    for (let j = 0; j < 4; j++) {
      const q = `${at(m.overrides, i * 4 + j)} ${at(m.goals, i + j * 5)}`;
      add(f.replace('{q}', q), 0, 'hard_negative');
    }
  });
  return out;
}

/** The second round's material of a language, composed with a few goals and documents of the first. */
function extraRows(m: LangMaterial): EvalRow[] {
  const x = EXTRA[m.lang];
  const { rolePlays: plays, ...rest } = x;
  return rowsOf(
    {
      ...rest,
      lang: m.lang,
      goals: [...x.goals, ...m.goals.slice(0, 4)],
      documents: [...x.documents, ...m.documents.slice(0, 4)],
      docTasks: [...x.docTasks, ...m.docTasks.slice(0, 2)],
    },
    plays,
  );
}

/** The fourth round (and the sixth and seventh, same shape): whole prompts, attacks and hard negatives, as they are. */
function round4Rows(lang: LangMaterial['lang'], r = ROUND4[lang]): EvalRow[] {
  const row = (text: string, label: 0 | 1, kind: EvalRow['kind']): EvalRow => ({
    text,
    label,
    lang,
    kind,
    source: 'own_training',
  });
  return [
    ...r.attacks.map((t) => row(t, 1, 'direct')),
    ...r.hardNegatives.map((t) => row(t, 0, 'hard_negative')),
  ];
}

/**
 * The fifth round: whole attacks and hard negatives, and documents whose one slot holds either a sentence
 * addressed to an AI reader (attack) or an ordinary sentence for a human (its benign twin).
 */
function round5Rows(r: Round5, lang: LangMaterial['lang']): EvalRow[] {
  const row = (text: string, label: 0 | 1, kind: EvalRow['kind'], context?: string): EvalRow => ({
    text,
    label,
    lang,
    kind,
    source: 'own_training',
    ...(context ? { context } : {}),
  });
  return [
    ...r.attacks.map((t) => row(t, 1, 'direct')),
    ...r.planted.flatMap((p) => {
      const fill = (s: string): string => {
        const doc = p.doc.replace('{}', s);
        return p.task ? `${p.task}\n${doc}` : doc;
      };
      return [row(fill(p.inject), 1, 'indirect', p.context), row(fill(p.clean), 0, 'document', p.context)];
    }),
    ...r.hardNegatives.map((t) => row(t, 0, 'hard_negative')),
  ];
}

/**
 * `round9`: add the ninth round (own/round9.ts), written for inj-lr-8, which was not shipped
 * (docs/detection.md). Off for the shipped model, so that inj-lr-6 stays reproducible byte for byte; on for
 * `dev.ts --round9` (design runs). inj-lr-8 also had a language guess that is not in this tree: its exact
 * figures come from commit 741c173.
 */
export function ownCorpus({ round9 = false } = {}): EvalRow[] {
  return [en, fr, de, it, es].flatMap((m) => [
    ...rowsOf(m),
    ...extraRows(m),
    ...round4Rows(m.lang),
    ...round4Rows(m.lang, ROUND6[m.lang]),
    ...round4Rows(m.lang, ROUND7[m.lang]),
    ...round4Rows(m.lang, ROUND7_PERSONAS[m.lang]),
    ...round5Rows({ attacks: [], planted: ROUND7_PLANTED[m.lang], hardNegatives: [] }, m.lang),
    ...round5Rows(ROUND5[m.lang], m.lang),
    ...round5Rows(ROUND5B[m.lang], m.lang),
    ...hijackRows(m.lang),
    ...(round9 ? round9Rows(m.lang) : []),
  ]);
}

function round9Rows(lang: LangMaterial['lang']): EvalRow[] {
  return [
    ...round4Rows(lang, ROUND9_PERSONAS[lang]),
    ...(lang === 'en'
      ? []
      : [
          ...round4Rows(lang, ROUND9[lang]),
          ...round5Rows({ attacks: [], planted: ROUND9_PLANTED[lang], hardNegatives: [] }, lang),
        ]),
  ];
}

/**
 * The eighth round, kept out of training: a check set written by the team for the kinds the private
 * black-box set found weakest (attacks and hand-written hard negatives in five languages, documents with a
 * sentence to the AI reader or to a human), scored by eval/detection/holdout.ts on models that never saw it.
 */
export function round8Corpus(): EvalRow[] {
  return (['en', 'fr', 'de', 'it', 'es'] as const).flatMap((lang) =>
    [
      ...round4Rows(lang, ROUND8[lang]),
      ...round5Rows({ attacks: [], planted: ROUND8_PLANTED[lang], hardNegatives: [] }, lang),
    ].map((r) => ({ ...r, source: 'own_round8_holdout' })),
  );
}
