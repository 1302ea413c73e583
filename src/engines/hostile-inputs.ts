/**
 * Adversarial text generators shared by the engines' linearity tests and `npm run bench:hostile`. Each one
 * repeats a short unit up to the asked length: the shapes that turned scanning loops and regular expressions
 * quadratic in the past (runs of one character, of each punctuation and digit class, alternating pairs,
 * homoglyphs, nested brackets) and the inputs reported in issue #15. Pure, so the bench and the tests build
 * byte-identical texts.
 */
export interface HostileInput {
  name: string;
  /** Text of exactly `length` UTF-16 code units (a unit cut in half at the end is fine for a scanner). */
  make(length: number): string;
}

const repeat = (unit: string) => (length: number) =>
  unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

const runs = (label: string, units: string[]): HostileInput[] =>
  units.map((u) => ({ name: `${label} ${JSON.stringify(u)}`, make: repeat(u) }));

/** Inputs named by the issue: they took 40–110 s at 1 MB through the hallucination or DLP routes. */
export const REPORTED: HostileInput[] = runs('reported', [
  '1 ',
  '.',
  '12-',
  '+4',
  '4111 1111 ',
  '@',
  'a@',
  '@.',
]);

const PUNCTUATION = [...'.,;:!?-_/\\\'"`~|*#=+&%$€£^<>()[]{}'];
const DIGITS_AND_NUMBERS = ['0', '9', '1.', '1,', '1 ', '0x', '12:', '1-', '+1', '1/', '€1'];
const WHITESPACE = [' ', '\n', '\t', '\n\n', '\u00a0', '\u200b'];
const LETTERS = ['a', 'A', 'é', 'ab', 'a ', 'A.', 'Ab ', 'aa aa '];
const PAIRS = [
  'a.',
  'a,',
  '.a',
  '1a',
  'a1',
  'a-',
  'A-',
  '. ',
  ', ',
  '@a',
  'a:',
  'a=',
  '/a',
  '%2',
  '&#',
  '\\u',
];
// Cyrillic, Greek and full-width look-alikes, and letters hidden by zero-width joiners or tag characters.
const HOMOGLYPHS = ['іgnоrе ', 'ΙGΝΟRΕ ', 'ｉｇｎｏｒｅ ', 'i\u200dg\u200dn ', '\u{e0069}\u{e0067}', 'ℹ️'];
const NESTED = ['(', '[', '{', '<', '({[<', '"(', '<a>', '[[', '{{', '<|', '```'];
const WORDS = [
  'ignore ',
  'ignore previous ',
  'Mr. ',
  'Dr. A. ',
  'Jean Dupont ',
  'and ',
  ', which ',
  'the the ',
  'e.g. ',
  'IBAN ',
  'AKIA',
  'sk-',
  'base64 ',
  'QUJD',
  '%41',
  '3. März ',
];

/** Every generator: a property test feeds each of them to its engine at two sizes. */
export const HOSTILE_INPUTS: HostileInput[] = [
  ...REPORTED,
  ...runs('punctuation', PUNCTUATION),
  ...runs('digits', DIGITS_AND_NUMBERS),
  ...runs('space', WHITESPACE),
  ...runs('letters', LETTERS),
  ...runs('pair', PAIRS),
  ...runs('homoglyph', HOMOGLYPHS),
  ...runs('nested', NESTED),
  ...runs('words', WORDS),
  {
    name: 'balanced brackets',
    make: (n) => {
      const half = Math.floor(n / 2);
      return '('.repeat(half) + ')'.repeat(n - half);
    },
  },
  {
    name: 'one long word then prose',
    make: (n) =>
      'x'.repeat(Math.floor(n / 2)) + repeat('Ignore previous instructions. ')(n - Math.floor(n / 2)),
  },
];

/**
 * The generators in `of` shards, every one in exactly one (by position), so that a slow property test can
 * be split across test files that the runner executes in parallel and still cover them all.
 */
export function hostileShard(
  index: number,
  of: number,
  from: readonly HostileInput[] = HOSTILE_INPUTS,
): HostileInput[] {
  return from.filter((_, i) => i % of === index);
}

/** The limits of a claim check, as the hallucination engine exports them. */
export interface CheckLimits {
  maxClaimChars: number;
  maxSources: number;
  maxSourceChars: number;
}

/**
 * A claim check of n hostile characters: a claim of a tenth of them (at most the claim limit) and sources
 * of the rest, each at most the source limit, so that claim × source growth shows as a ratio of 100.
 */
export function hostileCheck(
  make: HostileInput['make'],
  n: number,
  limits: CheckLimits,
): { claim: string; sources: string[] } {
  const claimChars = Math.min(limits.maxClaimChars, Math.floor(n / 10));
  const sources: string[] = [];
  for (let rest = n - claimChars; rest > 0 && sources.length < limits.maxSources; ) {
    const size = Math.min(limits.maxSourceChars, rest);
    sources.push(make(size));
    rest -= size;
  }
  return { claim: make(claimChars), sources };
}
