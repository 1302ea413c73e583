import { CITY, FIRST, LAST, type Lang, STREET } from './people.js';
import { digits, int, pick, type Rng } from './random.js';

function mod97(numeric: string): number {
  let rem = 0;
  for (const ch of numeric) rem = (rem * 10 + Number(ch)) % 97;
  return rem;
}

function ibanNumeric(s: string): string {
  return [...s].map((c) => (/[A-Z]/.test(c) ? String(c.charCodeAt(0) - 55) : c)).join('');
}

const BBAN: Record<string, (rng: Rng) => string> = {
  CH: (r) => digits(r, 17),
  DE: (r) => digits(r, 18),
  AT: (r) => digits(r, 16),
  FR: (r) => digits(r, 23),
  IT: (r) => String.fromCharCode(65 + int(r, 0, 25)) + digits(r, 22),
  GB: (r) => `NWBK${digits(r, 14)}`,
};

export function iban(rng: Rng, country: string, spaced: boolean, valid = true): string {
  const bban = BBAN[country]!(rng);
  let check = 98 - mod97(ibanNumeric(`${bban}${country}00`));
  if (!valid) check = ((check + int(rng, 1, 90)) % 97) + 1;
  const compact = `${country}${String(check).padStart(2, '0')}${bban}`;
  return spaced ? compact.replace(/(.{4})/g, '$1 ').trim() : compact;
}

export function luhnCheck(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

export function card(rng: Rng, valid = true): string {
  const brand = pick(rng, ['visa', 'mc', 'amex', 'mc2']);
  const prefix =
    brand === 'visa'
      ? '4'
      : brand === 'mc'
        ? String(int(rng, 51, 55))
        : brand === 'mc2'
          ? '2221'
          : pick(rng, ['34', '37']);
  const length = brand === 'amex' ? 15 : 16;
  const body = prefix + digits(rng, length - 1 - prefix.length);
  let number = body + luhnCheck(body);
  if (!valid) number = body + String((Number(luhnCheck(body)) + int(rng, 1, 9)) % 10);
  if (brand === 'amex') return `${number.slice(0, 4)} ${number.slice(4, 10)} ${number.slice(10)}`;
  const sep = pick(rng, [' ', ' ', '-', '']);
  return number.replace(/(\d{4})(?=\d)/g, `$1${sep}`);
}

export function avs(rng: Rng): string {
  const body = `756${digits(rng, 9)}`;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(body[i]) * (i % 2 === 0 ? 1 : 3);
  const full = body + String((10 - (sum % 10)) % 10);
  return `${full.slice(0, 3)}.${full.slice(3, 7)}.${full.slice(7, 11)}.${full.slice(11)}`;
}

export function ssn(rng: Rng): string {
  let area = int(rng, 1, 899);
  if (area === 666) area = 667;
  return `${String(area).padStart(3, '0')}-${String(int(rng, 1, 99)).padStart(2, '0')}-${String(int(rng, 1, 9999)).padStart(4, '0')}`;
}

export function nino(rng: Rng): string {
  const first = pick(rng, [...'ABCEGHJKLMNOPRSTWXYZ']);
  const second = pick(rng, [...'ABCEGHJKLMNPRSTWXYZ']);
  const pair = `${first}${second}`;
  const safe = ['BG', 'GB', 'KN', 'NK', 'NT', 'TN', 'ZZ'].includes(pair) ? 'AB' : pair;
  return `${safe} ${digits(rng, 2)} ${digits(rng, 2)} ${digits(rng, 2)} ${pick(rng, [...'ABCD'])}`;
}

export function nir(rng: Rng): string {
  const body = `${int(rng, 1, 2)}${digits(rng, 2)}${String(int(rng, 1, 12)).padStart(2, '0')}${String(int(rng, 1, 95)).padStart(2, '0')}${digits(rng, 3)}${digits(rng, 3)}`;
  const key = String(97 - mod97(body)).padStart(2, '0');
  return `${body[0]} ${body.slice(1, 3)} ${body.slice(3, 5)} ${body.slice(5, 7)} ${body.slice(7, 10)} ${body.slice(10, 13)} ${key}`;
}

export function phone(rng: Rng, lang: Lang): string {
  const style = int(rng, 0, 2);
  switch (lang) {
    case 'de':
      return pick(rng, [
        `+41 79 ${digits(rng, 3)} ${digits(rng, 2)} ${digits(rng, 2)}`,
        `044 ${int(rng, 200, 899)} ${digits(rng, 2)} ${digits(rng, 2)}`,
        `+49 151 ${int(rng, 1000, 9999)} ${int(rng, 1000, 9999)}`,
        `030 ${int(rng, 2000, 8999)} ${int(rng, 100, 999)}`,
      ]);
    case 'fr':
      return style === 0
        ? `+33 6 ${digits(rng, 2)} ${digits(rng, 2)} ${digits(rng, 2)} ${digits(rng, 2)}`
        : style === 1
          ? `06 ${digits(rng, 2)} ${digits(rng, 2)} ${digits(rng, 2)} ${digits(rng, 2)}`
          : `021 ${int(rng, 300, 899)} ${digits(rng, 2)} ${digits(rng, 2)}`;
    case 'it':
      return style === 0
        ? `+39 3${int(rng, 20, 49)} ${int(rng, 100, 999)} ${int(rng, 1000, 9999)}`
        : style === 1
          ? `091 ${int(rng, 200, 899)} ${digits(rng, 2)} ${digits(rng, 2)}`
          : `+41 91 ${int(rng, 200, 899)} ${digits(rng, 2)} ${digits(rng, 2)}`;
    default:
      return style === 0
        ? `+44 20 7946 0${digits(rng, 3)}`
        : style === 1
          ? `07700 900${digits(rng, 3)}`
          : `+1 (212) ${int(rng, 200, 899)}-${int(rng, 1000, 9999)}`;
  }
}

export interface Person {
  first: string;
  last: string;
}

export function person(rng: Rng, lang: Lang): Person {
  return { first: pick(rng, FIRST[lang]), last: pick(rng, LAST[lang]) };
}

function ascii(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z-]/g, '');
}

