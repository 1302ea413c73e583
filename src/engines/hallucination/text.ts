// Words repeat a lot across sources; a bounded memo keeps folding off the profile.
const FOLD_CACHE = new Map<string, string>();
const FOLD_CACHE_MAX = 50_000;

// Lower-case and strip diacritics so "Köln"/"koln" and "élevé"/"eleve" compare equal.
export function fold(s: string): string {
  const hit = FOLD_CACHE.get(s);
  if (hit !== undefined) return hit;
  const out = s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/ß/g, 'ss')
    .toLowerCase();
  if (FOLD_CACHE.size >= FOLD_CACHE_MAX) FOLD_CACHE.clear();
  FOLD_CACHE.set(s, out);
  return out;
}

export interface Token {
  raw: string;
  norm: string;
  stem: string;
  start: number;
  capital: boolean;
}

const WORD = /[\p{L}][\p{L}\p{M}]*/gu;

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(WORD)) {
    const raw = m[0];
    const norm = fold(raw);
    out.push({ raw, norm, stem: stem(norm), start: m.index ?? 0, capital: /^\p{Lu}/u.test(raw) });
  }
  return out;
}

// Suffixes of EN/FR/DE inflection, longest first. A light stemmer is enough: tokens are also compared by
// shared prefix, which absorbs most derivation and German compounding.
const SUFFIXES = [
  'ements',
  'ement',
  'ungen',
  'ations',
  'ation',
  'ings',
  'ing',
  'ies',
  'ied',
  'ees',
  'ers',
  'ern',
  'es',
  'ed',
  'en',
  'er',
  'ly',
  'ee',
  'e',
  's',
  'n',
];

export function stem(norm: string): string {
  if (norm.length <= 4) return norm;
  let s = norm;
  for (const suf of SUFFIXES) {
    const min = suf === 'ed' || suf === 'ing' || suf === 's' ? 3 : 4;
    if (s.length - suf.length >= min && s.endsWith(suf)) {
      s = s.slice(0, -suf.length);
      break;
    }
  }
  return s;
}

const STOP_EN =
  "a an the and or but of to in on at by for with from as is are was were be been being has have had do does did this that these those it its it's he she they them his her their we our you your i me my which who whom whose what where when while than then there here so such into onto over under about after before also very can could will would shall should may might must not no nor only own same too just any each other some all most more less few both either neither if because until since per via among between within without up down out off again further once";
const STOP_FR =
  'le la les l un une des du de d et ou mais donc or ni car a à au aux en dans sur sous par pour avec sans ce cet cette ces se sa son ses leur leurs il elle ils elles on nous vous je tu me te lui y qui que qu quoi dont où est sont était étaient été être avoir a ont avait avaient eu fait comme aussi très plus moins pas ne n tout tous toute toutes si lors depuis pendant entre vers chez selon après avant ainsi déjà encore';
const STOP_DE =
  'der die das den dem des ein eine einen einem einer eines und oder aber doch sondern denn zu zum zur im in am an auf aus bei mit nach von vor für über unter um durch gegen ohne ist sind war waren wird werden wurde wurden worden sein hat haben hatte hatten es er sie wir ihr ich man sich sein seine seiner seinen seinem ihre ihren ihrem ihrer dieser diese dieses diesem diesen jener als wie auch sehr noch schon nur so dass daß wenn weil ob seit bis nicht kein keine mehr weniger alle jede jeder jedes dort hier';

export const STOPWORDS: ReadonlySet<string> = new Set(
  [STOP_EN, STOP_FR, STOP_DE].flatMap((s) => s.split(/\s+/).map(fold)),
);

export function isStopword(norm: string): boolean {
  return STOPWORDS.has(norm);
}

const LANG_HINTS: Record<string, string[]> = {
  en: [
    'the',
    'and',
    'is',
    'was',
    'of',
    'in',
    'to',
    'with',
    'it',
    'that',
    'for',
    'has',
    'are',
    'not',
    'by',
    'which',
  ],
  fr: [
    'le',
    'la',
    'les',
    'et',
    'est',
    'des',
    'du',
    'une',
    'dans',
    'pour',
    'qui',
    'pas',
    'sur',
    'au',
    'sont',
    'avec',
  ],
  de: [
    'der',
    'die',
    'das',
    'und',
    'ist',
    'nicht',
    'mit',
    'ein',
    'eine',
    'von',
    'den',
    'im',
    'wurde',
    'auf',
    'für',
    'sich',
  ],
};
const HINT_SETS = Object.entries(LANG_HINTS).map(
  ([lang, words]) => [lang, new Set(words.map(fold))] as const,
);

/** Stopword vote; "und" (undetermined) when no hint word is present. */
export function detectLanguage(text: string): string {
  const counts = new Map<string, number>();
  for (const t of tokenize(text.slice(0, 5000))) {
    for (const [lang, set] of HINT_SETS) if (set.has(t.norm)) counts.set(lang, (counts.get(lang) ?? 0) + 1);
  }
  let best = 'und';
  let bestCount = 0;
  for (const [lang, c] of counts) {
    if (c > bestCount) {
      best = lang;
      bestCount = c;
    }
  }
  return best;
}
