import { ibanMod97Valid, luhnValid } from '../checksums.js';
import type { Candidate } from '../types.js';
import { cardBrand } from './card-brands.js';
import { candidate, contextBefore, isWordChar } from './context.js';
import { IBAN_LENGTHS } from './iban-lengths.js';
import { matchesOf } from '../matches.js';

// ISO 13616 prints an IBAN in groups of four separated by spaces; copies from web pages and PDFs bring
// no-break, narrow no-break and thin spaces (U+00A0, U+202F, U+2009…), and people also write the groups with
// dots or hyphens ("CH93.0076.2011.6238.5295.7", "CH93-0076-…"). One kind of separator throughout, each kind
// in its own alternative: the spaced one first, as before, so a run that fails to be an IBAN never takes
// more of the text than it did (a hyphen in the spaced pattern let "…-cd20-4c1b-a434-…" of an id swallow the
// IBAN after it). The engine reads those spaces as spaces for every detector (fold.ts); the class stays so
// that this detector, called on its own, reads them too.
const SPACES = '[ \\u00a0\\u2000-\\u200a\\u202f\\u205f]';
const IBAN_RE = new RegExp(
  `\\b[A-Za-z]{2}\\d{2}(?:(?:${SPACES}?[A-Za-z0-9]{1,4}){3,8}|(?:\\.[A-Za-z0-9]{1,4}){3,8}|(?:-[A-Za-z0-9]{1,4}){3,8})`,
  'g',
);
const IBAN_SEPARATOR = new RegExp(`${SPACES}|[.-]`);
const IBAN_SEPARATORS = new RegExp(`${SPACES}|[.-]`, 'g');

export function detectIban(text: string): Candidate[] {
  const out: Candidate[] = [];
  IBAN_RE.lastIndex = 0;
  for (let m = IBAN_RE.exec(text); m !== null; m = IBAN_RE.exec(text)) {
    const found = ibanAt(text, m.index, m[0]);
    if (found !== null) out.push(found);
    // The pattern's run may reach into a second account right after the first ("…0750 9 DE45…", glued by a
    // space or a no-break space): the scan resumes right after the IBAN found, or one character after a
    // start that was none. Each run is at most 44 characters, so the rescans stay linear.
    IBAN_RE.lastIndex = found !== null ? found.end : m.index + 1;
  }
  IBAN_RE.lastIndex = 0;
  return out;
}

function ibanAt(text: string, start: number, raw: string): Candidate | null {
  const country = raw.slice(0, 2).toUpperCase();
  const length = IBAN_LENGTHS[country];
  if (length === undefined) return null;
  // Walk the raw match to the character that completes the country's length.
  let count = 0;
  let endInRaw = -1;
  for (let i = 0; i < raw.length; i++) {
    if (IBAN_SEPARATOR.test(raw[i]!)) continue;
    count++;
    if (count === length) {
      endInRaw = i + 1;
      break;
    }
  }
  if (endInRaw < 0) return null;
  const end = start + endInRaw;
  if (isWordChar(text[end])) return null;
  // A dot or hyphen and more characters after the last group continue a longer identifier
  // ("CH93-0076-2011-6238-5295-7-01"); a space does not (the sentence goes on).
  const separator = raw[4];
  if ((separator === '.' || separator === '-') && text[end] === separator && isWordChar(text[end + 1]))
    return null;
  const value = text.slice(start, end);
  const compact = value.replace(IBAN_SEPARATORS, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(compact) || !ibanMod97Valid(compact)) return null;
  // Lower-case IBANs are real (copied from forms) but rarer; keep them slightly below the canonical form.
  const conf = value === value.toUpperCase() ? 0.99 : 0.95;
  return candidate('IBAN', 'FINANCIAL', text, start, end, conf, 'iban');
}

const CARD_RE = /\b\d(?:[ -]?\d){11,18}\b/g;
// Dotted groups ("4111.1111.1111.1111") in a scan of their own, one whole run of dotted digits at a time: in
// CARD_RE a dot would let a bare card swallow the decimals after it ("4111111111111111.00") and then fail
// the grouping test. Decimals, dotted dates, versions and IPv4 addresses fail that test or Luhn and the
// brand ranges; a run that continues into a decimal comma or a letter is no card either. A match never starts
// right after a digit (the look-behind): tried from every position of a run of digits, `\d+` read to the
// run's end and backtracked each time, the square of the run's length (16,000 digits held the event loop
// for 0.7 s). Such an attempt now fails at its first character; one after a dot is reached only when the
// match from the run's start failed, which reads that run once.
export const DOTTED_CARD_RE = /(?<!\d)\d+(?:\.\d+)+/g;
const CARD_CONTEXT =
  /(?:card|carte|karte|carta|visa|master ?card|amex|american express|kreditkarte|cb|pan|cc|numéro|nummer|numero)/i;

export function detectCards(text: string): Candidate[] {
  const out: Candidate[] = [];
  CARD_RE.lastIndex = 0;
  for (let m = CARD_RE.exec(text); m !== null; m = CARD_RE.exec(text)) {
    if (pushCard(text, m.index, m[0], out)) continue;
    // The run may go on past the card into another number after a space ("4111 1111 1111 1111 81 rue du
    // Lac", "… 1111 2027", a value glued by a no-break space, which fold.ts reads as one): the pattern takes
    // every group, and the whole fails Luhn or the grouping. The longest run of whole groups ending at a
    // space that is a card of 14 digits or more is the card (a 12-digit Maestro cut from a longer number is
    // as likely the front of an account number). At most 19 digits, so a few tries.
    let found = false;
    for (let cut = m[0].lastIndexOf(' '); cut > 0; cut = m[0].lastIndexOf(' ', cut - 1)) {
      const front = m[0].slice(0, cut);
      if (front.replace(/\D/g, '').length < 14) break;
      if (pushCard(text, m.index, front, out)) {
        found = true;
        break;
      }
    }
    // "+41 44 668 18 00 4111 1111 1111 1111": a number right before the card (a phone) runs into it, and
    // the pattern's run ends inside the card. A run that holds no card is read again from its second
    // group, so the card is found from its own first group; each run is at most 37 characters, so the
    // rescans stay linear.
    const gap = m[0].indexOf(' ');
    if (!found && gap > 0) CARD_RE.lastIndex = m.index + gap + 1;
  }
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

/** Pushes the card that `raw` is, if it is one, and says whether it was. */
function pushCard(text: string, start: number, raw: string, out: Candidate[]): boolean {
  const digits = raw.replace(/[ .-]/g, '');
  if (digits.length < 12 || digits.length > 19) return false;
  if (!luhnValid(digits) || cardBrand(digits) === null) return false;
  // A separator run must look like card grouping (4-4-4-4, 4-6-5), not an arbitrary spaced number, and use
  // one separator throughout.
  const groups = raw.split(/[ .-]/).map((g) => g.length);
  const grouped = groups.length > 1 && groups.slice(0, -1).every((g) => g === 4 || g === 6);
  const separators = new Set(raw.replace(/\d/g, ''));
  if (groups.length > 1 && (!grouped || separators.size > 1)) return false;
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
  return true;
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
