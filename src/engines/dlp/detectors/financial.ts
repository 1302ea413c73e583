import { ibanMod97Valid, luhnValid } from '../checksums.js';
import type { Candidate } from '../types.js';
import { cardBrand } from './card-brands.js';
import { candidate, contextBefore, isWordChar } from './context.js';
import { IBAN_LENGTHS } from './iban-lengths.js';
import { matchesOf } from '../matches.js';

const IBAN_RE = /\b[A-Za-z]{2}\d{2}(?: ?[A-Za-z0-9]{1,4}){3,8}/g;

export function detectIban(text: string): Candidate[] {
  const out: Candidate[] = [];
  for (const m of matchesOf(IBAN_RE, text)) {
    const start = m.index;
    const raw = m[0];
    const country = raw.slice(0, 2).toUpperCase();
    const length = IBAN_LENGTHS[country];
    if (length === undefined) continue;
    // Walk the raw match to the character that completes the country's length.
    let count = 0;
    let endInRaw = -1;
    for (let i = 0; i < raw.length; i++) {
      if (raw[i] === ' ') continue;
      count++;
      if (count === length) {
        endInRaw = i + 1;
        break;
      }
    }
    if (endInRaw < 0) continue;
    const end = start + endInRaw;
    if (isWordChar(text[end])) continue;
    const value = text.slice(start, end);
    const compact = value.replace(/ /g, '').toUpperCase();
    if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(compact) || !ibanMod97Valid(compact)) continue;
    // Lower-case IBANs are real (copied from forms) but rarer; keep them slightly below the canonical form.
    const conf = value === value.toUpperCase() ? 0.99 : 0.95;
    out.push(candidate('IBAN', 'FINANCIAL', text, start, end, conf, 'iban'));
  }
  return out;
}

const CARD_RE = /\b\d(?:[ -]?\d){11,18}\b/g;
// Dotted groups ("4111.1111.1111.1111") in a scan of their own, one whole run of dotted digits at a time: in
// CARD_RE a dot would let a bare card swallow the decimals after it ("4111111111111111.00") and then fail
// the grouping test. Decimals, dotted dates, versions and IPv4 addresses fail that test or Luhn and the
// brand ranges; a run that continues into a decimal comma or a letter is no card either.
const DOTTED_CARD_RE = /\d+(?:\.\d+)+/g;
const CARD_CONTEXT =
  /(?:card|carte|karte|carta|visa|master ?card|amex|american express|kreditkarte|cb|pan|cc|numéro|nummer|numero)/i;

export function detectCards(text: string): Candidate[] {
  const out: Candidate[] = [];
  for (const m of matchesOf(CARD_RE, text)) pushCard(text, m.index, m[0], out);
  for (const m of matchesOf(DOTTED_CARD_RE, text)) {
    const before = text[m.index - 1];
    const after = text[m.index + m[0].length];
    if (isWordChar(before) || isWordChar(after)) continue;
    // The run holds every dot between digits; a comma between digits makes it part of a larger number.
    if (before === ',' && isDigit(text[m.index - 2])) continue;
    if (after === ',' && isDigit(text[m.index + m[0].length + 1])) continue;
    // Two groups are a decimal number ("1234.567890123456"); a card written with dots has three or more.
    if (m[0].split('.').length < 3) continue;
    pushCard(text, m.index, m[0], out);
  }
  return out;
}

const isDigit = (ch: string | undefined): boolean => ch !== undefined && ch >= '0' && ch <= '9';

function pushCard(text: string, start: number, raw: string, out: Candidate[]): void {
  const digits = raw.replace(/[ .-]/g, '');
  if (digits.length < 12 || digits.length > 19) return;
  if (!luhnValid(digits) || cardBrand(digits) === null) return;
  // A separator run must look like card grouping (4-4-4-4, 4-6-5), not an arbitrary spaced number, and use
  // one separator throughout.
  const groups = raw.split(/[ .-]/).map((g) => g.length);
  const grouped = groups.length > 1 && groups.slice(0, -1).every((g) => g === 4 || g === 6);
  const separators = new Set(raw.replace(/\d/g, ''));
  if (groups.length > 1 && (!grouped || separators.size > 1)) return;
  const context = contextBefore(text, start, CARD_CONTEXT, 60);
  // Luhn alone accepts one random digit run in ten, and a brand's prefix and length cut that by ten again:
  // a bare run of a brand's usual length counts unless a word before it names another kind of number
  // (order, invoice, tracking…). A 12-digit Maestro run, which ids share, needs grouping or a card word.
  const bare = !grouped && !context;
  const otherNumber = bare && contextBefore(text, start, OTHER_NUMBER, 40);
  const conf = grouped
    ? context
      ? 0.99
      : 0.95
    : context
      ? 0.95
      : digits.length >= 14 && !otherNumber
        ? 0.6
        : 0.45;
  out.push(candidate('CARD', 'FINANCIAL', text, start, start + raw.length, conf, 'card'));
}

const CVV_RE = /\b\d{3,4}\b/g;
const CVV_WORDS =
  'cvv2?|cvc2?|cid|csc|security code|card code|cryptogramme|code de sécurité|code de securite|prüfnummer|pruefnummer|kartenprüfnummer|sicherheitscode|codice di sicurezza|codice cvv';
const CVV_CONTEXT = new RegExp(`(?:${CVV_WORDS})\\W{0,12}$`, 'i');
// Looked for once in the whole text, so that a message without any of the words skips the per-number test.
const ANY_CVV_WORD = new RegExp(CVV_WORDS, 'i');

// Word-bounded: "paid with 3768…" holds "id" but names no other number.
const OTHER_NUMBER =
  /(?<![\p{L}])(?:order|invoice|tracking|ticket|ref|reference|id|sku|ean|isbn|serial|account|bestell|rechnung|auftrag|kunden|commande|facture|référence|ordine|fattura|riferimento|n°|nr\.?|no\.)\W{0,3}(?:\w+\W{1,3}){0,2}$/iu;

// Only the card numbers' ends matter, so they are sorted once and each short group looks at the ends in
// the 16 characters before it (binary search): looping over every card for every group grew with the square
// of the text's length.
function followsCard(text: string, cardEnds: Int32Array, start: number): boolean {
  let lo = 0;
  let hi = cardEnds.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cardEnds[mid]! < start - 16) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < cardEnds.length && cardEnds[i]! <= start; i++) {
    if (!/[a-z]{3}/i.test(text.slice(cardEnds[i]!, start))) return true;
  }
  return false;
}

export function detectCvv(text: string, cards: Candidate[]): Candidate[] {
  const out: Candidate[] = [];
  const worded = ANY_CVV_WORD.test(text);
  const cardEnds = Int32Array.from(new Set(cards.map((c) => c.end))).sort();
  for (const m of matchesOf(CVV_RE, text)) {
    const start = m.index;
    const end = start + m[0].length;
    const prev = text[start - 1];
    const next = text[end];
    if (prev === '/' || next === '/' || prev === '.' || prev === ',' || prev === '-') continue;
    if (worded && contextBefore(text, start, CVV_CONTEXT, 40)) {
      out.push(candidate('CVV', 'FINANCIAL', text, start, end, 0.95, 'cvv'));
      continue;
    }
    // Right after a card number ("4111 1111 1111 1111 12/27 123") the short group is its security code.
    if (m[0].length === 3 && followsCard(text, cardEnds, start)) {
      out.push(candidate('CVV', 'FINANCIAL', text, start, end, 0.7, 'cvv'));
    }
  }
  return out;
}