export function email(rng: Rng, p: Person): string {
  const domain = pick(rng, [
    'example.com',
    'example.ch',
    'mail.example.org',
    'firma-example.de',
    'example.fr',
    'example.it',
  ]);
  return pick(rng, [
    `${ascii(p.first)}.${ascii(p.last)}@${domain}`,
    `${ascii(p.first)[0]}${ascii(p.last)}@${domain}`,
  ]);
}

export function address(rng: Rng, lang: Lang): string {
  const [city, post] = pick(rng, CITY[lang]);
  const street = pick(rng, STREET[lang]);
  const no = int(rng, 1, 120);
  switch (lang) {
    case 'en':
      return `${no} ${street}, ${city} ${post}`;
    case 'fr':
      return `${no} ${street}, ${post} ${city}`;
    default:
      return `${street} ${no}, ${post} ${city}`;
  }
}

const MONTH_NAMES: Record<Lang, string[]> = {
  en: ['January', 'March', 'April', 'June', 'September', 'November'],
  fr: ['janvier', 'mars', 'avril', 'juin', 'septembre', 'novembre'],
  de: ['Januar', 'März', 'April', 'Juni', 'September', 'November'],
  it: ['gennaio', 'marzo', 'aprile', 'giugno', 'settembre', 'novembre'],
};

export function birthDate(rng: Rng, lang: Lang): string {
  const d = int(rng, 1, 28);
  const m = int(rng, 1, 12);
  const y = int(rng, 1945, 2004);
  if (rng() < 0.5) {
    const month = pick(rng, MONTH_NAMES[lang]);
    return lang === 'en'
      ? `${d} ${month} ${y}`
      : lang === 'de'
        ? `${d}. ${month} ${y}`
        : `${d} ${month} ${y}`;
  }
  const dd = String(d).padStart(2, '0');
  const mm = String(m).padStart(2, '0');
  return lang === 'de' ? `${dd}.${mm}.${y}` : `${dd}/${mm}/${y}`;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function randomString(rng: Rng, n: number, alphabet = ALNUM): string {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(rng() * alphabet.length)];
  return s;
}

