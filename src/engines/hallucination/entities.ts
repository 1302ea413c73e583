import { isSlotWord } from './slot-words.js';
import { isStopword, type Token } from './text.js';

const WEEKDAYS = new Set(
  'monday tuesday wednesday thursday friday saturday sunday lundi mardi mercredi jeudi vendredi samedi dimanche montag dienstag mittwoch donnerstag freitag samstag sonntag'.split(
    ' ',
  ),
);

export const GERMAN_DETERMINERS = new Set(
  'der die das den dem des ein eine einen einem einer eines kein keine keinen keinem keiner dieser diese dieses diesem diesen jede jeder jedes alle seine ihre unsere sein ihr'.split(
    ' ',
  ),
);
// German capitalises every noun, so a capital alone does not mark a name there; common-noun endings rule some out.
const GERMAN_NOUN_ENDING = /(ung|heit|keit|schaft|tion|tät|tat|ismus|nis|ment|chen|lein|ei|ur|ik|er|en|e)$/u;

/**
 * Whether token i looks like part of a name: capitalised, not a stopword, and not the first word of the
 * text unless the next word is capitalised too (multi-word names). German needs extra evidence.
 */
export function isNameLike(tokens: Token[], i: number, lang: string, initialOk = false): boolean {
  const t = tokens[i];
  if (!t?.capital || isStopword(t.norm) || t.norm.length < 2) return false;
  if (isSlotWord(t.norm) || WEEKDAYS.has(t.norm)) return false;
  const next = tokens[i + 1];
  const prev = tokens[i - 1];
  const inName = (next?.capital && !isStopword(next.norm)) || (prev?.capital && !isStopword(prev.norm));
  if (/\p{Lu}/u.test(t.raw.slice(1))) return true;
  if (lang === 'de') {
    if (prev && GERMAN_DETERMINERS.has(prev.norm) && !inName) return false;
    if (GERMAN_NOUN_ENDING.test(t.norm) && !inName) return false;
    return i > 0 || initialOk || Boolean(inName);
  }
  return i > 0 || initialOk || Boolean(inName);
}

export function nameIndexes(tokens: Token[], lang: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < tokens.length; i++) if (isNameLike(tokens, i, lang)) out.push(i);
  return out;
}
