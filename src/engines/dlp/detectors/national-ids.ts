import {
  codiceFiscaleValid,
  ean13Valid,
  ninoValid,
  nirValid,
  ssnValid,
  steuerIdValid,
} from '../checksums.js';
import type { Candidate } from '../types.js';
import { candidate, contextBefore } from './context.js';
import { matchesOf } from '../matches.js';

const AVS_RE = /\b756([. ]?)\d{4}\1\d{4}\1\d{2}\b/g;

export function detectAvs(text: string): Candidate[] {
  const out: Candidate[] = [];
  for (const m of matchesOf(AVS_RE, text)) {
    if (!ean13Valid(m[0].replace(/\D/g, ''))) continue;
    out.push(candidate('AVS', 'IDENTITY', text, m.index, m.index + m[0].length, 0.99, 'avs'));
  }
  return out;
}

const SSN_RE = /\b(\d{3})([- .])(\d{2})\2(\d{4})\b/g;
const SSN_BARE_RE = /\b(\d{3})(\d{2})(\d{4})\b/g;
const SSN_CONTEXT =
  /(?:ssn|social security|soc\.? sec|sozialversicherungsnummer|numéro de sécurité sociale|tax id|taxpayer|itin|ss#|ss no|ss number|numero di previdenza|sécurité sociale américain)/i;

export function detectSsn(text: string): Candidate[] {
  const out: Candidate[] = [];
  for (const m of matchesOf(SSN_RE, text)) {
    if (!ssnValid(m[1]!, m[3]!, m[4]!)) continue;
    const context = contextBefore(text, m.index, SSN_CONTEXT, 50);
    // Spaced groups are as often phone fragments as SSNs, so they need the context word.
    if (m[2] !== '-' && !context) continue;
    out.push(candidate('SSN', 'IDENTITY', text, m.index, m.index + m[0].length, context ? 0.97 : 0.8, 'ssn'));
  }
  for (const m of matchesOf(SSN_BARE_RE, text)) {
    if (!ssnValid(m[1]!, m[2]!, m[3]!) || !contextBefore(text, m.index, SSN_CONTEXT, 50)) continue;
    out.push(candidate('SSN', 'IDENTITY', text, m.index, m.index + m[0].length, 0.85, 'ssn'));
  }
  return out;
}

const NINO_RE = /\b([A-Z]{2}) ?(\d{2}) ?(\d{2}) ?(\d{2}) ?([A-D])\b/g;
const NINO_CONTEXT = /(?:national insurance|\bni\b|\bnino\b|insurance number)/i;

export function detectNino(text: string): Candidate[] {
  const out: Candidate[] = [];
  for (const m of matchesOf(NINO_RE, text)) {
    const compact = m[0].replace(/ /g, '');
    if (!ninoValid(compact)) continue;
    const conf = contextBefore(text, m.index, NINO_CONTEXT, 50) ? 0.97 : 0.85;
    out.push(candidate('NINO', 'IDENTITY', text, m.index, m.index + m[0].length, conf, 'nino'));
  }
  return out;
}

const NIR_RE = /\b[1278] ?\d{2} ?\d{2} ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}\b/gi;

export function detectNir(text: string): Candidate[] {
  const out: Candidate[] = [];
  for (const m of matchesOf(NIR_RE, text)) {
    if (!nirValid(m[0].replace(/ /g, ''))) continue;
    out.push(candidate('NIR', 'IDENTITY', text, m.index, m.index + m[0].length, 0.99, 'nir'));
  }
  return out;
}

const PASSPORT_WORDS =
  'passport|passeport|reisepass(?:nummer)?|pass-?nr|passnummer|passaporto|n° de passeport|numéro de passeport';
const LICENCE_WORDS =
  "driving licen[cs]e|driver'?s? licen[cs]e|drivers'? licen[cs]e|licen[cs]e (?:no|number)|\\bdl\\b|permis de conduire|permis|führerschein(?:nummer)?|fuehrerschein(?:nummer)?|patente(?: di guida)?";
// The keyword may be followed by a few words and a label ("passport (US) number", "numéro de passeport
// français", "Führerschein Nr.", "passport number for Anna is"), then the value.
const NUMBER_LABEL =
  "(?:\\s*\\(?[\\p{L}.'’]{1,14}\\)?){0,3}?(?:\\s*(?:no\\.?|n\\.|number|nr\\.?|n°|n\\.°|numéro|nummer|numero|id|#))?\\s*(?:is|est|ist|è|lautet|:|=|#|-)?\\s*$";
