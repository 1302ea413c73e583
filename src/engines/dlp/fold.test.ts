import assert from 'node:assert/strict';
import { test } from 'node:test';
import { roundTrip } from '../../../eval/dlp/roundtrip.js';
import { createTokenMap, detectEntities, rehydrate, tokenize } from './index.js';
import { foldForDetection } from './fold.js';

// The same characters in another script: each ASCII digit (and, full width, each letter and sign) replaced.
const fullWidth = (s: string): string =>
  s.replace(/[!-~]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0xfee0)).replace(/ /g, '\u3000');
const digitsFrom = (zero: number) => (s: string) =>
  s.replace(/[0-9]/g, (d) => String.fromCodePoint(zero + d.charCodeAt(0) - 48));
const arabicIndic = digitsFrom(0x0660);
const persian = digitsFrom(0x06f0);
const devanagari = digitsFrom(0x0966);
const mathBold = digitsFrom(0x1d7ce);
const monospace = digitsFrom(0x1d7f6);

const SCRIPTS: Array<[string, (s: string) => string]> = [
  ['full-width digits', digitsFrom(0xff10)],
  ['full-width digits, letters and spaces', fullWidth],
  ['Arabic-Indic', arabicIndic],
  ['Persian', persian],
  ['Devanagari', devanagari],
  ['mathematical bold', mathBold],
  ['mathematical monospace', monospace],
];

function found(text: string): Array<[string, string]> {
  return detectEntities(text).map((e) => {
    assert.equal(text.slice(e.start, e.end), e.value, 'the offsets point at the original characters');
    return [e.type, e.value];
  });
}

// Each value with a word before it; `[type, value]` is what must be found, spelled as written.
const VALUES: Array<[string, string, string]> = [
  ['CARD', 'Card ', '4111 1111 1111 1111'],
  ['CARD', 'Paid with ', '5555-5555-5555-4444'],
  ['IBAN', 'IBAN ', 'CH93 0076 2011 6238 5295 7'],
  ['IBAN', 'Konto ', 'DE89370400440532013000'],
  ['PHONE', 'Tel. ', '+41 44 668 18 00'],
  ['PHONE', 'Call me on ', '(415) 555-2671'],
  ['SSN', 'SSN ', '536-22-1234'],
  ['AVS', 'AHV-Nr. ', '756.1234.5678.97'],
];

test('numbers written in other scripts are found, at the offsets of the characters as written', () => {
  for (const [script, spell] of SCRIPTS) {
    for (const [type, before, value] of VALUES) {
      // Only the value is respelled; the word before it stays ASCII.
      const written = spell(value);
      const text = `${before}${written}, thanks.`;
      assert.deepEqual(found(text), [[type, written]], `${script}: ${text}`);
    }
  }
});

test('checksums are computed on the mapped digits', () => {
  for (const [script, spell] of SCRIPTS) {
    // One digit off: Luhn and mod-97 fail as in ASCII.
    for (const text of [
      'Card 4111 1111 1111 1112',
      'IBAN CH93 0076 2011 6238 5295 8',
      'AHV-Nr. 756.1234.5678.98',
    ]) {
      const types = found(spell(text)).map(([t]) => t);
      assert.ok(
        !types.includes('CARD') && !types.includes('IBAN') && !types.includes('AVS'),
        `${script}: ${spell(text)}`,
      );
    }
  }
});

test('full-width letters in an IBAN country code, and a wholly full-width sentence', () => {
  const iban = fullWidth('CH93 0076 2011 6238 5295 7');
  assert.deepEqual(found(`IBAN ${iban} bitte`), [['IBAN', iban]]);
  const sentence = fullWidth('Card 4111-1111-1111-1111 and ann@example.com');
  assert.deepEqual(
    found(sentence).map(([t]) => t),
    ['CARD', 'EMAIL'],
  );
});

