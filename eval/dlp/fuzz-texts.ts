// Random texts full of personal data, glued together in the ways that break tokenizers: values directly
// against letters, digits, underscores, backslashes, markdown, no-break and thin spaces and other values,
// some values' digit groups spaced with those spaces, some names in lower case; context words before them;
// words of four languages; non-Latin letters and emoji. The round trip (tokenize, then rehydrate whole,
// streamed and JSON-escaped) must give every text back exactly. Used by fuzz.test.ts (a few thousand cases)
// and fuzz.ts (`npm run fuzz:dlp`, 100,000 cases).
import * as values from './corpus/values.js';
import type { Lang } from './corpus/people.js';
import { int, pick, type Rng } from './corpus/random.js';

const LANGS: readonly Lang[] = ['en', 'fr', 'de', 'it'];
const WORDS = [
  'the',
  'password',
  'is',
  'mot de passe',
  'Passwort',
  'lautet',
  'la password è',
  'passport',
  'Reisepass',
  'card',
  'carte',
  'IBAN',
  'phone',
  'Tel.',
  'SSN',
  'Dear',
  'Mr',
  'Frau',
  'M.',
  'Sig.',
  'born',
  'né le',
  'api_key',
  'token',
  'Winter',
  'in',
  'a',
  'to',
  'Zürich',
  'Genève',
  'Bahnhofstrasse',
  'rue',
  'Via',
  'call',
  'order',
  'Nr.',
  'n°',
  'licence',
  'Führerschein',
  'ok',
  'TKN',
  'tkn_',
  'x',
  'é',
  'ß',
  'Ω',
  '中文',
  '🙂',
];
export const GLUE = [
  '',
  '',
  '',
  ' ',
  ' ',
  ' ',
  '  ',
  '\n',
  '\t',
  ',',
  '.',
  ':',
  '=',
  '"',
  "'",
  '(',
  ')',
  '*',
  '**',
  '_',
  '\\',
  '\\\\',
  '-',
  '/',
  '@',
  '#',
  '!',
  '?',
  '«',
  '»',
  'a',
  'Z',
  '9',
  '0',
  'é',
  '中',
  '🙂',
  '\u00a0',
  '\u202f',
  '\u2009',
  '\u2007',
];

// French and Swiss typography (and PDF copies) group digits with no-break, narrow no-break, thin and figure
// spaces: some values have their spaces written so ("06\u202f12\u202f34…", "4111\u00a01111…").
const GROUP_SPACES = ['\u00a0', '\u202f', '\u2009', '\u2007'];

function value(rng: Rng, lang: Lang): string {
  switch (int(rng, 0, 15)) {
    case 0:
      return values.iban(rng, pick(rng, ['CH', 'DE', 'FR', 'IT', 'GB', 'AT']), rng() < 0.5);
    case 1:
      return values.card(rng);
    case 2:
      return values.avs(rng);
    case 3:
      return values.ssn(rng);
    case 4:
      return values.nino(rng);
    case 5:
      return values.nir(rng);
    case 6:
      return values.phone(rng, lang);
    case 7: {
      const p = values.person(rng, lang);
      // Chat users type names without capitals too ("jean dupont").
      if (rng() < 0.5) return rng() < 0.8 ? `${p.first} ${p.last}` : `${p.first} ${p.last}`.toLowerCase();
      return values.email(rng, p);
    }
    case 8:
      return values.address(rng, lang);
    case 9:
      return values.birthDate(rng, lang);
    case 10:
      return values.apiKey(rng);
    case 11:
      return values.password(rng);
    case 12:
      return values.passport(rng, lang);
    case 13:
      return values.licence(rng);
    case 14:
      return pick(rng, [values.orderNumber(rng), values.badCard(rng), values.uuid(rng), values.sha(rng)]);
    default:
      return values.person(rng, lang).first;
  }
}

export function fuzzText(rng: Rng): string {
  const lang = pick(rng, LANGS);
  const parts: string[] = [];
  const n = int(rng, 1, 12);
  for (let i = 0; i < n; i++) {
    parts.push(pick(rng, GLUE));
    if (rng() < 0.55) {
      const v = value(rng, lang);
      parts.push(rng() < 0.2 ? v.replaceAll(' ', pick(rng, GROUP_SPACES)) : v);
    } else parts.push(pick(rng, WORDS));
  }
  parts.push(pick(rng, GLUE));
  return parts.join('');
}
