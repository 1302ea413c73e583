import { allowList, isAllowed } from './allow-values.js';
import { detectCustom } from './custom-patterns.js';
import { canonicalType } from './entity-types.js';
import { detectAddresses } from './detectors/address.js';
import { detectBirthDates } from './detectors/birth-date.js';
import { hasDigit } from './detectors/context.js';
import { detectEmails, detectObfuscatedEmails } from './detectors/contact.js';
import { detectPhones } from './detectors/phones.js';
import { detectCards, detectCvv, detectIban } from './detectors/financial.js';
import { detectNames } from './detectors/name-model.js';
import { detectLowerCaseNames, detectNameRules, nameWords } from './detectors/names.js';
import {
  detectAvs,
  detectCodiceFiscale,
  detectDocuments,
  detectNino,
  detectNir,
  detectSsn,
  detectSteuerId,
} from './detectors/national-ids.js';
import { detectSecrets } from './detectors/secrets.js';
import { type Folded, foldForDetection } from './fold.js';
import type { Candidate, DetectOptions, Entity } from './types.js';
import { mergeTouching, toWholeWords } from './whole-words.js';
import { matchesOf } from './matches.js';

export const DEFAULT_MIN_CONFIDENCE = 0.5;

// An account number that fails its IBAN checksum is still an account-number-shaped run: its digit groups
// must not resurface as a card, a phone or an SSN.
const IBAN_SHAPE = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g;
const NUMERIC_TYPES = new Set(['CARD', 'PHONE', 'SSN', 'CVV', 'NIR', 'AVS', 'DE_TAX_ID']);

function insideIbanShape(folded: Folded, candidates: Candidate[]): Candidate[] {
  const shapes = matchesOf(IBAN_SHAPE, folded.text).map(
    (m) => [original(folded, m.index), original(folded, m.index + m[0].length)] as const,
  );
  if (shapes.length === 0) return candidates;
  return candidates.filter((c) => !NUMERIC_TYPES.has(c.type) || !strictlyInside(c, shapes));
}

