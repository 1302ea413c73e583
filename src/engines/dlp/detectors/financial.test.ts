import assert from 'node:assert/strict';
import { test } from 'node:test';
import { roundTrip } from '../../../../eval/dlp/roundtrip.js';
import { createTokenMap, detectEntities, rehydrate, tokenize } from '../index.js';
import { DOTTED_CARD_RE, detectCards } from './financial.js';

function cards(text: string): string[] {
  return detectEntities(text)
    .filter((e) => e.type === 'CARD')
    .map((e) => `${e.value}:${e.confidence}`);
}

const key = new TextEncoder().encode('trial-spellings-key');

test('a card number grouped with dots is a card, as with spaces or hyphens', () => {
  assert.deepEqual(cards('card 4111.1111.1111.1111 thanks'), ['4111.1111.1111.1111:0.99']);
  assert.deepEqual(cards('Paid with 5555.5555.5555.4444 yesterday.'), ['5555.5555.5555.4444:0.95']);
  // Amex 4-6-5 and a sentence's full stop right after the number.
  assert.deepEqual(cards('Amex: 3782.822463.10005.'), ['3782.822463.10005:0.99']);
  assert.deepEqual(cards('Nr.4111.1111.1111.1111'), ['4111.1111.1111.1111:0.95']);
  // Luhn still decides, and the brand's ranges.
  assert.deepEqual(cards('card 4111.1111.1111.1112'), []);
  assert.deepEqual(cards('card 9111.1111.1111.1115'), []);
});

test('dotted numbers that are not cards stay untouched', () => {
  for (const text of [
    'Upgrade to version 10.0.19045.3693 first.',
    'Released 2024.11.28, the meeting is on 28.11.2024 at 14.30.',
    'The server 192.168.100.201 and 10.41.111.111 answer.',
    'OID 1.3.6.1.4.1.311.21.20 names the template.',
    'pi is 3.14159265358979 and the ratio 4111.111111111111',
    'Total 1.234.567.890.123 units, 4.111.111.111.111.111 in stock.',
    // Card digits inside a longer dotted run or a dotted run glued to letters are a version or an id.
    'build 10.4111.1111.1111.1111 and v4111.1111.1111.1111 and 4111.1111.1111.1111a',
    'code 4111.1111.1111.1111.5 shipped',
    // One separator throughout: a mix is no card grouping.
    'ref 4111.1111-1111.1111 and 4111.1111 1111.1111',
    // A comma between digits makes the run part of a larger number.
    'balance 4111.1111.1111.1111,25 and 1,4111.1111.1111.1111',
  ]) {
    assert.deepEqual(cards(text), [], text);
  }
});

test('a bare card number followed by decimals is found as before the dotted form', () => {
  assert.deepEqual(cards('charged 4111111111111111.00 today'), ['4111111111111111:0.6']);
});

test('a dotted card number round-trips through tokenize and rehydrate, with its security code', () => {
  const text = 'Visa 4111.1111.1111.1111 exp 12/27 CVV 123, then Amex 3782.822463.10005.';
  const map = createTokenMap();
  const t = tokenize(text, map, key);
  assert.ok(!/4111|3782|10005/.test(t.tokenized), t.tokenized);
  assert.deepEqual(
    t.tokens.map((x) => x.type),
    ['CARD', 'CVV', 'CARD'],
  );
  assert.equal(rehydrate(t.tokenized, map).text, text);
});

test('the dotted-card scan never starts right after a digit (what keeps it linear)', () => {
  // A scan that may start anywhere in a run of digits reads to the run's end from each position and
  // backtracks: the square of the run's length, invisible to the linearity meter (it counts JavaScript, not
  // the regular expression engine's steps). Started right after a digit, the expression must fail at once.
  for (const text of ['x 4111.1111.1111.1111 y', `x ${'7'.repeat(50)}.1.2 y`, `x ${'1'.repeat(200)} y`]) {
    for (let from = 1; from < text.length; from++) {
      if (!/\d/.test(text[from - 1] as string)) continue;
      const re = new RegExp(DOTTED_CARD_RE.source, 'y');
      re.lastIndex = from;
      assert.equal(re.exec(text), null, `a match starting at ${from} inside ${JSON.stringify(text)}`);
    }
  }
  // The same findings as before on a long run of digits (none) and on the card itself.
  assert.deepEqual(detectCards('1'.repeat(20_000)), []);
  assert.equal(detectCards('Card 4111.1111.1111.1111, thanks').length, 1);
});

function ibans(text: string): string[] {
  return detectEntities(text).map((e) => `${e.type}:${e.value}`);
}

