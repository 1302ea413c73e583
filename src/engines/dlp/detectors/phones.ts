import {
  type CountryCode,
  isSupportedCountry,
  type PhoneNumber,
  PhoneNumberMatcher,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/max';
import { guessLanguage, type Language } from '../language.js';
import type { Candidate } from '../types.js';
import { candidate, contextBefore, isWordChar } from './context.js';

// Phone numbers are read by libphonenumber's matcher (PhoneNumberMatcher, max metadata, "valid" leniency),
// not by hand patterns. Over a whole text the matcher costs about 6 ms per KB, twelve times the whole
// engine's budget, so it reads only short windows: runs of at least seven digits with phone punctuation.
// A national number is read in the organization's region first, then the regions of the text's language,
// then the other regions we serve; international forms (+, 00) carry their own country.
const RUN_RE = /(?:\+|\b00|\(|\b)\d[\d \u00a0().\/-]{5,24}\d(?:\s*(?:ext\.?|x|#)\s*\d{1,5})?/g;
const PHONE_CONTEXT =
  /\b(?:phone|tel|téléphone|telephone|telefon|telefono|mobile|mobil|handy|natel|cell|portable|cellulare|call|appel|rappel|anruf|rückruf|chiam|richiam|fax|whatsapp|sms|reach|joindre|erreichen|raggiung|numéro|nummer|numero|number|contact|kontakt|contatt)/i;
// A number right after the name of another identifier is that identifier, whatever its digits look like.
const OTHER_IDENTIFIER =
  /(?<![\p{L}])(?:passport|passeport|reisepass|passnummer|passaporto|licen[cs]e|\bdl\b|permis|führerschein|patente|ssn|social security|sécurité sociale|tax id|steuer-?id|iban|konto|account no|card|carte|karte|carta)\W{0,3}(?:[\p{L}.°]+\W{1,3}){0,3}$/iu;
const SERVED: readonly CountryCode[] = ['CH', 'FR', 'DE', 'IT', 'GB', 'AT', 'BE', 'US'];
const BY_LANGUAGE: Record<Language, readonly CountryCode[]> = {
  en: ['US', 'GB'],
  fr: ['FR', 'CH', 'BE'],
  de: ['DE', 'CH', 'AT'],
  it: ['IT', 'CH'],
};
const DATE_LIKE = /^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}$/;
// "212-555-0143", "(212) 555 0143", "212.555.0143": the North-American grouping. Numbers of the fictional
// 555 range or of unassigned area codes are not "valid" for the matcher but are written (and leaked) the same
// way, so with this exact grouping a "possible" number counts too.
const NANP_GROUPING = /^(?:(?:\+?1|001)[ .-]?)?(?:\(\d{3}\) ?|\d{3}[ .-])\d{3}[ .-]\d{4}$/;

export interface PhoneOptions {
  /** The organization's country (ISO 3166 alpha-2), read first for national numbers. */
  region?: string;
}

/**
 * The regions a national number is read in, in order, and how many of them are the text's own: the
 * organization's region (`org`, 0 or 1) and the regions of the text's language (`home` counts both).
 */
export interface PhoneRegions {
  order: CountryCode[];
  org: number;
  home: number;
}

// libphonenumber's isSupportedCountry goes through its metadata wrapper on every call; the answer for a code
// never changes, and every call of the detector asks it for the same ten or so codes.
const supported = new Map<string, boolean>();
function isSupported(code: string): code is CountryCode {
  let known = supported.get(code);
  if (known === undefined) {
    known = isSupportedCountry(code);
    // Bounded: the codes asked are the served ones and the organizations' regions.
    if (supported.size < 1024) supported.set(code, known);
  }
  return known;
}

/** Whether libphonenumber knows the region (ISO 3166 alpha-2, upper case): an organization's phoneRegion. */
export function isPhoneRegion(code: string): boolean {
  return isSupported(code);
}

export function phoneRegions(text: string, region: string | undefined): PhoneRegions {
  const order: CountryCode[] = [];
  const add = (c: string) => {
    const upper = c.toUpperCase();
    if (isSupported(upper) && !order.includes(upper)) order.push(upper);
  };
  if (region) add(region);
  const org = order.length;
  const language = guessLanguage(text);
  if (language) for (const c of BY_LANGUAGE[language]) add(c);
  const home = order.length;
  for (const c of SERVED) add(c);
  return { order, org, home };
}

// The digits of a number as written, in their groups ("(020) 7946-0958" → "020 7946 0958").
function groups(s: string): string {
  return s
    .replace(/[()]/g, '')
    .replace(/[ \u00a0./-]+/g, ' ')
    .trim();
}

/**
 * Whether a window that is no valid number of the region is nevertheless written as that region's national
 * numbers are: the length is possible there and the digits are grouped as the region groups that number
 * ("07700 900893", the British drama range). Such a number belongs to the region (a fictional or unassigned
 * one), and another country where the same digits happen to be valid must not take it: in Germany
 * 07700 900893 is a valid number. A window without groups cannot show its format; a possible length is enough.
 */
function writtenAsNational(window: string, n: PhoneNumber | undefined): boolean {
  if (!n?.isPossible()) return false;
  const written = groups(window);
  return !written.includes(' ') || written === groups(n.formatNational());
}

// Every national number of the European regions we serve is dialled with a trunk 0, except Italian
// mobiles (3…); North-American ones never start with 0. Reading a window only in the regions where its first
// digit can start a number saves most of the matcher's calls (each costs 0.03–0.1 ms).
const TRUNK_ZERO = new Set(['CH', 'FR', 'DE', 'GB', 'AT', 'BE', 'NL', 'IE']);

function plausibleIn(region: CountryCode, window: string): boolean {
  const digits = window.replace(/\s*(?:ext\.?|x|#)\s*\d{1,5}$/i, '').replace(/\D/g, '');
  if (TRUNK_ZERO.has(region)) return digits[0] === '0' && digits.length >= 9 && digits.length <= 13;
  if (region === 'US' || region === 'CA') {
    return digits.length === 10 ? digits[0]! >= '2' : digits.length === 11 && digits[0] === '1';
  }
  if (region === 'IT') return (digits[0] === '0' || digits[0] === '3') && digits.length >= 6;
  return true;
}

// A window with an extension, a bracket or more digit groups than a number has may hold a number with more
// around it; the others were read whole by the parse.
const MORE_AROUND = /ext|x|#|\(|(?:[ .\/-]\d+){4,}/i;

interface Found {
  start: number;
  end: number;
  /** The region the number was read in (national numbers; undefined for international and NANP forms). */
  region?: CountryCode;
}

function matchWindow(window: string, regions: PhoneRegions): Found[] {
  // "0041 44 …", "001-650-…": the European international prefix, which the matcher reads only in regions
  // that dial it; read as '+', one character shorter.
  if (window.startsWith('00')) {
    return matchWindow(`+${window.slice(2)}`, regions).map((f) => ({
      ...f,
      start: f.start === 0 ? 0 : f.start + 1,
      end: f.end + 1,
    }));
  }
  // "+33 (0)4 09 13 42 66", "+44 (0) 20 …": the trunk zero in brackets after the country code, which the
  // parser does not take; read without it, reported whole.
  const trunk = /^(\+\d{1,3}) ?\(0\) ?/.exec(window);
  if (trunk) {
    const inner = `${trunk[1]} ${window.slice(trunk[0].length)}`;
    if (parsePhoneNumberFromString(inner)?.isValid()) return [{ start: 0, end: window.length }];
  }
  const international = window.startsWith('+');
  const order = international ? regions.order.slice(0, 1) : regions.order;
  // How far down the order a national number may still be read: a number written in the national format
  // of the organization's region but invalid there is no number of any other region; one written as a
  // language region's number (English text: US, GB) may still be a same-language cousin's (German text:
  // DE, CH, AT), never a foreign one's. Like the fictional 555 numbers below, such a number (the British
  // drama range, an unassigned block) is written and leaked as a phone of that region, and is found as one.
  let limit = order.length;
  let claimed: CountryCode | undefined;
  for (let i = 0; i < limit; i++) {
    const region = order[i]!;
    if (!international && !plausibleIn(region, window)) continue;
    // The common case, a window that is exactly one valid number, costs one parse; the matcher (several
    // times dearer) runs only on windows with more around the number.
    const parsed = parsePhoneNumberFromString(window, region);
    if (parsed?.isValid()) {
      // "044 668 18 00 2 Stück": a short group after a valid number is a number of its own.
      const cut = window.search(/[ .\/-]+\d$/);
      const shorter = cut > 0 && parsePhoneNumberFromString(window.slice(0, cut), region)?.isValid();
      return [{ start: 0, end: shorter ? cut : window.length, region }];
    }
    if (!international && claimed === undefined && i < regions.home && writtenAsNational(window, parsed)) {
      claimed = region;
      limit = Math.min(limit, i < regions.org ? i + 1 : regions.home);
    }
    if (!MORE_AROUND.test(window)) continue;
    const found: Found[] = [];
    const matcher = new PhoneNumberMatcher(window, { defaultCountry: region, v2: true });
    while (matcher.hasNext()) {
      const f = matcher.next();
      if (f) found.push({ start: f.startsAt, end: f.endsAt, region });
    }
    if (found.length > 0) return found;
  }
  if (claimed !== undefined) return [{ start: 0, end: window.length, region: claimed }];
  // The North-American grouping, with its extension ("(982)664-3385x9756", "212-555-0143 ext. 12"). Generated
  // and test numbers start their area code with any digit; the grouping alone marks them.
  const nanp = window.replace(/\s*(?:ext\.?|x|#)\s*\d{1,5}$/, '').trimEnd();
  if (NANP_GROUPING.test(nanp)) return [{ start: 0, end: window.length }];
  return [];
}

/** The region a national number written alone in a text is read in, or undefined (tests and docs). */
export function phoneRegionOf(text: string, window: string, region?: string): CountryCode | undefined {
  const found = matchWindow(window, phoneRegions(text, region));
  return found.length === 1 && found[0]!.end - found[0]!.start === window.length
    ? found[0]!.region
    : undefined;
}

// Parsing dominates the cost, and a message often repeats its number (body and signature).
function memoised(regions: PhoneRegions): (window: string) => Found[] {
  const seen = new Map<string, Found[]>();
  return (window) => {
    let f = seen.get(window);
    if (f === undefined) {
      f = matchWindow(window, regions);
      seen.set(window, f);
    }
    return f;
  };
}

// The longest digit run looked back over: longer ones are no phone's neighbour anyway.
const LOOK_BACK = 32;

/**
 * Whether the number at `start` goes on from a number before it ("1 85 05 78 …", "12.34.56"). A `+` starts a
 * number of its own ("…18 00 +33 6 …"), and after a space the word before must be digits only: an id of
 * letters and digits ("Réf. 10EB14064 021 488 11 22") ends where its word does. A no-break or thin space
 * between two values reads as a space (fold.ts), so both rules keep values glued that way apart too.
 */
function continuesNumber(text: string, start: number, raw: string): boolean {
  const separator = text[start - 1];
  if (separator === undefined || !' ./-'.includes(separator) || !isAsciiDigit(text[start - 2])) return false;
  if (raw.startsWith('+')) return false;
  if (separator !== ' ') return true;
  let i = start - 2;
  for (let n = 1; i > 0 && isAsciiDigit(text[i - 1]); i--) if (++n > LOOK_BACK) return true;
  return !isWordChar(text[i - 1]);
}

const isAsciiDigit = (ch: string | undefined): boolean => ch !== undefined && ch >= '0' && ch <= '9';

function accepted(text: string, start: number, end: number): boolean {
  const raw = text.slice(start, end);
  if (isWordChar(text[start - 1]) || (/^\d/.test(raw) && /[.-]/.test(text[start - 1] ?? ''))) return false;
  // "1 85 05 78 …": a run that continues a longer number is a fragment of it, not a phone.
  if (continuesNumber(text, start, raw)) return false;
  if (DATE_LIKE.test(raw)) return false;
  // "01487818-2954-4932-…": a number that goes on with a separator and more characters is an id.
  if (/^[-./][A-Za-z0-9]/.test(text.slice(end, end + 2)) || isWordChar(text[end])) return false;
  const digits = raw.replace(/\D/g, '');
  if (digits.length < 7 || digits.length > 17) return false;
  return true;
}

/**
 * The end of the longest front of `run`, cut at a space, that is one whole phone number, or 0. A run is at
 * most 26 characters (RUN_RE), so at most a dozen fronts are read, each once per text (memoised).
 */
function phoneFront(run: string, match: (window: string) => Found[]): number {
  for (let cut = run.lastIndexOf(' '); cut > 0; cut = run.lastIndexOf(' ', cut - 1)) {
    const front = run.slice(0, cut).trimEnd();
    const digits = front.replace(/\D/g, '').length;
    if (digits > 17) continue;
    if (digits < 7) break;
    const found = match(front);
    if (found.length === 1 && found[0]!.start === 0 && found[0]!.end === front.length) return front.length;
  }
  return 0;
}

export function detectPhones(text: string, options: PhoneOptions = {}): Candidate[] {
  const out: Candidate[] = [];
  let regions: PhoneRegions | null = null;
  let match: ((window: string) => Found[]) | null = null;
  RUN_RE.lastIndex = 0;
  for (let m = RUN_RE.exec(text); m !== null; m = RUN_RE.exec(text)) {
    const run = m[0].trimEnd();
    const digits = run.replace(/\D/g, '').length;
    if (digits < 7 || DATE_LIKE.test(run)) continue;
    const separated = /[ \u00a0().\/-]/.test(run.slice(1));
    const plus = run.startsWith('+');
    if (contextBefore(text, m.index, OTHER_IDENTIFIER, 40)) continue;
    const context = contextBefore(text, m.index, PHONE_CONTEXT, 40);
    // A bare digit run is usually an id or a timestamp; it needs a context word or a '+'.
    if (!separated && !plus && !context) continue;
    regions ??= phoneRegions(text, options.region);
    match ??= memoised(regions);
    // Longer runs are cards, account numbers or several numbers in a row, not one phone number.
    let found = digits > 17 ? [] : match(run);
    if (found.length === 0) {
      // "+41 44 668 18 00 4111 1111 1111 1111": a phone right before another number runs into it, and the
      // whole is no number. The longest front cut at a space that is one whole number is the phone; the
      // scan goes on right after it, so the next run starts at the other number (a card or an AHV number,
      // found by its own detector; here a fragment that continuesNumber turns down).
      const cut = phoneFront(run, match);
      if (cut > 0) {
        found = [{ start: 0, end: cut }];
        RUN_RE.lastIndex = m.index + cut;
      }
    }
    // Ten digits in one run after a phone word: a North-American number written without its grouping.
    if (found.length === 0 && context && /^(?:\+?1)?\d{10}$/.test(run))
      found = [{ start: 0, end: run.length }];
    for (const f of found) {
      const start = m.index + f.start;
      const end = m.index + f.end;
      if (!accepted(text, start, end)) continue;
      const value = text.slice(start, end);
      if (!/[ \u00a0().\/-]/.test(value.slice(1)) && !value.startsWith('+') && !context) continue;
      const conf = context || plus ? 0.95 : 0.85;
      out.push(candidate('PHONE', 'PERSONAL', text, start, end, conf, 'phone'));
    }
  }
  return out;
}
