// A public-style synthetic set for phones and cards, written for this evaluation: the way generators such as
// Faker (behind Presidio's synthetic data) write them. Phones in each locale's printed formats with random
// digits (so area codes need not be assigned, as in those sets), North-American ones with and without
// country code and with extensions; cards of every brand and length, with a valid Luhn digit, written
// grouped or not. Sentence frames are the team's own, in English, French, German and Italian. Two splits
// with different frames and seeds: `dev` may be read while working on the detectors, `test` is only scored.
import { luhnCheck } from './corpus/values.js';
import { mulberry32 as rng, pick, type Rng } from './corpus/random.js';

export interface StructuredRow {
  split: 'dev' | 'test';
  lang: string;
  kind: string;
  text: string;
  gold: Array<{ type: 'PHONE' | 'CARD'; start: number; end: number }>;
}

/** '#' is a random digit, '%' a random digit 1–9. */
function fill(r: Rng, format: string): string {
  let out = '';
  for (const c of format) {
    if (c === '#') out += String(Math.floor(r() * 10));
    else if (c === '%') out += String(1 + Math.floor(r() * 9));
    else out += c;
  }
  return out;
}

// Printed formats per locale (random digits after the fixed prefixes), the generator's way.
const PHONE_FORMATS: Record<string, string[]> = {
  'en-US': [
    '%##-%##-####', '(%##)%##-####', '(%##) %##-####', '1-%##-%##-####', '%##.%##.####', '+1-%##-%##-####',
    '%##-%##-####x###', '(%##)%##-####x####', '1-%##-%##-####x#####', '%##.%##.####x###', '001-%##-%##-####',
    '+1 (%##) %##-####', '%##%######', '+1 %##.%##.####', '%##-%##-#### ext. ###',
  ],
  'en-GB': [
    '+44 20 7### ####', '020 7### ####', '+44(0)20 7### ####', '0161 ### ####', '+44 161 ### ####',
    '07### ######', '+44 7### ######', '(0131) ### ####', '01632 ######', '+44 (0) 1### ######',
  ],
  de: ['+49 30 #######', '030 #######', '+49 (0)30 ########', '089 ########', '0151 ########', '+49 151 ########', '(089) #### ####', '+49 40 ########', '040 / ### ### ##'],
  at: ['+43 1 #######', '01 #######', '+43 664 #######', '0664 #######', '0316 ######', '+43 (0)512 ######'],
  ch: ['+41 44 ### ## ##', '044 ### ## ##', '+41 79 ### ## ##', '079 ### ## ##', '0041 31 ### ## ##', '+41 (0)22 ### ## ##'],
  fr: ['01 ## ## ## ##', '+33 1 ## ## ## ##', '06 ## ## ## ##', '+33 6 ## ## ## ##', '04.##.##.##.##', '+33 (0)4 ## ## ## ##', '0033 1 ## ## ## ##', '01########'],
  it: ['+39 06 ########', '06 ########', '+39 02 ########', '02 ########', '+39 3## #######', '3## ### ####', '3## #######', '0039 06 ########'],
};

// Brands, prefixes and lengths as the issuers publish them.
const CARD_BRANDS: Array<[string, string[], number[]]> = [
  ['visa', ['4'], [13, 16, 19]],
  ['mastercard', ['51', '52', '53', '54', '55', '2221', '2500', '2720'], [16]],
  ['amex', ['34', '37'], [15]],
  ['discover', ['6011', '65', '644', '649'], [16, 19]],
  ['diners', ['300', '305', '36', '38'], [14]],
  ['jcb', ['3528', '3589'], [16, 19]],
  ['maestro', ['5018', '5020', '5038', '6304', '6759', '6761', '6763'], [12, 13, 15, 16, 19]],
  ['unionpay', ['62'], [16, 17, 18, 19]],
  ['mir', ['2200', '2204'], [16]],
];

