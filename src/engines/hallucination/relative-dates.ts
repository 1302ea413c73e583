import { NUMBER_WORDS } from './lexicon.js';
import type { NumberMention } from './numbers.js';
import type { Prepared } from './prepare.js';
import { fold } from './text.js';

// "two years later", "trois ans plus tard", "zwei Jahre später", "the following year", "im Vorjahr" …
const AMOUNT = '(\\d{1,3}|[\\p{L}]+)';
const LATER = new RegExp(
  `\\b${AMOUNT}\\s+(?:years?|ans|années|jahre)\\s+(later|after(?:wards)?|plus tard|après|später|danach)`,
  'giu',
);
const EARLIER = new RegExp(
  `\\b${AMOUNT}\\s+(?:years?|ans|années|jahre)\\s+(earlier|before|previously|plus tôt|auparavant|avant|zuvor|früher|vorher)`,
  'giu',
);
const NEXT_YEAR =
  /\b(?:the following year|the next year|a year later|l'année suivante|l’année suivante|un an plus tard|im folgenden jahr|ein jahr später|im jahr darauf)\b/giu;
const PREVIOUS_YEAR =
  /\b(?:the previous year|the year before|a year earlier|l'année précédente|l’année précédente|un an plus tôt|im vorjahr|ein jahr zuvor|im jahr zuvor)\b/giu;

function amount(word: string): number | undefined {
  if (/^\d+$/.test(word)) return Number(word);
  return NUMBER_WORDS.get(fold(word));
}

function offsets(text: string): Array<{ delta: number; start: number }> {
  const out: Array<{ delta: number; start: number }> = [];
  for (const m of text.matchAll(LATER)) {
    const n = amount(m[1]!);
    if (n !== undefined) out.push({ delta: n, start: m.index ?? 0 });
  }
  for (const m of text.matchAll(EARLIER)) {
    const n = amount(m[1]!);
    if (n !== undefined) out.push({ delta: -n, start: m.index ?? 0 });
  }
  for (const m of text.matchAll(NEXT_YEAR)) out.push({ delta: 1, start: m.index ?? 0 });
  for (const m of text.matchAll(PREVIOUS_YEAR)) out.push({ delta: -1, start: m.index ?? 0 });
  return out;
}

function yearsOf(p: Prepared): number[] {
  const years = p.numbers.filter((n) => n.kind === 'year').map((n) => n.value);
  for (const d of p.dates) if (d.y !== undefined) years.push(d.y);
  return years;
}

/**
 * Resolves relative years in a source ("founded in 2011 … two years later") against the last year stated
 * before them in the same source, and adds the absolute year to the sentence, so a claim that says "in 2013"
 * finds it. Sentences are modified in place; call once per source, in order.
 */
export function resolveRelativeYears(sentences: Prepared[]): void {
  let last: number | undefined;
  for (const s of sentences) {
    const found = offsets(s.text);
    if (found.length > 0 && last !== undefined) {
      for (const { delta, start } of found) {
        const value = last + delta;
        const mention: NumberMention = {
          value,
          dim: 'year',
          kind: 'year',
          approx: false,
          bound: null,
          raw: String(value),
          unitFactor: 1,
          start,
        };
        s.numbers.push(mention);
        s.terms.push(String(value));
      }
    }
    const years = yearsOf(s);
    if (years.length > 0) last = years[years.length - 1];
  }
}