export function apiKey(rng: Rng): string {
  return pick(rng, [
    `AKIA${randomString(rng, 16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`,
    `ghp_${randomString(rng, 36)}`,
    `sk_live_${randomString(rng, 24)}`,
    `sk-proj-${randomString(rng, 40)}`,
    `AIza${randomString(rng, 35)}`,
    `xoxb-${digits(rng, 12)}-${randomString(rng, 24)}`,
  ]);
}

export function password(rng: Rng): string {
  return (
    pick(rng, ['Summer', 'Tiger', 'Blue', 'Zebra', 'Orbit', 'Mango']) +
    digits(rng, int(rng, 2, 4)) +
    pick(rng, ['!', '#', '$', '', '?']) +
    randomString(rng, 3)
  );
}

export function passport(rng: Rng, lang: Lang): string {
  if (lang === 'fr')
    return `${digits(rng, 2)}${randomString(rng, 2, 'ABCDEFGHJKLMNPRSTUVWXYZ')}${digits(rng, 5)}`;
  if (lang === 'it') return `Y${randomString(rng, 1, 'ABCDEFGHJKLMNPRSTUVWXYZ')}${digits(rng, 7)}`;
  return `${randomString(rng, 1, 'CDEFGHJKLMNPRSTVWXYZ')}${digits(rng, 7)}`;
}

export function licence(rng: Rng): string {
  return `${randomString(rng, 5, 'ABCDEFGHJKLMNPRSTUVWXYZ')}${digits(rng, 6)}${randomString(rng, 2, 'ABCDEFGHJKLMNPRSTUVWXYZ')}${digits(rng, 1)}${randomString(rng, 2, 'ABCDEFGHJKLMNPRSTUVWXYZ')}`;
}

// Look-alikes that must stay untouched.
export function orderNumber(rng: Rng): string {
  return pick(rng, [
    `ORD-${digits(rng, 8)}`,
    `#${digits(rng, 6)}`,
    `INV-2026-${digits(rng, 5)}`,
    `${digits(rng, 10)}`,
  ]);
}
export function version(rng: Rng): string {
  return `${int(rng, 1, 20)}.${int(rng, 0, 40)}.${int(rng, 0, 99)}`;
}
export function price(rng: Rng): string {
  return pick(rng, [
    `CHF ${int(rng, 10, 9999)}.${digits(rng, 2)}`,
    `€ ${int(rng, 1, 999)},${digits(rng, 2)}`,
    `$${int(rng, 1, 99999)}.${digits(rng, 2)}`,
    `CHF 1'${digits(rng, 3)}.-`,
  ]);
}
export function productCode(rng: Rng): string {
  return pick(rng, [
    `SKU-${randomString(rng, 4, 'ABCDEFGHJKLMNPRSTUVWXYZ')}-${digits(rng, 4)}`,
    `${randomString(rng, 3, 'ABCDEFGHJKLMNPRSTUVWXYZ')}${digits(rng, 6)}`,
    `EAN ${digits(rng, 13)}`,
  ]);
}
export function badCard(rng: Rng): string {
  return card(rng, false).replace(/[ -]/g, '');
}
export function badIban(rng: Rng): string {
  return iban(rng, pick(rng, ['CH', 'DE', 'FR', 'IT', 'GB']), rng() < 0.5, false);
}
export function plainDate(rng: Rng): string {
  return `${String(int(rng, 1, 28)).padStart(2, '0')}.${String(int(rng, 1, 12)).padStart(2, '0')}.20${int(rng, 20, 27)}`;
}
export function sha(rng: Rng): string {
  return randomString(rng, 40, '0123456789abcdef');
}
export function uuid(rng: Rng): string {
  const h = randomString(rng, 32, '0123456789abcdef');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
}
export function time(rng: Rng): string {
  return `${String(int(rng, 7, 19)).padStart(2, '0')}:${pick(rng, ['00', '15', '30', '45'])}`;
}
