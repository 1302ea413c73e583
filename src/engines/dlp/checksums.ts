// Check-digit algorithms. Each takes the compact form (separators removed).

export function digitsOnly(s: string): string {
  return s.replace(/\D/g, '');
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** ISO 13616 mod-97: the rearranged IBAN, letters as 10..35, must leave remainder 1. */
export function ibanMod97Valid(iban: string): boolean {
  const s = iban.slice(4) + iban.slice(0, 4);
  let rem = 0;
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    if (c >= 48 && c <= 57) rem = (rem * 10 + (c - 48)) % 97;
    else if (c >= 65 && c <= 90) rem = (rem * 100 + (c - 55)) % 97;
    else return false;
  }
  return rem === 1;
}

/** EAN-13 check digit, used by the Swiss AVS/AHV number. */
export function ean13Valid(digits: string): boolean {
  if (!/^\d{13}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (digits.charCodeAt(i) - 48) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === digits.charCodeAt(12) - 48;
}

/** French NIR: key = 97 - (first 13 digits mod 97); Corsican 2A/2B count as 19/18. */
export function nirValid(compact: string): boolean {
  const m = /^([1278])(\d{2})(\d{2})(\d{2}|2A|2B)(\d{3})(\d{3})(\d{2})$/i.exec(compact);
  if (!m) return false;
  const month = Number(m[3]);
  if (!((month >= 1 && month <= 12) || month === 20 || (month >= 30 && month <= 42) || month >= 50))
    return false;
  let dept = m[4]!.toUpperCase();
  let body = m[1]! + m[2]! + m[3]!;
  if (dept === '2A') dept = '19';
  else if (dept === '2B') dept = '18';
  body += dept + m[5]! + m[6]!;
  let rem = 0;
  for (const ch of body) rem = (rem * 10 + (ch.charCodeAt(0) - 48)) % 97;
  return 97 - rem === Number(m[7]);
}

const NINO_BAD_FIRST = new Set('DFIQUV');
const NINO_BAD_SECOND = new Set('DFIOQUV');
const NINO_BAD_PREFIX = new Set(['BG', 'GB', 'KN', 'NK', 'NT', 'TN', 'ZZ']);

export function ninoValid(compact: string): boolean {
  const m = /^([A-Z])([A-Z])(\d{6})([A-D])$/.exec(compact);
  if (!m) return false;
  const [a, b] = [m[1]!, m[2]!];
  if (NINO_BAD_FIRST.has(a) || NINO_BAD_SECOND.has(b) || NINO_BAD_PREFIX.has(a + b)) return false;
  // The official specimen number is printed in every guide; it is never a real person.
  return compact !== 'QQ123456C';
}

export function ssnValid(area: string, group: string, serial: string): boolean {
  const a = Number(area);
  if (a === 0 || a === 666 || a >= 900) return false;
  if (Number(group) === 0 || Number(serial) === 0) return false;
  const whole = area + group + serial;
  // Numbers published in advertising and documentation, never issued to a person.
  return whole !== '078051120' && whole !== '219099999' && whole !== '123456789';
}

const CF_ODD: Record<string, number> = {
  '0': 1,
  '1': 0,
  '2': 5,
  '3': 7,
  '4': 9,
  '5': 13,
  '6': 15,
  '7': 17,
  '8': 19,
  '9': 21,
  A: 1,
  B: 0,
  C: 5,
  D: 7,
  E: 9,
  F: 13,
  G: 15,
  H: 17,
  I: 19,
  J: 21,
  K: 2,
  L: 4,
  M: 18,
  N: 20,
  O: 11,
  P: 3,
  Q: 6,
  R: 8,
  S: 12,
  T: 14,
  U: 16,
  V: 10,
  W: 22,
  X: 25,
  Y: 24,
  Z: 23,
};

/** Italian codice fiscale: check letter over 15 characters (odd positions use their own table). */
export function codiceFiscaleValid(cf: string): boolean {
  if (!/^[A-Z]{6}[0-9LMNPQRSTUV]{2}[ABCDEHLMPRST][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]$/.test(cf))
    return false;
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const ch = cf[i]!;
    if (i % 2 === 0) sum += CF_ODD[ch]!;
    else sum += /\d/.test(ch) ? Number(ch) : ch.charCodeAt(0) - 65;
  }
  return String.fromCharCode(65 + (sum % 26)) === cf[15];
}

/** German tax identification number (Steuer-ID): ISO 7064 MOD 11,10 over the first ten digits. */
export function steuerIdValid(digits: string): boolean {
  if (!/^[1-9]\d{10}$/.test(digits)) return false;
  let product = 10;
  for (let i = 0; i < 10; i++) {
    let sum = (Number(digits[i]) + product) % 10;
    if (sum === 0) sum = 10;
    product = (sum * 2) % 11;
  }
  const check = (11 - product) % 10;
  return check === Number(digits[10]);
}
