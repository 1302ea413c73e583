// A cheap guess of a text's language among the four the engine serves, from its commonest function words.
// Used to order the phone regions a national number is read in: "020 7946 0958" is a London number in an
// English text, and "01 42 68 53 00" a Paris one in a French text.
export type Language = 'en' | 'fr' | 'de' | 'it';

const WORDS: Record<Language, ReadonlySet<string>> = {
  en: new Set(['the', 'and', 'is', 'of', 'to', 'you', 'my', 'please', 'with', 'for', 'at', 'call', 'me']),
  fr: new Set(['le', 'la', 'les', 'et', 'est', 'de', 'des', 'vous', 'mon', 'pour', 'avec', 'au', 'une']),
  de: new Set([
    'der',
    'die',
    'das',
    'und',
    'ist',
    'sie',
    'mein',
    'meine',
    'mit',
    'für',
    'bitte',
    'ein',
    'ich',
  ]),
  it: new Set(['il', 'lo', 'gli', 'e', 'è', 'di', 'che', 'mio', 'mia', 'per', 'con', 'una', 'sono']),
};
const LANGUAGES: readonly Language[] = ['en', 'fr', 'de', 'it'];
// One look-up per word instead of four: each function word with the bits of the languages that list it.
const LANGUAGES_OF: ReadonlyMap<string, number> = (() => {
  const map = new Map<string, number>();
  LANGUAGES.forEach((language, k) => {
    for (const w of WORDS[language]) map.set(w, (map.get(w) ?? 0) | (1 << k));
  });
  return map;
})();
// A longer word is none of them (lower-casing never shortens a word), and is neither lower-cased nor hashed.
const LONGEST = Math.max(...[...LANGUAGES_OF.keys()].map((w) => w.length));
// The same look-up for words of ASCII letters (nearly all), keyed by the word's lower-case letters packed
// five bits each (at most LONGEST = 6 of them: under 2^30) and read while the word is walked: no slice, no
// lower-casing, no string hashing. The other words take the string look-up above.
function asciiKey(word: string): number {
  let key = 0;
  for (let i = 0; i < word.length; i++) key = key * 32 + (word.charCodeAt(i) - 96);
  return key;
}
const ASCII_LANGUAGES_OF: ReadonlyMap<number, number> = new Map(
  [...LANGUAGES_OF].filter(([w]) => /^[a-z]+$/.test(w)).map(([w, bits]) => [asciiKey(w), bits]),
);
// A word is a run of letters (Unicode category L), read by hand: a regex call per word (or a split on the
// runs of non-letters, as before) costs a fifth of a microsecond each with Unicode classes, 0.01–0.02 ms per
// message, where this loop needs a regex only for the rare non-ASCII character.
const LETTER = /^\p{L}$/u;
// The first words decide: enough to tell the four apart, and a long text costs no more than a short one.
const MAX_WORDS = 60;

/** The length of the letter (one code point) at i, or 0 when the character there is not a letter. */
function letterAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? 1 : 0;
  const cp = text.codePointAt(i)!;
  const width = cp > 0xffff ? 2 : 1;
  return LETTER.test(text.slice(i, i + width)) ? width : 0;
}

export function guessLanguage(text: string): Language | null {
  const score = [0, 0, 0, 0];
  let n = 0;
  let i = 0;
  while (i < text.length && n < MAX_WORDS) {
    let width = letterAt(text, i);
    if (width === 0) {
      i++;
      continue;
    }
    const start = i;
    let ascii = true;
    let key = 0;
    while (width > 0) {
      const c = text.charCodeAt(i);
      if (c < 128) key = key * 32 + ((c | 0x20) - 96);
      else ascii = false;
      i += width;
      width = i < text.length ? letterAt(text, i) : 0;
    }
    n++;
    if (i - start > LONGEST) continue;
    const bits = ascii ? ASCII_LANGUAGES_OF.get(key) : LANGUAGES_OF.get(text.slice(start, i).toLowerCase());
    if (bits === undefined) continue;
    for (let k = 0; k < LANGUAGES.length; k++) if ((bits & (1 << k)) !== 0) score[k]!++;
  }
  let best = -1;
  let bestScore = 0;
  for (let i = 0; i < score.length; i++) {
    if (score[i]! > bestScore) {
      best = i;
      bestScore = score[i]!;
    }
  }
  return best < 0 ? null : LANGUAGES[best]!;
}
