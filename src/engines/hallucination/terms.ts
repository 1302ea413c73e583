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

/** Affixes longer than this are not indexed: no real word is longer, and the index stays linear in the text. */
const MAX_AFFIX = 40;

/**
 * The terms of a whole source, answering `termsMatch` against all of them in time independent of the
 * source's size: every claim word used to be compared with every word of its source (claim × source, #15).
 * Proper prefixes (from `minPrefix` characters) and suffixes (from 6) of each distinct term are kept in sets.
 */
export class TermIndex {
  private readonly exact = new Set<string>();
  private readonly prefixes = new Set<string>();
  private readonly suffixes = new Set<string>();

  constructor(terms: Iterable<string>, minPrefix = 5) {
    for (const t of terms) {
      if (this.exact.has(t)) continue;
      this.exact.add(t);
      const top = Math.min(t.length - 1, MAX_AFFIX);
      for (let k = minPrefix; k <= top; k++) this.prefixes.add(t.slice(0, k));
      for (let k = 6; k <= top; k++) this.suffixes.add(t.slice(t.length - k));
    }
  }

  /** Whether `termsMatch(w, t)` holds for some term t of the index. */
  matches(w: string): boolean {
    if (this.exact.has(w)) return true;
    if (w.length >= 5 && (this.prefixes.has(w) || this.hasPart(w, 5, (k) => w.slice(0, k)))) return true;
    return w.length >= 6 && (this.suffixes.has(w) || this.hasPart(w, 6, (k) => w.slice(w.length - k)));
  }

  /** Whether `w` itself is a term of the index. */
  hasExact(w: string): boolean {
    return this.exact.has(w);
  }

  /** Whether some term of the index starts with `w` (w itself included). */
  hasPrefix(w: string): boolean {
    return this.exact.has(w) || this.prefixes.has(w);
  }

  private hasPart(w: string, min: number, part: (k: number) => string): boolean {
    const top = Math.min(w.length - 1, MAX_AFFIX);
    for (let k = min; k <= top; k++) if (this.exact.has(part(k))) return true;
    return false;
  }
}