test('a mix of ASCII and folded digits is one number, as typed when an input method is switched midway', () => {
  assert.deepEqual(found('Card 4111 １１１１ 1111 ١١١١ ok'), [['CARD', '4111 １１１１ 1111 ١١١١']]);
});

test('folding keeps offsets; only mathematical digits (two UTF-16 units) need a map back', () => {
  assert.deepEqual(foldForDetection('plain text 4111'), { text: 'plain text 4111', toOriginal: null });
  assert.deepEqual(foldForDetection('x ４٤۴४ ＡＢ\u3000!'), { text: 'x 4444 AB !', toOriginal: null });
  const folded = foldForDetection('a 𝟒𝟏 b');
  assert.equal(folded.text, 'a 41 b');
  assert.deepEqual([...folded.toOriginal!], [0, 1, 2, 4, 6, 7, 8]);
  // A lone lead surrogate or another mathematical letter stays as it is.
  assert.equal(foldForDetection('𝐀 \uD835').text, '𝐀 \uD835');
});

test('numbers in other scripts are tokenized whole and rehydrated to the characters as written', () => {
  const key = new TextEncoder().encode('fold-key');
  const text = [
    `Karte ${fullWidth('4111 1111 1111 1111')}, IBAN ${fullWidth('CH93 0076 2011 6238 5295 7')},`,
    `هاتف ${arabicIndic('+41 44 668 18 00')}, شماره ${persian('+41 44 668 18 00')},`,
    `card ${mathBold('5555 5555 5555 4444')} and SSN ${devanagari('536-22-1234')}.`,
  ].join('\n');
  const map = createTokenMap();
  const t = tokenize(text, map, key);
  assert.deepEqual(
    t.tokens.map((x) => x.type),
    ['CARD', 'IBAN', 'PHONE', 'PHONE', 'CARD', 'SSN'],
  );
  // No digit of any script is left in clear.
  assert.ok(!/\p{Nd}/u.test(t.tokenized.replace(/TKN_[A-Z_]+_[0-9a-z]+/g, '')), t.tokenized);
  // The Arabic-Indic and the Persian spelling of one number are two values: each comes back as written.
  assert.notEqual(t.tokens[2]!.token, t.tokens[3]!.token);
  assert.equal(rehydrate(t.tokenized, map).text, text);
  // Whole, streamed in random chunks and streamed inside a JSON string (tool-call arguments).
  assert.deepEqual(roundTrip([text]), { texts: 1, whole: 1, streamed: 1, streamedJson: 1, tokens: 6 });
});

test('an organization pattern reads the text as written', () => {
  const customPatterns = [{ name: 'EMPLOYEE_ID', domain: 'CORPORATE', regex: 'EMP-[0-9]{6}' }];
  assert.deepEqual(
    detectEntities('EMP-123456 and EMP-１２３４５６', { customPatterns }).map((e) => e.value),
    ['EMP-123456'],
  );
});

test('two different numbers in another script get two tokens and each comes back', () => {
  const key = new TextEncoder().encode('fold-key');
  const text = `Tel ${arabicIndic('+41 44 668 18 00')} oder ${arabicIndic('+41 44 668 18 01')}`;
  const map = createTokenMap();
  const t = tokenize(text, map, key);
  assert.equal(t.tokens.length, 2);
  assert.notEqual(t.tokens[0]!.token, t.tokens[1]!.token);
  assert.equal(rehydrate(t.tokenized, map).text, text);
});

// French and Swiss typography groups digits with no-break (U+00A0), narrow no-break (U+202F, what
// Intl.NumberFormat('fr-FR') prints), thin (U+2009) and figure (U+2007) spaces.
const GROUP_SPACES: Array<[string, string]> = [
  ['no-break space', '\u00a0'],
  ['narrow no-break space', '\u202f'],
  ['thin space', '\u2009'],
  ['figure space', '\u2007'],
];

