import { detectCustom } from './custom-patterns.js';
import { canonicalType } from './entity-types.js';
import { detectAddresses } from './detectors/address.js';
import { detectBirthDates } from './detectors/birth-date.js';
import { hasDigit } from './detectors/context.js';
import { detectEmails } from './detectors/contact.js';
import { detectPhones } from './detectors/phones.js';
import { detectCards, detectCvv, detectIban } from './detectors/financial.js';
import { detectNames } from './detectors/name-model.js';
import { detectNameRules } from './detectors/names.js';
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
import type { Candidate, DetectOptions, Entity } from './types.js';
import { mergeTouching, toWholeWords } from './whole-words.js';
import { matchesOf } from './matches.js';

export const DEFAULT_MIN_CONFIDENCE = 0.5;

// An account number that fails its IBAN checksum is still an account-number-shaped run: its digit groups
// must not resurface as a card, a phone or an SSN.
const IBAN_SHAPE = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g;
const NUMERIC_TYPES = new Set(['CARD', 'PHONE', 'SSN', 'CVV', 'NIR', 'AVS', 'DE_TAX_ID']);

function insideIbanShape(text: string, candidates: Candidate[]): Candidate[] {
  const shapes = matchesOf(IBAN_SHAPE, text).map((m) => [m.index, m.index + m[0].length] as const);
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
// resolution.
function collect(text: string, options: DetectOptions): Candidate[] {
  const digits = hasDigit(text);
  const ifDigits = (detect: (t: string) => Candidate[]) => (digits ? detect(text) : NONE);
  const cards = ifDigits(detectCards);
  const found = [
    ...detectSecrets(text),
    ...detectEmails(text),
    ...ifDigits(detectIban),
    ...cards,
    ...ifDigits((t) => detectCvv(t, cards)),
    ...ifDigits(detectAvs),
    ...ifDigits(detectNir),
    ...ifDigits(detectSsn),
    ...ifDigits(detectNino),
    ...detectCodiceFiscale(text),
    ...ifDigits(detectSteuerId),
    ...ifDigits((t) => detectPhones(t, options.phoneRegion ? { region: options.phoneRegion } : {})),
    ...ifDigits(detectDocuments),
    ...ifDigits(detectBirthDates),
    ...ifDigits(detectAddresses),
    ...(options.nameModel ? detectNames(text) : detectNameRules(text)),
    ...(options.customPatterns ? detectCustom(text, options.customPatterns) : []),
  ];
  return withoutNamesInAddresses(digits ? insideIbanShape(text, found) : found);
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

export function detectEntities(text: string, options: DetectOptions = {}): Entity[] {
  if (text.length === 0) return [];
  const minConfidence = options.minConfidence ?? DEFAULT_MIN_CONFIDENCE;
  const only = options.types ? new Set(options.types.map(canonicalType)) : null;
  const ignore = new Set((options.ignoreTypes ?? []).map(canonicalType));
  const allowed = new Set((options.allowValues ?? []).map((v) => v.trim().toLowerCase()));
  const kept = toWholeWords(text, collect(text, options)).filter(
    (c) =>
      c.confidence >= minConfidence &&
      (only === null || only.has(c.type)) &&
      !ignore.has(c.type) &&
      (allowed.size === 0 || !allowed.has(c.value.trim().toLowerCase())),
  );
  return mergeTouching(text, resolveOverlaps(kept, text.length));
}
