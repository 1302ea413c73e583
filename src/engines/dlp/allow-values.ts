import { foldForDetection } from './fold.js';

// An organization's `allowValues` (its own support number, company name, shared mailbox) must stay in clear
// however a user writes them: "+41 44 668 18 00" and "+41446681800", "ÉMILE" and "Emile", a full-width
// "ｓｕｐｐｏｒｔ＠ａｃｍｅ．ｃｏｍ". Comparing the raw values, trimmed and lower-cased, tokenized every other
// spelling. Each finding is now compared on a canonical form chosen by its type:
// - numbers (phones, cards, AHV, SSN, Steuer-ID, CVV): the digits only, of any script (fold.ts); a phone
//   keeps whether it is international, `00` being read as `+` and a bracketed trunk zero after the country
//   code dropped ("+41 (0)44…"). A national and an international spelling of one number ("044 668 18 00",
//   "+41 44 668 18 00") are two keys: telling them apart would need the number's region, which a listed value
//   does not carry, so an organization lists both;
// - codes with letters (IBAN, NIR with Corsica's 2A/2B, NINO, codice fiscale, passport, licence): letters and
//   digits only, upper case;
// - secrets (passwords, API keys): trimmed and lower-cased, as before: a key's case is part of it, and no
//   looser match is wanted for them;
// - everything else (names, e-mail addresses, addresses, birth dates, custom types): NFKC (full width and
//   compatibility forms), accents removed, lower case, curly apostrophes straight, every run of spaces of any
//   kind one space.
// A listed value counts as a number or a code only if it is written as one (digits with separators; letters
// and digits with separators and at least one digit): "Room 123" never allows a CVV 123.
// A number allows only findings of the type(s) it is itself found as, read alone by the detectors and whole:
// the same digits are often another number of another type ("+65 929 970 489" allowed must not allow the
// Steuer-ID 65929970489, nor "+756 1234 5678 97" the AHV number 756.1234.5678.97). A number found as nothing
// (a bare CVV, a phone of a range the metadata does not know) falls back to its spelling: written as an
// international phone (`+`, `00`) it allows phones only, otherwise phones and every other number type.

type Kind = 'phone' | 'digits' | 'code' | 'secret' | 'text';

const KIND: Record<string, Kind> = {
  PHONE: 'phone',
  CARD: 'digits',
  AVS: 'digits',
  SSN: 'digits',
  DE_TAX_ID: 'digits',
  CVV: 'digits',
  IBAN: 'code',
  NIR: 'code',
  NINO: 'code',
  IT_FISCAL_CODE: 'code',
  PASSPORT: 'code',
  DRIVING_LICENCE: 'code',
  PASSWORD: 'secret',
  API_KEY: 'secret',
};

const SEPARATORS = /[\s.\-/]/g;
const NUMBER_LIKE = /^\+?[\d\s().\-/]+$/;
const CODE_LIKE = /^[A-Za-z0-9]+$/;

function folded(value: string): string {
  return foldForDetection(value.trim()).text;
}

function digitsKey(value: string): string {
  return folded(value).replace(/\D/g, '');
}

function phoneKey(value: string): string {
  const f = folded(value).replace(/^(\+|00)(\d{1,3})\s*\(0\)/, '$1$2');
  const international = /^(?:\+|00)/.test(f);
  const digits = f.replace(/\D/g, '');
  return international ? `+${f.startsWith('00') ? digits.slice(2) : digits}` : digits;
}

function codeKey(value: string): string {
  return folded(value).replace(SEPARATORS, '').toUpperCase();
}

function secretKey(value: string): string {
  return value.trim().toLowerCase();
}

function textKey(value: string): string {
  return value
    .normalize('NFKC')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

const KEY_OF: Record<Kind, (value: string) => string> = {
  phone: phoneKey,
  digits: digitsKey,
  code: codeKey,
  secret: secretKey,
  text: textKey,
};

export type AllowList = Record<Kind, Set<string>>;

/** The types a value is found as when read alone, each finding covering the whole (trimmed) value. */
export type WholeTypes = (value: string) => readonly string[];

const DIGIT_TYPES = Object.keys(KIND).filter((type) => KIND[type] === 'digits');
const INTERNATIONAL = /^(?:\+|00)/;

// A number of the `digits` kind is keyed with its type: one set serves five types.
function digitsOf(type: string, value: string): string {
  return `${type}:${digitsKey(value)}`;
}

function build(values: readonly string[], wholeTypes: WholeTypes): AllowList {
  const list: AllowList = {
    phone: new Set(),
    digits: new Set(),
    code: new Set(),
    secret: new Set(),
    text: new Set(),
  };
  const add = (kind: Kind, value: string) => {
    const key = KEY_OF[kind](value);
    if (key !== '' && key !== '+') list[kind].add(key);
  };
  for (const value of values) {
    const f = folded(value);
    if (/\d/.test(f) && NUMBER_LIKE.test(f)) {
      const found = wholeTypes(value).filter((type) => KIND[type] === 'phone' || KIND[type] === 'digits');
      const types = found.length > 0 ? found : INTERNATIONAL.test(f) ? ['PHONE'] : ['PHONE', ...DIGIT_TYPES];
      for (const type of types) {
        if (type === 'PHONE') add('phone', value);
        else if (digitsKey(value) !== '') list.digits.add(digitsOf(type, value));
      }
    }
    if (/\d/.test(f) && CODE_LIKE.test(f.replace(SEPARATORS, ''))) add('code', value);
    add('secret', value);
    add('text', value);
  }
  return list;
}

// Settings objects are parsed once and never changed in place (modules/protection/tokenize.ts), so the keys
// of a list are computed once per list rather than for every text (up to 500 values).
const built = new WeakMap<readonly string[], AllowList>();

export function allowList(values: readonly string[], wholeTypes: WholeTypes): AllowList {
  let list = built.get(values);
  if (list === undefined) {
    list = build(values, wholeTypes);
    built.set(values, list);
  }
  return list;
}

/** Whether a finding of `type` with this value is one of the allowed values, in any spelling of it. */
export function isAllowed(list: AllowList, type: string, value: string): boolean {
  const kind = KIND[type] ?? 'text';
  if (list[kind].size === 0) return false;
  return list[kind].has(kind === 'digits' ? digitsOf(type, value) : KEY_OF[kind](value));
}
