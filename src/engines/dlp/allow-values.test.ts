import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTokenMap, detectEntities, tokenize } from './index.js';

const fullWidth = (s: string): string =>
  s.replace(/[!-~]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0xfee0)).replace(/ /g, '\u3000');

function kept(text: string, allowValues: string[]): string[] {
  return detectEntities(text, { allowValues }).map((e) => `${e.type}:${e.value}`);
}

// Each case: a text whose finding is `type`, and the allowed value spelled otherwise.
const SPELLINGS: Array<[string, string, string[]]> = [
  [
    'PHONE',
    'Rufen Sie uns unter +41446681800 an.',
    ['+41 44 668 18 00', '0041 44 668 18 00', '+41 (0)44 668 18 00'],
  ],
  [
    'PHONE',
    'Rufen Sie uns unter +41 44 668 18 00 an.',
    ['+41446681800', '+41.44.668.18.00', fullWidth('+41 44 668 18 00')],
  ],
  [
    'PHONE',
    'Appelez le 06\u202f12\u202f34\u202f56\u202f78 svp.',
    ['0612345678', '06 12 34 56 78', '06-12-34-56-78'],
  ],
  [
    'CARD',
    'Testkarte 4111 1111 1111 1111 bitte.',
    ['4111111111111111', '4111-1111-1111-1111', '４１１１ １１１１ １１１１ １１１１'],
  ],
  [
    'IBAN',
    'Spenden an CH93 0076 2011 6238 5295 7 bitte.',
    ['CH9300762011623852957', 'ch93-0076-2011-6238-5295-7'],
  ],
  ['AVS', 'AHV-Nr. 756.1234.5678.97 der Firma.', ['7561234567897', '756 1234 5678 97']],
  ['EMAIL', 'Write to Support@Acme.com today.', ['support@acme.com', fullWidth('support@acme.com')]],
  ['EMAIL', `Write to ${fullWidth('support@acme.com')} today.`, ['support@acme.com', 'SUPPORT@ACME.COM']],
  ['NAME', 'Bonjour Émile Zola, merci.', ['Emile Zola', 'ÉMILE ZOLA', 'emile  zola', 'Emile\u00a0Zola']],
  ['NAME', 'Dear Mr. Sean O’Brien, thanks.', ["Sean O'Brien"]],
];

test('an allowed value is left in clear in any spelling of case, accents, width, spaces or separators', () => {
  for (const [type, text, allowed] of SPELLINGS) {
    assert.ok(
      kept(text, []).some((f) => f.startsWith(`${type}:`)),
      `found without an allow list: ${text}`,
    );
    for (const value of allowed) {
      assert.ok(
        !kept(text, [value]).some((f) => f.startsWith(`${type}:`)),
        `${JSON.stringify(value)} allows the ${type} of ${JSON.stringify(text)}`,
      );
    }
  }
});

test('other values stay tokenized: another number, a near name, a number inside words', () => {
  // One digit off, or a different number of the same digits' prefix.
  assert.deepEqual(kept('Tel. +41 44 668 18 01', ['+41 44 668 18 00']), ['PHONE:+41 44 668 18 01']);
  assert.deepEqual(kept('card 5555 5555 5555 4444', ['4111 1111 1111 1111']), ['CARD:5555 5555 5555 4444']);
  assert.deepEqual(kept('Bonjour Émilie Zola, merci.', ['Emile Zola']), ['NAME:Émilie Zola']);
  // A listed value counts as a number only when it is written as one.
  assert.deepEqual(kept('CVV: 123', ['Room 123']), ['CVV:123']);
  assert.deepEqual(kept('Tel. +41 44 668 18 00', ['Hotline +41 44 668 18 00 (Zentrale)']), [
    'PHONE:+41 44 668 18 00',
  ]);
  // National and international spellings are different keys (a listed value carries no region).
  assert.deepEqual(kept('Tel. 044 668 18 00', ['+41 44 668 18 00']), ['PHONE:044 668 18 00']);
  // Secrets keep the comparison they had: trimmed, case-insensitive, nothing looser.
  assert.deepEqual(kept('password: Winter-2024', ['winter 2024']), ['PASSWORD:Winter-2024']);
  assert.deepEqual(kept('password: Winter-2024', [' winter-2024 ']), []);
});

test('tokenize leaves every spelling of an allowed value in clear and still tokenizes the rest', () => {
  const key = new TextEncoder().encode('allow-key');
  const text = 'Hotline +41446681800 oder +41 44 668 18 00, Kundin Anna Weber: +41 79 123 45 67.';
  const t = tokenize(text, createTokenMap(), key, { allowValues: ['+41 44 668 18 00'] });
  assert.deepEqual(
    t.tokens.map((x) => x.type),
    ['NAME', 'PHONE'],
  );
  assert.ok(t.tokenized.includes('+41446681800 oder +41 44 668 18 00'), t.tokenized);
});

test('an allowed value keeps its characters: no weaker finding over it tokenizes part of it', () => {
  // Without the allow list the phone and the e-mail address win over "00, mail SUPPORT", a weaker address.
  const text = 'Hotline 0041 44 668 18 00, mail SUPPORT@PARAPET.EXAMPLE';
  assert.deepEqual(kept(text, ['0041 44 668 18 00', 'SUPPORT@PARAPET.EXAMPLE']), []);
  assert.deepEqual(kept(text, ['0041 44 668 18 00']), ['EMAIL:SUPPORT@PARAPET.EXAMPLE']);
});

test('an allowed number allows only findings of the type it is itself found as', () => {
  // The same digits as another type of number stay tokenized.
  assert.deepEqual(kept('Steuer-ID 65929970489', ['+65 929 970 489']), ['DE_TAX_ID:65929970489']);
  assert.deepEqual(kept('AHV 756.1234.5678.97', ['+756 1234 5678 97']), ['AVS:756.1234.5678.97']);
  // Listed as the type it is, it is allowed in any spelling.
  assert.deepEqual(kept('Steuer-ID 65929970489', ['65929970489']), []);
  assert.deepEqual(kept('AHV 756.1234.5678.97', ['756 1234 5678 97']), []);
  // A number found as nothing keeps the rule of its spelling: a bare one allows every number type.
  assert.deepEqual(kept('CVV: 123', ['123']), []);
});