function card(r: Rng): [string, string] {
  const [brand, prefixes, lengths] = pick(r, CARD_BRANDS);
  const prefix = pick(r, prefixes);
  const length = pick(r, lengths);
  let body = prefix;
  while (body.length < length - 1) body += String(Math.floor(r() * 10));
  const digits = body + luhnCheck(body);
  const style = r();
  let written = digits;
  if (style < 0.35) written = digits.replace(/(\d{4})(?=\d)/g, '$1 ');
  else if (style < 0.5) written = digits.replace(/(\d{4})(?=\d)/g, '$1-');
  else if (brand === 'amex' && style < 0.65) written = `${digits.slice(0, 4)} ${digits.slice(4, 10)} ${digits.slice(10)}`;
  return [written, `card ${brand} ${length}`];
}

const FRAMES: Record<'dev' | 'test', Record<string, Array<[string, 'PHONE' | 'CARD']>>> = {
  dev: {
    en: [
      ['Call me back at {V} when you can.', 'PHONE'],
      ['My phone number is {V}.', 'PHONE'],
      ['You can reach the office on {V} between 9 and 5.', 'PHONE'],
      ['Contact: {V}', 'PHONE'],
      ['Please charge my card {V} for the renewal.', 'CARD'],
      ['Card number: {V}', 'CARD'],
      ['I paid with {V} but the order failed.', 'CARD'],
    ],
    fr: [
      ['Rappelez-moi au {V} svp.', 'PHONE'],
      ['Mon numéro de carte est {V}.', 'CARD'],
    ],
    de: [
      ['Sie erreichen mich unter {V}.', 'PHONE'],
      ['Bitte belasten Sie die Karte {V}.', 'CARD'],
    ],
    it: [
      ['Mi può richiamare al {V}?', 'PHONE'],
      ['Il numero della carta è {V}.', 'CARD'],
    ],
  },
  test: {
    en: [
      ['Text {V} if the delivery is late.', 'PHONE'],
      ['His cell is {V}, his email is on file.', 'PHONE'],
      ['Fax the signed form to {V} by Monday.', 'PHONE'],
      ['For support dial {V}.', 'PHONE'],
      ['The refund went to credit card {V} yesterday.', 'CARD'],
      ['Use {V} (exp 04/27) for the hotel booking.', 'CARD'],
      ['Payment method on file: {V}', 'CARD'],
    ],
    fr: [
      ['Vous pouvez joindre le cabinet au {V}.', 'PHONE'],
      ['Le paiement a été refusé sur la carte {V}.', 'CARD'],
    ],
    de: [
      ['Rückruf bitte an {V}, danke.', 'PHONE'],
      ['Die Zahlung mit Kreditkarte {V} ist fehlgeschlagen.', 'CARD'],
    ],
    it: [
      ['Per informazioni chiamare il {V}.', 'PHONE'],
      ['Ho pagato con la carta {V} ieri.', 'CARD'],
    ],
  },
};

const LOCALES_OF: Record<string, string[]> = {
  en: ['en-US', 'en-US', 'en-US', 'en-GB'],
  fr: ['fr', 'fr', 'ch'],
  de: ['de', 'at', 'ch'],
  it: ['it', 'it', 'ch'],
};

export function structuredTexts(split: 'dev' | 'test', count = 600): StructuredRow[] {
  const r = rng(split === 'dev' ? 7 : 8);
  const rows: StructuredRow[] = [];
  const langs = ['en', 'en', 'en', 'fr', 'de', 'it'];
  for (let n = 0; n < count; n++) {
    const lang = pick(r, langs);
    const [frame, type] = pick(r, FRAMES[split][lang]!);
    let value: string;
    let kind: string;
    if (type === 'PHONE') {
      const locale = pick(r, LOCALES_OF[lang]!);
      value = fill(r, pick(r, PHONE_FORMATS[locale]!));
      kind = `phone ${locale}`;
    } else [value, kind] = card(r);
    const at = frame.indexOf('{V}');
    rows.push({ split, lang, kind, text: frame.replace('{V}', value), gold: [{ type, start: at, end: at + value.length }] });
  }
  return rows;
}
