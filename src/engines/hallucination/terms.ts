import { SYNONYMS } from './lexicon.js';
import { isStopword, stem, type Token, tokenize } from './text.js';

const SYNONYM_STEMS: ReadonlyMap<string, string> = new Map([...SYNONYMS].map(([w, head]) => [stem(w), head]));

/** The term a token is indexed and compared under: its synonym group, else its stem. */
export function canonical(t: Token): string {
  return SYNONYMS.get(t.norm) ?? SYNONYM_STEMS.get(t.stem) ?? t.stem;
}

/** Digit strings without separators ("1,250" and "1.250" both give "1250"), so numbers help retrieval. */
export function numberTerms(text: string): string[] {
  return [...text.matchAll(/\d[\d.,\u00a0\u202f]*\d|\d/g)].map((m) => m[0].replace(/\D/g, ''));
}

/** Content terms of a text: canonical non-stopword tokens plus number terms. */
export function contentTerms(text: string): string[] {
  const out: string[] = [];
  for (const t of tokenize(text)) if (!isStopword(t.norm) && t.norm.length > 1) out.push(canonical(t));
  return out.concat(numberTerms(text));
}

/**
 * Two terms match when equal, when one is a prefix of the other (inflection, derivation), or when the
 * longer one ends with the shorter (German compounds: "Hopfengenossenschaft" / "Genossenschaft").
 */
export function termsMatch(a: string, b: string): boolean {
  if (a === b) return true;
  const [s, l] = a.length <= b.length ? [a, b] : [b, a];
  if (s.length < 5) return false;
  if (l.startsWith(s)) return true;
  return s.length >= 6 && l.endsWith(s);
}