// Texts whose findings with ordinary spaces are known; every ordinary space is then replaced.
const SPACED_TEXTS: Array<[string, Array<[string, string]>]> = [
  ['Appelez-moi au 06 12 34 56 78 demain.', [['PHONE', '06 12 34 56 78']]],
  ['Tel. +41 44 668 18 00 bitte.', [['PHONE', '+41 44 668 18 00']]],
  ['Ma carte 4111 1111 1111 1111 expire.', [['CARD', '4111 1111 1111 1111']]],
  ['Amex 3782 822463 10005 ok.', [['CARD', '3782 822463 10005']]],
  ['Mon NIR est 1 84 12 75 123 456 40 merci.', [['NIR', '1 84 12 75 123 456 40']]],
  ['AHV-Nr. 756 1234 5678 97 danke.', [['AVS', '756 1234 5678 97']]],
  ['My SSN is 536 22 1234 thanks.', [['SSN', '536 22 1234']]],
  ['NI number AB 12 34 56 C thanks.', [['NINO', 'AB 12 34 56 C']]],
  ['Steuer-ID 12 345 678 903 danke.', [['DE_TAX_ID', '12 345 678 903']]],
  ['IBAN CH93 0076 2011 6238 5295 7 svp.', [['IBAN', 'CH93 0076 2011 6238 5295 7']]],
  ['Adresse: Bahnhofstrasse 1, 8001 Zürich.', [['ADDRESS', 'Bahnhofstrasse 1, 8001 Zürich']]],
  ['Send it to 10 Downing Street, London SW1A 2AA please.', [['ADDRESS', '10 Downing Street, London SW1A 2AA']]],
];

test('no-break, narrow no-break, thin and figure spaces group digits for every number type, as spaces do', () => {
  for (const [text, expected] of SPACED_TEXTS) {
    assert.deepEqual(found(text), expected, text);
    for (const [name, space] of GROUP_SPACES) {
      const written = text.replaceAll(' ', space);
      // Same findings at the same offsets; each value is the characters as written, spaces included.
      assert.deepEqual(
        found(written),
        expected.map(([type, value]) => [type, value.replaceAll(' ', space)]),
        `${name}: ${JSON.stringify(written)}`,
      );
    }
  }
});

test('amounts and counts grouped with these spaces stay untouched, as with spaces', () => {
  const amounts = [
    `Le total est de ${new Intl.NumberFormat('fr-FR').format(1234567.89)} € pour ${new Intl.NumberFormat('fr-FR').format(12500)} clients.`,
    'Umsatz 2023: CHF 12\u2009345\u2009678.90, Mitarbeitende 1\u00a0250.',
    'Population : 67\u202f390\u202f000 habitants, superficie 643\u202f801 km².',
  ];
  for (const text of amounts) assert.deepEqual(found(text), [], text);
  assert.ok(/\u202f/.test(amounts[0]!), 'Intl prints a narrow no-break space');
});

test('values grouped with these spaces are tokenized whole and rehydrated byte for byte', () => {
  const key = new TextEncoder().encode('fold-key');
  for (const [name, space] of GROUP_SPACES) {
    const text = [
      'Appelez le 06 12 34 56 78 ou le +41 44 668 18 00,',
      'carte 4111 1111 1111 1111, NIR 1 84 12 75 123 456 40, AHV-Nr. 756 1234 5678 97.',
    ]
      .join('\n')
      .replaceAll(' ', space);
    const map = createTokenMap();
    const t = tokenize(text, map, key);
    assert.deepEqual(
      t.tokens.map((x) => x.type),
      ['PHONE', 'PHONE', 'CARD', 'NIR', 'AVS'],
      name,
    );
    assert.ok(!/\d/.test(t.tokenized.replace(/TKN_[A-Z_]+_[0-9a-z]+/g, '')), `${name}: ${t.tokenized}`);
    assert.equal(rehydrate(t.tokenized, map).text, text, name);
    assert.deepEqual(roundTrip([text]), { texts: 1, whole: 1, streamed: 1, streamedJson: 1, tokens: 5 });
  }
});
