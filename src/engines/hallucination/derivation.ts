/**
 * French and German word families: a noun made from a verb and the verb's forms share a root
 * ("Eröffnung" / "eröffnet", "Gründung" / "gegründet", "Herstellung" / "hergestellt", "construction" /
 * "construit", "production" / "produit", "inauguration" / "inauguré"). The stems and prefix matching of
 * terms.ts join few of them (neither word is a prefix of the other), and no French or German lexical
 * resource ships in npm under a permissive licence (docs/hallucination.md), so the roots are made by rule:
 * a German participle loses "ge-" (also after a separable particle: "her-ge-stellt"), then nominal and verb
 * endings are cut. Two roots match when equal or when one begins the other, from MIN_ROOT characters.
 * English keeps WordNet's derivations (wordnet.ts).
 */
import { TermIndex } from './terms.js';

/** Shortest root compared: "leit" (Leitung / leitet) or "plan" would also join "Leiter", "Planet". */
const MIN_ROOT = 5;

// Separable particles a participle's "ge-" follows ("hergestellt", "teilgenommen", "eingeführt").
const PARTICLES = [
  'an',
  'ab',
  'auf',
  'aus',
  'bei',
  'ein',
  'fest',
  'her',
  'hin',
  'mit',
  'nach',
  'vor',
  'weg',
  'zu',
];

// Longest first. "-ierung"/"-iert" keep their "ier" (Finanzierung / finanziert → "finanzier"); "-elt" of a
// verb in "-eln" becomes "l" (entwickelt / Entwicklung → "entwickl").
const GERMAN_ENDINGS: Array<[string, string]> = [
  ['ierungen', 'ier'],
  ['ierung', 'ier'],
  ['ierten', 'ier'],
  ['ierte', 'ier'],
  ['ieren', 'ier'],
  ['iert', 'ier'],
  ['ungen', ''],
  ['ung', ''],
  ['elten', 'l'],
  ['elte', 'l'],
  ['elt', 'l'],
  ['eln', 'l'],
  ['eten', ''],
  ['ete', ''],
  ['et', ''],
  ['ten', ''],
  ['te', ''],
  ['en', ''],
  ['t', ''],
  ['e', ''],
];

const FRENCH_ENDINGS = [
  'issements',
  'issement',
  'ements',
  'ement',
  'ations',
  'ation',
  'itions',
  'ition',
  'tions',
  'tion',
  'ures',
  'ure',
  'ages',
  'age',
  'ire',
  'ir',
  'er',
  'ee',
  'es',
  'e',
  'it',
  'is',
  'i',
];

/** The root of a folded term of a French or German text; the term itself in another language. */
export function derivedRoot(term: string, lang: string): string {
  if (lang === 'de') {
    let t = term;
    if (t.startsWith('ge') && t.endsWith('t') && t.length >= MIN_ROOT + 3) t = t.slice(2);
    else {
      const p = PARTICLES.find((x) => t.startsWith(`${x}ge`) && t.length >= x.length + 2 + MIN_ROOT);
      if (p && (t.endsWith('t') || t.endsWith('en'))) t = p + t.slice(p.length + 2);
    }
    for (const [end, put] of GERMAN_ENDINGS) {
      if (t.endsWith(end) && t.length - end.length + put.length >= MIN_ROOT)
        return t.slice(0, -end.length) + put;
    }
    return t;
  }
  if (lang === 'fr') {
    for (const end of FRENCH_ENDINGS) {
      if (term.endsWith(end) && term.length - end.length >= MIN_ROOT) return term.slice(0, -end.length);
    }
  }
  return term;
}

interface RootIndex {
  index: TermIndex;
}

const INDEXES = new WeakMap<readonly string[], RootIndex>();

/**
 * Whether `term`'s root is the root of one of `terms` or begins one (or the reverse), from MIN_ROOT
 * characters. The roots of a term list are indexed once per list (a unit's terms never change).
 */
export function sharesRoot(term: string, terms: readonly string[], lang: string): boolean {
  if (lang !== 'fr' && lang !== 'de') return false;
  let r = INDEXES.get(terms);
  if (!r) {
    const roots: string[] = [];
    for (const t of terms) {
      const root = derivedRoot(t, lang);
      if (root.length >= MIN_ROOT && !/\d/.test(root)) roots.push(root);
    }
    r = { index: new TermIndex(roots, MIN_ROOT) };
    INDEXES.set(terms, r);
  }
  const root = derivedRoot(term, lang);
  if (root.length < MIN_ROOT) return false;
  if (r.index.hasPrefix(root)) return true;
  for (let k = root.length - 1; k >= MIN_ROOT; k--) if (r.index.hasExact(root.slice(0, k))) return true;
  return false;
}