test('an IBAN grouped with dots, hyphens or no-break and thin spaces is one IBAN, never split', () => {
  for (const sep of ['.', '-', '\u00a0', '\u202f', '\u2009']) {
    const iban = ['CH93', '0076', '2011', '6238', '5295', '7'].join(sep);
    assert.deepEqual(ibans(`IBAN: ${iban}, merci.`), [`IBAN:${iban}`], JSON.stringify(iban));
    assert.deepEqual(ibans(`Konto ${iban}`), [`IBAN:${iban}`], JSON.stringify(iban));
    const gb = ['GB82', 'WEST', '1234', '5698', '7654', '32'].join(sep);
    assert.deepEqual(ibans(`pay to ${gb}.`), [`IBAN:${gb}`], JSON.stringify(gb));
  }
  assert.deepEqual(ibans('iban de89-3704-0044-0532-0130-00'), ['IBAN:de89-3704-0044-0532-0130-00']);
});

test('separated IBAN look-alikes stay untouched', () => {
  for (const text of [
    // Checksum off by one digit.
    'IBAN CH93.0076.2011.6238.5295.8 and CH93-0076-2011-6238-5295-8',
    // Mixed separators are no grouping of one number.
    'ref CH93.0076-2011.6238.5295.7 and CH93 0076.2011.6238.5295.7',
    // A longer id that continues with the same separator.
    'ticket CH93-0076-2011-6238-5295-7-01 and CH93.0076.2011.6238.5295.7.2',
  ]) {
    assert.deepEqual(
      ibans(text).filter((f) => f.startsWith('IBAN')),
      [],
      text,
    );
  }
});

test('an id with hyphens does not swallow the IBAN after it', () => {
  assert.deepEqual(ibans('id 1ddfd00f-cd20-4c1b-a434-86fa9ba5ddfd GB82 WEST 1234 5698 7654 32'), [
    'IBAN:GB82 WEST 1234 5698 7654 32',
  ]);
});

test('a separated IBAN round-trips through tokenize and rehydrate, streamed too', () => {
  const text =
    'IBAN CH93.0076.2011.6238.5295.7, alt DE89-3704-0044-0532-0130-00, PDF FR76\u00a03000\u00a06000\u00a00112\u00a03456\u00a07890\u00a0189.';
  // Three different accounts: one account in two spellings shares a token and comes back in the first.
  const map = createTokenMap();
  const t = tokenize(text, map, key);
  assert.deepEqual(
    t.tokens.map((x) => x.type),
    ['IBAN', 'IBAN', 'IBAN'],
  );
  assert.ok(!/0076|3704|3000/.test(t.tokenized), t.tokenized);
  assert.equal(rehydrate(t.tokenized, map).text, text);
  // Streamed in random chunks and inside a JSON string (tool-call arguments) too.
  assert.deepEqual(roundTrip([text]), { texts: 1, whole: 1, streamed: 1, streamedJson: 1, tokens: 3 });
});

test('two IBANs one after the other are both found', () => {
  // The pattern's run for the first reached into the second, which passed in clear (the round-trip fuzz
  // holds such pairs: "…1062 FR76 2657…", "…0750 9\u00a0DE45…").
  for (const sep of [' ', '\u00a0', ', ']) {
    const text = `IBANs AT61 1904 3002 3457 3201${sep}CH93 0076 2011 6238 5295 7${sep}DE89370400440532013000`;
    assert.deepEqual(ibans(text), [
      'IBAN:AT61 1904 3002 3457 3201',
      'IBAN:CH93 0076 2011 6238 5295 7',
      'IBAN:DE89370400440532013000',
    ]);
  }
});

test('a grouped card right before another number after a space is still a card', () => {
  for (const space of [' ', '\u00a0', '\u2009']) {
    assert.deepEqual(cards(`carte 4111 1111 1111 1111${space}81 rue du Lac`), ['4111 1111 1111 1111:0.99']);
    assert.deepEqual(cards(`card 5555-5555-5555-4444${space}2027`), ['5555-5555-5555-4444:0.99']);
    assert.deepEqual(cards(`Amex 3782 822463 10005${space}756`), ['3782 822463 10005:0.99']);
  }
  // Cut only at a space, never inside a hyphenated run; a run whose groups make no card stays untouched.
  assert.deepEqual(cards('ref 4111-1111-1111-1111-81'), []);
  assert.deepEqual(cards('ticket 4111 1111 1111 1112 81'), []);
});

test('a short card is not cut from the front of a longer grouped number', () => {
  // 5901 0237 5821 passes Luhn as a 12-digit Maestro, but here it is the front of 23 digits in groups.
  assert.deepEqual(cards('x 5901 0237 5821 0945 0725 813 y'), []);
});
