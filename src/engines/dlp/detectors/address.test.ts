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
  assert.deepEqual(addresses('Send it to PSC 4410, Box 2231\nAPO AE 09021 please'), [
    'PSC 4410, Box 2231\nAPO AE 09021',
  ]);
  assert.deepEqual(addresses('Our remit address is P.O. Box 88123, Fresno, CA 93744.'), [
    'P.O. Box 88123, Fresno, CA 93744',
  ]);
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
  assert.deepEqual(addresses('Wir wohnen Am Rosenhang 3, 8400 Winterthur.'), [
    'Am Rosenhang 3, 8400 Winterthur',
  ]);
  // No Swiss postcode is above 9658: the town is not taken after an impossible one.
  assert.deepEqual(addresses('Die Lieferung ging an Seefeldstrasse 40, CH-9900 Nirgendwo.'), [
    'Seefeldstrasse 40',
  ]);
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

test('German streets named by a preposition, with no street-type ending, and their confidence rules', () => {
  // A postcode and town after the street.
  assert.deepEqual(addresses('Die Ware geht an Am Bach 5, 79098 Freiburg im Breisgau.'), [
    'Am Bach 5, 79098 Freiburg im Breisgau',
  ]);
  assert.deepEqual(addresses('Treffpunkt: Zur Linde 3\n6020 Innsbruck'), ['Zur Linde 3\n6020 Innsbruck']);
  assert.deepEqual(addresses('Er ist nach Auf dem Berg 2a, 3011 Bern gezogen.'), [
    'Auf dem Berg 2a, 3011 Bern',
  ]);
  // An address word before it.
  assert.deepEqual(addresses('Herr Albrecht, wohnhaft Im Winkel 12, hat angerufen.'), ['Im Winkel 12']);
  assert.deepEqual(addresses('Lieferadresse: An der Alten Mühle 7'), ['An der Alten Mühle 7']);
  assert.deepEqual(addresses('Neue Anschrift ab Mai: Auf dem Berg 2/1'), ['Auf dem Berg 2/1']);
  // A line of its own in a block.
  assert.deepEqual(addresses('Gerda Hofstetter\nAm Kirchbühl 14\nOberndorf'), ['Am Kirchbühl 14']);
});

test('time, place and quantity phrases with the same openings are no address', () => {
  for (const text of [
    'Im Jahr 2020 kamen 300 Gäste.',
    'Am Montag 5 Personen, am Dienstag 7.',
    'Die Adresse folgt: Am Montag 5 Personen kommen.',
    'Lieferung Im Mai 2021 an alle Filialen.',
    'Wir liefern Im Schnitt 5 km weit.',
    'Bitte schicken Sie Zum Preis 20 Euro.',
    'Adresse ändern Im Raum 12 des Rathauses.',
    'Anschrift siehe Im Anhang 3.',
    'Die Sendung kam Am Freitag 5.3. an.',
    'Treffen Am Abend 18:30 bei Müller.',
    'Agenda\nAm Montag 5\nIm Jahr 2021',
    'Auf dem Podest standen Am Ende 3 Sieger.',
    'Zur Linde 3 Bier, bitte.',
  ]) {
    assert.deepEqual(addresses(text), [], text);
  }
  // A street of another shape in the same text no longer opens the gate to these phrases.
  assert.deepEqual(addresses('Im Jahr 2019 zog sie in die Hauptstraße 5, 10115 Berlin.'), [
    'Hauptstraße 5, 10115 Berlin',
  ]);
  assert.deepEqual(addresses('Am Montag 5 Kunden im Laden am Gartenweg 3.'), ['Gartenweg 3']);
});