// The shapes come from one global scan: sorted and disjoint, so only the last one that starts at or before
// the candidate can hold it. A binary search finds it (a loop over all shapes for every candidate grew with
// the square of the text's length).
function strictlyInside(c: Candidate, shapes: ReadonlyArray<readonly [number, number]>): boolean {
  let lo = 0;
  let hi = shapes.length - 1;
  let last = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (shapes[mid]![0] <= c.start) {
      last = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (last < 0) return false;
  const [s, e] = shapes[last]!;
  return c.end <= e && (c.start > s || c.end < e);
}

const NONE: Candidate[] = [];

// Most chat messages hold no digit at all, and every detector run through `ifDigits` below needs an ASCII
// digit in its match, so prose skips them outright. The merge order is kept: it breaks ties in overlap
// resolution. The built-in detectors read the folded text (fold.ts: full-width forms, other scripts' digits,
// no-break and thin spaces), so "４１１１…" is read as "4111…"; their findings are mapped back to the original. An
// organization's own patterns read the text as written: they may name those characters themselves.
function collect(text: string, options: DetectOptions): Candidate[] {
  const folded = foldForDetection(text);
  const t = folded.text;
  const digits = hasDigit(t);
  const ifDigits = (detect: (t: string) => Candidate[]) => (digits ? detect(t) : NONE);
  const cards = ifDigits(detectCards);
  const builtIn = [
    ...detectSecrets(t),
    ...detectEmails(t),
    ...detectObfuscatedEmails(t),
    ...ifDigits(detectIban),
    ...cards,
    ...ifDigits((t) => detectCvv(t, cards)),
    ...ifDigits(detectAvs),
    ...ifDigits(detectNir),
    ...ifDigits(detectSsn),
    ...ifDigits(detectNino),
    ...detectCodiceFiscale(t),
    ...ifDigits(detectSteuerId),
    ...ifDigits((t) => detectPhones(t, options.phoneRegion ? { region: options.phoneRegion } : {})),
    ...ifDigits(detectDocuments),
    ...ifDigits(detectBirthDates),
    ...ifDigits(detectAddresses),
    ...names(t, options),
  ];
  const mapped = t === text ? builtIn : builtIn.map((c) => inOriginal(text, folded, c));
  const found = options.customPatterns ? [...mapped, ...detectCustom(text, options.customPatterns)] : mapped;
  return withoutNamesInAddresses(digits ? insideIbanShape(folded, found) : found);
}

// The rules (or the opt-in model) read capitalised words; names typed without capitals have their own
// stricter rule. Both read the same words.
function names(t: string, options: DetectOptions): Candidate[] {
  const words = nameWords(t);
  const capitalised = options.nameModel ? detectNames(t) : detectNameRules(t, words);
  const lower = detectLowerCaseNames(t, words);
  return lower.length === 0 ? capitalised : [...capitalised, ...lower];
}

function original(folded: Folded, offset: number): number {
  return folded.toOriginal === null ? offset : folded.toOriginal[offset]!;
}

// The finding as written: the original characters, at their own offsets.
function inOriginal(text: string, folded: Folded, c: Candidate): Candidate {
  const start = original(folded, c.start);
  const end = original(folded, c.end);
  return { ...c, start, end, value: text.slice(start, end) };
}

// Streets are named after people ("1950 Louis Henna Blvd", "Via Giuseppe Verdi 3"): a name found inside an
// address is part of the address, and must not cut it.
// Each name is looked up among the addresses by binary search (the furthest end of the addresses that start
// at or before it): testing every address for every name grew with the product of the two, i.e. with the
// square of the text's length (3 % of the engine's time at 100 KB).
function withoutNamesInAddresses(candidates: Candidate[]): Candidate[] {
  const addresses = candidates.filter((c) => c.type === 'ADDRESS').sort((a, b) => a.start - b.start);
  if (addresses.length === 0) return candidates;
  const furthestEnd = new Int32Array(addresses.length);
  let furthest = -1;
  addresses.forEach((a, i) => {
    furthest = Math.max(furthest, a.end);
    furthestEnd[i] = furthest;
  });
  const insideAnAddress = (c: Candidate): boolean => {
    // The last address that starts at or before the name.
    let lo = 0;
    let hi = addresses.length - 1;
    let last = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (addresses[mid]!.start <= c.start) {
        last = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return last >= 0 && furthestEnd[last]! >= c.end;
  };
  return candidates.filter((c) => c.type !== 'NAME' || !insideAnAddress(c));
}

// Validated, confident findings first; among them the longest, then the most confident. A weak guess
// never cuts into a checksum-validated number.
function priority(a: Candidate, b: Candidate): number {
  const strongA = a.confidence >= 0.9 ? 1 : 0;
  const strongB = b.confidence >= 0.9 ? 1 : 0;
  if (strongA !== strongB) return strongB - strongA;
  const lengthDiff = b.end - b.start - (a.end - a.start);
  if (lengthDiff !== 0) return lengthDiff;
  if (a.confidence !== b.confidence) return b.confidence - a.confidence;
  return a.start - b.start;
}

// A chat turn has a handful of findings, and Array.prototype.sort allocates its sorting state and work
// arrays (1.4 KB a turn for the two sorts below, more than the findings themselves). A short list is sorted
// by insertion instead: stable like the built-in sort, so with the same comparison the same order.
const SHORT_LIST = 16;

function sortedBy<T>(items: readonly T[], compare: (a: T, b: T) => number): T[] {
  if (items.length > SHORT_LIST) return [...items].sort(compare);
  const out: T[] = [];
  for (const item of items) {
    let i = out.length;
    out.push(item);
    for (; i > 0 && compare(out[i - 1]!, item) > 0; i--) out[i] = out[i - 1]!;
    out[i] = item;
  }
  return out;
}

const byStart = (a: Candidate, b: Candidate): number => a.start - b.start;

/**
 * Keeps the findings of highest priority that do not overlap. Every candidate must lie within
 * [0, textLength] (as the detectors' matches do): the two paths below agree only inside the text.
 */
export function resolveOverlaps(candidates: Candidate[], textLength: number): Entity[] {
  // Most messages have no finding at all: skip the per-character map.
  if (candidates.length === 0) return [];
  const chosen: Entity[] = [];
  if (candidates.length <= SHORT_LIST) {
    // A few findings are compared with each other: no map of the whole text (4.5 KB for a conversation).
    // Empty ones cover no character, as in the map.
    for (const c of sortedBy(candidates, priority)) {
      const free = chosen.every(
        (o) => o.start >= o.end || c.start >= c.end || o.end <= c.start || c.end <= o.start,
      );
      if (free) chosen.push(c);
    }
    return sortedBy(chosen, byStart);
  }
  // One byte per character keeps the overlap test linear in the text, whatever the number of findings.
  const taken = new Uint8Array(textLength);
  for (const c of sortedBy(candidates, priority)) {
    let free = true;
    for (let i = c.start; i < c.end; i++) {
      if (taken[i] === 1) {
        free = false;
        break;
      }
    }
    if (!free) continue;
    taken.fill(1, c.start, c.end);
    chosen.push(c);
  }
  return sortedBy(chosen, byStart);
}

// What an allowed value is found as, read alone (allow-values.ts): the findings that cover it whole.
function foundWhole(value: string): string[] {
  const v = value.trim();
  return detectEntities(v)
    .filter((e) => e.start === 0 && e.end === v.length)
    .map((e) => e.type);
}

export function detectEntities(text: string, options: DetectOptions = {}): Entity[] {
  if (text.length === 0) return [];
  const minConfidence = options.minConfidence ?? DEFAULT_MIN_CONFIDENCE;
  const only = options.types ? new Set(options.types.map(canonicalType)) : null;
  const ignore = new Set((options.ignoreTypes ?? []).map(canonicalType));
  const kept = toWholeWords(text, collect(text, options)).filter(
    (c) => c.confidence >= minConfidence && (only === null || only.has(c.type)) && !ignore.has(c.type),
  );
  const resolved = resolveOverlaps(kept, text.length);
  // Compared on a canonical form per type (allow-values.ts): "+41446681800" allows "+41 44 668 18 00".
  // Dropped only after the overlaps are resolved: an allowed value keeps its characters, so no weaker
  // finding over them ("…18 00, mail SUPPORT" read as an address) tokenizes part of it.
  const allowed = options.allowValues?.length ? allowList(options.allowValues, foundWhole) : null;
  const shown = allowed === null ? resolved : resolved.filter((c) => !isAllowed(allowed, c.type, c.value));
  return mergeTouching(text, shown);
}
