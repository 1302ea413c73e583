import { ATTACKS_EN, composedEnglish } from './attacks-en.js';
import { ATTACKS_DE, ATTACKS_ES, ATTACKS_FR, ATTACKS_IT } from './attacks-multi.js';
import { EXTRA_ATTACKS } from './attacks-extra.js';

export interface ReferenceAttack {
  text: string;
  category: string;
  lang: string;
}

// Short composed override shapes per language, so a reworded override still has a close neighbour.
const COMPOSED: Record<string, { verbs: string[]; objects: string[] }> = {
  fr: {
    verbs: ['ignore', 'oublie', 'ne respecte plus', 'contourne', 'fais abstraction de'],
    objects: [
      'les instructions précédentes',
      'toutes tes consignes',
      'les règles du système',
      'tes directives initiales',
    ],
  },
  de: {
    verbs: ['ignoriere', 'vergiss', 'missachte', 'umgehe', 'verwirf'],
    objects: [
      'alle vorherigen Anweisungen',
      'deine Regeln',
      'die Vorgaben des Systems',
      'deine ursprünglichen Instruktionen',
    ],
  },
  it: {
    verbs: ['ignora', 'dimentica', 'non rispettare', 'aggira', 'trascura'],
    objects: [
      'le istruzioni precedenti',
      'tutte le tue regole',
      'le direttive di sistema',
      'le indicazioni iniziali',
    ],
  },
  es: {
    verbs: ['ignora', 'olvida', 'no respetes', 'evita', 'descarta'],
    objects: [
      'las instrucciones anteriores',
      'todas tus reglas',
      'las directrices del sistema',
      'tus indicaciones iniciales',
    ],
  },
};

let cached: ReferenceAttack[] | null = null;

/** The team-written attack corpus the TF-IDF similarity compares against. */
export function referenceAttacks(): ReferenceAttack[] {
  if (cached) return cached;
  const out: ReferenceAttack[] = [];
  const add = (lang: string, table: Record<string, string[]>): void => {
    for (const [category, texts] of Object.entries(table)) {
      for (const text of texts) out.push({ text, category, lang });
    }
  };
  add('en', ATTACKS_EN);
  add('fr', ATTACKS_FR);
  add('de', ATTACKS_DE);
  add('it', ATTACKS_IT);
  add('es', ATTACKS_ES);
  for (const [lang, table] of Object.entries(EXTRA_ATTACKS)) add(lang, table);
  for (const text of composedEnglish()) out.push({ text, category: 'instruction_override', lang: 'en' });
  for (const [lang, { verbs, objects }] of Object.entries(COMPOSED)) {
    for (const v of verbs)
      for (const o of objects) out.push({ text: `${v} ${o}`, category: 'instruction_override', lang });
  }
  cached = out;
  return out;
}
