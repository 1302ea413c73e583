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
const CARD_CONTEXT =
  /(?:card|carte|karte|carta|visa|master ?card|amex|american express|kreditkarte|cb|pan|cc|numéro|nummer|numero)/i;

export function detectCards(text: string): Candidate[] {
  const out: Candidate[] = [];
  for (const m of matchesOf(CARD_RE, text)) {
    const raw = m[0];
    const digits = raw.replace(/[ -]/g, '');
    if (digits.length < 12 || digits.length > 19) continue;
    if (!luhnValid(digits) || cardBrand(digits) === null) continue;
    // A separator run must look like card grouping (4-4-4-4, 4-6-5), not an arbitrary spaced number.
    const groups = raw.split(/[ -]/).map((g) => g.length);
    const grouped = groups.length > 1 && groups.slice(0, -1).every((g) => g === 4 || g === 6);
    const separatorsMixed = /-/.test(raw) && / /.test(raw);
    if (groups.length > 1 && (!grouped || separatorsMixed)) continue;
    const context = contextBefore(text, m.index, CARD_CONTEXT, 60);
    // Luhn alone accepts one random digit run in ten, and a brand's prefix and length cut that by ten again:
    // a bare run of a brand's usual length counts unless a word before it names another kind of number
    // (order, invoice, tracking…). A 12-digit Maestro run, which ids share, needs grouping or a card word.
    const bare = !grouped && !context;
    const otherNumber = bare && contextBefore(text, m.index, OTHER_NUMBER, 40);
    const conf = grouped
      ? context
        ? 0.99
        : 0.95
      : context
        ? 0.95
        : digits.length >= 14 && !otherNumber
          ? 0.6
          : 0.45;
    out.push(candidate('CARD', 'FINANCIAL', text, m.index, m.index + raw.length, conf, 'card'));
  }
  return out;
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
