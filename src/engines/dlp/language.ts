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
// What lies between words: splitting on it yields the words without a match object for each.
const NOT_WORD_RE = /\P{L}+/u;
// The first words decide: enough to tell the four apart, and a long text costs no more than a short one.
const MAX_WORDS = 60;

export function guessLanguage(text: string): Language | null {
  const score = [0, 0, 0, 0];
  let n = 0;
  // The limit stops the split early; one piece more for the empty one before a leading separator.
  for (const word of text.split(NOT_WORD_RE, MAX_WORDS + 1)) {
    if (word === '') continue;
    const w = word.toLowerCase();
    for (let i = 0; i < LANGUAGES.length; i++) if (WORDS[LANGUAGES[i]!].has(w)) score[i]!++;
    if (++n >= MAX_WORDS) break;
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
