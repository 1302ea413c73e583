import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detectEntities } from '../index.js';

function addresses(text: string): string[] {
  return detectEntities(text)
    .filter((e) => e.type === 'ADDRESS')
    .map((e) => e.value);
}

test('US: street, unit, city, state and ZIP, on one line or several', () => {
  assert.deepEqual(addresses('Ship it to 4417 Cedar Hollow Rd, Apt 12, Dayton, OH 45402 before Friday.'), [
    '4417 Cedar Hollow Rd, Apt 12, Dayton, OH 45402',
  ]);
  assert.deepEqual(addresses('Billing:\n72 N Fairview Ave Suite 300\nBoise, ID 83702\n\nThanks'), [
    '72 N Fairview Ave Suite 300\nBoise, ID 83702',
  ]);
  assert.deepEqual(addresses('Mail goes to Unit 9\n118 Larkspur Terrace\nTopeka, KS 66603 now.'), [
    'Unit 9\n118 Larkspur Terrace\nTopeka, KS 66603',
  ]);
  // Military and post-office boxes.
  assert.deepEqual(addresses('Send it to PSC 4410, Box 2231\nAPO AE 09021 please'), ['PSC 4410, Box 2231\nAPO AE 09021']);
  assert.deepEqual(addresses('Our remit address is P.O. Box 88123, Fresno, CA 93744.'), ['P.O. Box 88123, Fresno, CA 93744']);
  // A street named after a person stays one address.
  assert.deepEqual(addresses('He lives at 900 Martin Luther King Jr Blvd, Austin, TX 78702.'), [
    '900 Martin Luther King Jr Blvd, Austin, TX 78702',
  ]);
});

test('UK: flat and building lines, town and postcode', () => {
  assert.deepEqual(addresses('Deliver to Flat 6, Juniper House, 21 Albion Street, Leeds LS2 8ER please.'), [
    'Flat 6, Juniper House, 21 Albion Street, Leeds LS2 8ER',
  ]);
  assert.deepEqual(addresses('Address:\n14 Kingsmead\nNorwich\nNR3 2QT\nUnited Kingdom'), [
    '14 Kingsmead\nNorwich\nNR3 2QT\nUnited Kingdom',
  ]);
});

test('German, Austrian and Swiss street forms with a checked postcode', () => {
  assert.deepEqual(addresses('Bitte an Lerchenfeldstraße 17a, 2. OG, 90402 Nürnberg senden.'), [
    'Lerchenfeldstraße 17a, 2. OG, 90402 Nürnberg',
  ]);
  assert.deepEqual(addresses('Neue Anschrift: Untere Viaduktgasse 8/4\n1030 Wien\nÖsterreich'), [
    'Untere Viaduktgasse 8/4\n1030 Wien\nÖsterreich',
  ]);
  assert.deepEqual(addresses('Wir wohnen Am Rosenhang 3, 8400 Winterthur.'), ['Am Rosenhang 3, 8400 Winterthur']);
  // No Swiss postcode is above 9658: the town is not taken after an impossible one.
  assert.deepEqual(addresses('Die Lieferung ging an Seefeldstrasse 40, CH-9900 Nirgendwo.'), ['Seefeldstrasse 40']);
});

test('French and Italian street forms, units, province and CEDEX', () => {
  assert.deepEqual(addresses('Le dossier est au 8 bis avenue des Peupliers, Bât. C, 44300 Nantes.'), [
    '8 bis avenue des Peupliers, Bât. C, 44300 Nantes',
  ]);
  assert.deepEqual(addresses('Écrire au 3 rue de la Verrerie\n13002 Marseille CEDEX 2\nFrance'), [
    '3 rue de la Verrerie\n13002 Marseille CEDEX 2\nFrance',
  ]);
  assert.deepEqual(addresses('Spedire a Via delle Ginestre 14, interno 3, 50135 Firenze FI.'), [
    'Via delle Ginestre 14, interno 3, 50135 Firenze FI',
  ]);
  assert.deepEqual(addresses("L'ufficio è in Piazza Cavour 2\n10123 Torino TO\nItalia"), [
    'Piazza Cavour 2\n10123 Torino TO\nItalia',
  ]);
});

test('numbers and capitalised words that are no address', () => {
  for (const text of [
    'We drove 3 miles down the road before the 2 lakes.',
    'Order 55120 for Berlin Ltd left the warehouse.',
    'In 2019 1500 Besucher kamen nach Zürich.',
    'Version 4.2 Park Edition ships in 12 Countries.',
    'Il 12 marzo alle 14 in Sala Verdi.',
  ]) {
    assert.deepEqual(addresses(text), [], text);
  }
});
