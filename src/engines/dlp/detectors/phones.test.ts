import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detectEntities } from '../index.js';
import { phoneRegionOf } from './phones.js';

function phones(text: string, phoneRegion?: string): string[] {
  return detectEntities(text, phoneRegion ? { phoneRegion } : {})
    .filter((e) => e.type === 'PHONE')
    .map((e) => e.value);
}

const ENGLISH = 'Please call Tom back on this number after six, he is at home tonight.';
const GERMAN = 'Bitte rufen Sie Tom unter dieser Nummer nach sechs zurück, er ist heute Abend zu Hause.';

test('a number in the British national format, invalid in Britain, stays British in English text', () => {
  // 07700 900xxx and 01632 960xxx are Ofcom's ranges for drama; in Germany 07700 900893 is a valid number.
  assert.equal(phoneRegionOf(ENGLISH, '07700 900893'), 'GB');
  assert.equal(phoneRegionOf(ENGLISH, '01632 960123'), 'GB');
  assert.equal(phoneRegionOf(ENGLISH, '07700900893'), 'GB');
  // The organization's region decides before the text's language.
  assert.equal(phoneRegionOf(GERMAN, '07700 900893', 'GB'), 'GB');
  // Found whole, as the phone of that region it is written as.
  assert.deepEqual(phones('Call Tom on 07700 900893 after six.'), ['07700 900893']);
  assert.deepEqual(phones('Her mobile is 07700 900461, his landline 01632 960123.'), [
    '07700 900461',
    '01632 960123',
  ]);
});

test('what must keep working around the British rule', () => {
  // German national numbers in German text and for a German organization.
  assert.equal(phoneRegionOf(GERMAN, '07700 900893'), 'DE');
  assert.equal(phoneRegionOf(ENGLISH, '07700 900893', 'DE'), 'DE');
  assert.deepEqual(phones('Sie erreichen mich unter 030 12345678 am Nachmittag.'), ['030 12345678']);
  // A German mobile in English text is impossible as a British number: the fallback still reads it.
  assert.equal(phoneRegionOf(ENGLISH, '0151 23456789'), 'DE');
  assert.deepEqual(phones('You can call my German mobile on 0151 23456789 tomorrow.'), ['0151 23456789']);
  // A French number in English text is grouped as France groups it, not as Britain would.
  assert.equal(phoneRegionOf(ENGLISH, '01 42 68 53 00'), 'FR');
  // A Swiss number in German text, a valid British one in English text.
  assert.deepEqual(phones('Rufen Sie 044 668 18 00 an.'), ['044 668 18 00']);
  assert.equal(phoneRegionOf(ENGLISH, '020 7946 0958'), 'GB');
  // International forms carry their own country, whatever the text or the organization.
  assert.deepEqual(phones('Call Tom on +49 7700 900893 after six.', 'GB'), ['+49 7700 900893']);
  assert.deepEqual(phones('Call Tom on 0049 30 1234567.'), ['0049 30 1234567']);
});

test('a phone after another number or an id is found when it starts a number of its own', () => {
  // A '+' starts a number; an id of letters and digits ends with its word.
  for (const space of [' ', '\u00a0', '\u202f']) {
    assert.deepEqual(phones(`Tel. 044 668 18 00${space}+33 6 37 85 28 64`), [
      `044 668 18 00`,
      '+33 6 37 85 28 64',
    ]);
    assert.deepEqual(phones(`Réf. 10EB14064${space}021 488 11 22`), ['021 488 11 22']);
  }
  // A run that goes on from digit groups before it is still a fragment of that longer number.
  assert.deepEqual(phones('Compte 1 85 05 78 044 668 18 00'), []);
  assert.deepEqual(phones('Ref 12.34.044 668 18 00'), []);
});
