import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import type { Candidate } from '../types.js';
import { candidate, contextBefore, isWordChar } from './context.js';

const EMAIL_RE =
  /[A-Za-z0-9](?:[A-Za-z0-9._%+-]{0,63})@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9-]{1,63})*\.[A-Za-z]{2,24}\b/g;

// The local part is at most 64 characters, so a match starts at most that far before its '@'.
const MAX_LOCAL = 64;

export function detectEmails(text: string): Candidate[] {
  const out: Candidate[] = [];
  let at = text.indexOf('@');
  if (at < 0) return out;
  // Scanning resumes just before the next '@' rather than at every position of the prose in between.
  EMAIL_RE.lastIndex = Math.max(0, at - MAX_LOCAL);
  for (let m = EMAIL_RE.exec(text); m !== null; m = EMAIL_RE.exec(text)) {
    const end = m.index + m[0].length;
    if (!isWordChar(text[m.index - 1]) && text[m.index - 1] !== '.') {
      out.push(candidate('EMAIL', 'PERSONAL', text, m.index, end, 0.97, 'email'));
    }
    at = text.indexOf('@', end);
    if (at < 0) break;
    EMAIL_RE.lastIndex = Math.max(end, at - MAX_LOCAL);
  }
  return out;
}

// International (+ or 00), national with a trunk 0, and North-American "(212) 555-1234".
const PHONE_RE =
  /(?:\+|\b00)[1-9][\d ()./-]{6,20}\d|\b0[1-9][\d ./-]{6,16}\d\b|\(\d{3}\) ?\d{3}[-. ]\d{4}\b/g;
const PHONE_CONTEXT =
  /(?:phone|tel|téléphone|telephone|telefon|telefono|mobile|mobil|handy|natel|cell|portable|cellulare|call|appel|anruf|chiam|fax|whatsapp|sms|reach|joindre|erreichen|raggiung|numéro|nummer|numero|number)/i;
const REGIONS: CountryCode[] = ['CH', 'FR', 'DE', 'IT', 'GB', 'AT', 'BE', 'US'];
const DATE_LIKE = /^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}$/;

function validPhone(raw: string): boolean {
  const international = raw.startsWith('+') || raw.startsWith('00');
  const input = raw.startsWith('00') ? `+${raw.slice(2)}` : raw;
  if (international) return parsePhoneNumberFromString(input)?.isValid() ?? false;
  for (const region of REGIONS) {
    if (parsePhoneNumberFromString(input, region)?.isValid()) return true;
  }
  return false;
}

// Parsing dominates the detector's cost, and a message often repeats its number (body and signature).
function memoised(valid: (raw: string) => boolean): (raw: string) => boolean {
  const seen = new Map<string, boolean>();
  return (raw) => {
    let ok = seen.get(raw);
    if (ok === undefined) {
      ok = valid(raw);
      seen.set(raw, ok);
    }
    return ok;
  };
}

export function detectPhones(text: string): Candidate[] {
  const out: Candidate[] = [];
  const valid = memoised(validPhone);
  for (const m of text.matchAll(PHONE_RE)) {
    let raw = m[0];
    const start = m.index;
    if (isWordChar(text[start - 1]) || text[start - 1] === '.' || text[start - 1] === '-') continue;
    // "1 85 05 78 …": a run that continues a longer number is a fragment of it, not a phone.
    if (/\d[ ./-]$/.test(text.slice(Math.max(0, start - 2), start))) continue;
    // A run may swallow a following number ("044 123 45 67 2 Stück"): drop trailing groups until valid.
    for (let attempt = 0; attempt < 3 && raw.length >= 8; attempt++) {
      if (!DATE_LIKE.test(raw) && valid(raw)) break;
      const cut = raw.search(/[ ./-]+\d+\)?$/);
      raw = cut > 0 ? raw.slice(0, cut) : '';
    }
    if (raw.length < 8 || DATE_LIKE.test(raw) || !valid(raw)) continue;
    // "01487818-2954-4932-…": a run that goes on with a separator and more characters is an id (UUID, ref).
    if (/^[-./][A-Za-z0-9]/.test(text.slice(start + raw.length, start + raw.length + 2))) continue;
    const digits = raw.replace(/\D/g, '');
    const separated = /[ ()./-]/.test(raw.slice(1));
    const context = contextBefore(text, start, PHONE_CONTEXT, 40);
    // A bare digit run is usually an id or a timestamp; it needs a context word.
    if (!separated && !raw.startsWith('+') && !context) continue;
    if (digits.length > 15) continue;
    const conf = context || raw.startsWith('+') ? 0.95 : 0.85;
    out.push(candidate('PHONE', 'PERSONAL', text, start, start + raw.length, conf, 'phone'));
  }
  return out;
}
