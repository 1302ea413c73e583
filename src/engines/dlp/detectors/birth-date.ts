import type { Candidate } from '../types.js';
import { candidate, contextBefore, wordHint } from './context.js';
import { matchesOf } from '../matches.js';

const MONTHS =
  'jan(?:uary|uar|vier)?|feb(?:ruary|ruar)?|févr(?:ier)?|fevr(?:ier)?|mar(?:ch|s)?|märz|maerz|apr(?:il)?|avr(?:il)?|may|mai|jun(?:e|i)?|juin|jul(?:y|i)?|juil(?:let)?|aug(?:ust)?|août|aout|sep(?:t(?:ember|embre)?)?|oct(?:ober|obre)?|okt(?:ober)?|nov(?:ember|embre)?|dec(?:ember)?|dez(?:ember)?|déc(?:embre)?|gennaio|febbraio|marzo|aprile|maggio|giugno|luglio|agosto|settembre|ottobre|dicembre';
const DATE_RE = new RegExp(
  `\\b(?:\\d{1,2}[./-]\\d{1,2}[./-](?:19|20)?\\d{2}|(?:19|20)\\d{2}-\\d{2}-\\d{2}|\\d{1,2}(?:\\.|er|st|nd|rd|th)? (?:${MONTHS})\\.? (?:19|20)\\d{2}|(?:${MONTHS}) \\d{1,2}(?:st|nd|rd|th)?,? (?:19|20)\\d{2})\\b`,
  'gi',
);
const BIRTH_WORDS =
  'born|birth|dob|d\\.o\\.b|b\\.|née?|naissance|naiss\\.|geboren|geb\\.|geburt|nato|nata|nascita|compleanno|birthday';
const BIRTH_CONTEXT = new RegExp(`(?:${BIRTH_WORDS})\\W{0,3}(?:\\p{L}+\\W{1,3}){0,4}$`, 'iu');
// Dates are common in business text; without any of the words none of them can be a birth date.
const mayMentionBirth = wordHint(BIRTH_WORDS);

export function detectBirthDates(text: string): Candidate[] {
  const out: Candidate[] = [];
  if (!mayMentionBirth(text)) return out;
  for (const m of matchesOf(DATE_RE, text)) {
    if (!contextBefore(text, m.index, BIRTH_CONTEXT, 45)) continue;
    out.push(candidate('BIRTH_DATE', 'PERSONAL', text, m.index, m.index + m[0].length, 0.9, 'birth_date'));
  }
  return out;
}