const PASSPORT_CONTEXT = new RegExp(`(?:${PASSPORT_WORDS})${NUMBER_LABEL}`, 'iu');
const LICENCE_CONTEXT = new RegExp(`(?:${LICENCE_WORDS})${NUMBER_LABEL}`, 'iu');
// Without one of the words anywhere, no document number can have it in front of it.
const DOCUMENT_WORDS = new RegExp(`${PASSPORT_WORDS}|${LICENCE_WORDS}`, 'i');
// Letters of either case (forms copied from a chat are often lower case), at least one digit (checked
// below); or digit groups written spaced ("123 456 789").
const DOC_NUMBER_RE = /\b\d{2,4}(?: \d{2,4}){1,4}\b|\b[A-Za-z0-9][A-Za-z0-9-]{4,17}[A-Za-z0-9]\b/g;
const UK_LICENCE_RE = /\b[A-Z9]{5}\d{6}[A-Z9]{2}\d[A-Z]{2}\b/g;
// The six-digit birth-date block of a UK licence, looked for first because it is much cheaper to find.
const SIX_DIGITS = /\d{6}/;

export function detectDocuments(text: string): Candidate[] {
  const out: Candidate[] = [];
  const numbers = DOCUMENT_WORDS.test(text) ? matchesOf(DOC_NUMBER_RE, text) : [];
  for (const m of numbers) {
    const value = m[0];
    if (!/\d/.test(value) || value.replace(/\D/g, '').length < 2 || value.length < 6) continue;
    const before = text.slice(Math.max(0, m.index - 60), m.index);
    const end = m.index + value.length;
    if (PASSPORT_CONTEXT.test(before)) {
      out.push(candidate('PASSPORT', 'IDENTITY', text, m.index, end, 0.9, 'passport'));
    } else if (LICENCE_CONTEXT.test(before)) {
      out.push(candidate('DRIVING_LICENCE', 'IDENTITY', text, m.index, end, 0.9, 'licence'));
    }
  }
  const licences = SIX_DIGITS.test(text) ? matchesOf(UK_LICENCE_RE, text) : [];
  for (const m of licences) {
    out.push(candidate('DRIVING_LICENCE', 'IDENTITY', text, m.index, m.index + m[0].length, 0.8, 'licence'));
  }
  return out;
}

const CF_RE =
  /\b[A-Za-z]{6}[0-9LMNPQRSTUV]{2}[A-Za-z][0-9LMNPQRSTUV]{2}[A-Za-z][0-9LMNPQRSTUV]{3}[A-Za-z]\b/g;
// The middle of a codice fiscale (birth year, month, day): CF_RE tries every long word, this only the rare
// places where digits or the upper-case letters that stand for them cluster.
const CF_MIDDLE = /[0-9LMNPQRSTUV]{2}[A-Za-z][0-9LMNPQRSTUV]{2}/;

export function detectCodiceFiscale(text: string): Candidate[] {
  const out: Candidate[] = [];
  if (!CF_MIDDLE.test(text)) return out;
  for (const m of matchesOf(CF_RE, text)) {
    if (!codiceFiscaleValid(m[0].toUpperCase())) continue;
    out.push(
      candidate('IT_FISCAL_CODE', 'IDENTITY', text, m.index, m.index + m[0].length, 0.97, 'codice_fiscale'),
    );
  }
  return out;
}

const STEUER_RE = /\b[1-9]\d(?: ?\d{3}){3}\b/g;
const STEUER_CONTEXT =
  /(?:steuer-?id|steueridentifikationsnummer|steuer-identifikationsnummer|identifikationsnummer|idnr|tin|tax id)/i;

export function detectSteuerId(text: string): Candidate[] {
  const out: Candidate[] = [];
  for (const m of matchesOf(STEUER_RE, text)) {
    // Eleven digits are as often an order or customer number: the checksum and a context word are both needed.
    if (!steuerIdValid(m[0].replace(/ /g, '')) || !contextBefore(text, m.index, STEUER_CONTEXT, 40)) continue;
    out.push(candidate('DE_TAX_ID', 'IDENTITY', text, m.index, m.index + m[0].length, 0.95, 'steuer_id'));
  }
  return out;
}
