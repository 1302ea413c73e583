import type { Candidate } from '../types.js';
import { candidate, contextBefore } from './context.js';

// Street shapes of the four languages, each optionally followed by a postcode and a town.
// Bounded so that a long run of letters and dashes cannot make the street-suffix search quadratic.
const CAP = "[A-ZÀ-ÖØ-Þ][\\p{L}'’-]{0,40}";
const TOWN = `${CAP}(?:[ -]${CAP}){0,2}`;
const EU_POST = `(?:(?:CH|D|DE|A|AT|F|FR|I|IT|L|B)-)?\\d{4,5} ${TOWN}`;
const UK_POST = '[A-Z]{1,2}\\d[A-Z\\d]? ?\\d[A-Z]{2}';
const US_TAIL = `${TOWN},? [A-Z]{2} \\d{5}(?:-\\d{4})?`;

const GERMAN_SUFFIXES =
  'strasse|straße|str\\.|gasse|weg|platz|allee|ring|rain|halde|damm|ufer|steig|graben|markt';
const GERMAN_WORDS = 'Strasse|Straße|Gasse|Weg|Platz|Allee|Ring';
const GERMAN_STREET = `(?:${CAP}(?:${GERMAN_SUFFIXES})|${CAP} (?:${GERMAN_WORDS}))`;
const DE_RE = new RegExp(`\\b${GERMAN_STREET} \\d{1,4}[a-z]?(?:,? ${EU_POST})?`, 'gu');
// DE_RE backtracks through every capitalised word; its street type directly before the house number is a
// literal that a plain scan finds far faster.
const DE_HINT = new RegExp(`(?:${GERMAN_SUFFIXES}|${GERMAN_WORDS}) \\d`);

const FR_TYPES =
  '(?:[Rr]ue|[Aa]venue|[Aa]v\\.|[Bb]oulevard|[Bb]d|[Cc]hemin|[Cc]h\\.|[Pp]lace|[Rr]oute|[Aa]llée|[Ii]mpasse|[Qq]uai|[Cc]ours|[Pp]romenade|[Ss]quare)';
const FR_RE = new RegExp(
  `\\b\\d{1,4}(?: ?(?:bis|ter))?,? ${FR_TYPES} (?:(?:de la|de l'|du|des|de|d'|la|le|les) ?)?${CAP}(?: ${CAP}){0,3}(?:,? ${EU_POST})?`,
  'gu',
);
const FR_AFTER_RE = new RegExp(
  `\\b(?:Rue|Avenue|Chemin|Route|Place|Boulevard) (?:(?:de la|de l'|du|des|de|d') ?)?${CAP}(?: ${CAP}){0,2} \\d{1,4}(?:,? ${EU_POST})`,
  'gu',
);

const IT_TYPES = '(?:Via|Viale|Piazza|Piazzale|Corso|Vicolo|Largo|Strada|Contrada|Lungomare)';
const IT_RE = new RegExp(
  `\\b${IT_TYPES} (?:(?:dei|degli|delle|della|del|di|da|San|Santa) )?${CAP}(?: ${CAP}){0,2},? \\d{1,4}[a-zA-Z]?(?:,? ${EU_POST})?`,
  'gu',
);

const EN_TYPES =
  '(?:Street|St\\.?|Avenue|Ave\\.?|Road|Rd\\.?|Lane|Ln\\.?|Drive|Dr\\.?|Boulevard|Blvd\\.?|Way|Court|Ct\\.?|Place|Pl\\.?|Square|Terrace|Close|Crescent|Gardens|Parkway|Hill|Row|Mews)';
const EN_RE = new RegExp(
  `\\b\\d{1,5}[A-Za-z]? (?:${CAP} ){1,3}${EN_TYPES}\\b(?:,? (?:${US_TAIL}|${TOWN},? ${UK_POST}|${TOWN}|${UK_POST}))?`,
  'gu',
);

const ADDRESS_CONTEXT =
  /(?:address|adresse|indirizzo|anschrift|wohnhaft|domicile|live[sd]? (?:at|in)|habite|wohne|abito|resid|ship|deliver|livr|liefer|consegn)/i;

function trimTrailing(text: string, start: number, end: number): number {
  let e = end;
  while (e > start && /[\s,.]/.test(text[e - 1]!)) e--;
  return e;
}

// Each shape with a cheaper pattern that every text it matches also matches (or null).
const STREET_SHAPES: Array<[RegExp, RegExp | null]> = [
  [DE_RE, DE_HINT],
  [FR_RE, null],
  [FR_AFTER_RE, null],
  [IT_RE, null],
  [EN_RE, null],
];

export function detectAddresses(text: string): Candidate[] {
  const out: Candidate[] = [];
  for (const [re, hint] of STREET_SHAPES) {
    if (hint !== null && !hint.test(text)) continue;
    for (const m of text.matchAll(re)) {
      const end = trimTrailing(text, m.index, m.index + m[0].length);
      const withPostcode = /\d{4,5} \p{Lu}|[A-Z]\d[A-Z\d]? ?\d[A-Z]{2}$|[A-Z]{2} \d{5}/u.test(m[0]);
      const conf = withPostcode || contextBefore(text, m.index, ADDRESS_CONTEXT, 40) ? 0.9 : 0.7;
      out.push(candidate('ADDRESS', 'PERSONAL', text, m.index, end, conf, 'address'));
    }
  }
  return out;
}
