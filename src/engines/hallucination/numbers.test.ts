import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractNumbers, parseLocaleNumber, relateNumbers } from './numbers.js';

const one = (text: string) => {
  const list = extractNumbers(text);
  assert.equal(list.length, 1, `one number in "${text}", got ${JSON.stringify(list)}`);
  return list[0]!;
};

describe('parseLocaleNumber', () => {
  it('reads digit grouping and decimal commas of EN, FR and DE', () => {
    assert.equal(parseLocaleNumber('1,250'), 1250);
    assert.equal(parseLocaleNumber('1.250'), 1250);
    assert.equal(parseLocaleNumber('1 250 000'), 1250000);
    assert.equal(parseLocaleNumber('2,5'), 2.5);
    assert.equal(parseLocaleNumber('2.5'), 2.5);
    assert.equal(parseLocaleNumber('1,234.5'), 1234.5);
    assert.equal(parseLocaleNumber('1.234,5'), 1234.5);
  });
});

describe('extractNumbers', () => {
  it('applies scale words and units', () => {
    assert.equal(one('about 1.5 million euros').value, 1_500_000);
    assert.equal(one('2,5 Millionen Euro').dim, 'eur');
    assert.equal(one('a length of 2.4 kilometres').value, 2400);
    assert.equal(one('2,400 metres long').value, 2400);
  });

  it('reads number words in three languages', () => {
    assert.equal(one('twenty-five people').value, 25);
    assert.equal(one('vingt-cinq personnes').value, 25);
    assert.equal(one('fünfundzwanzig Personen').value, 25);
    assert.equal(one('zwei Wochen').value, 14 * 86400);
  });

  it('reads compound number words: hundreds with "and", French twenties, German one-word numbers', () => {
    assert.equal(one('one hundred and twenty people').value, 120);
    assert.equal(one('two thousand and five people').value, 2005);
    assert.equal(one('quatre-vingt-dix personnes').value, 90);
    assert.equal(one('quatre-vingts personnes').value, 80);
    assert.equal(one('soixante-dix-sept personnes').value, 77);
    assert.equal(one('vingt et un salariés').value, 21);
    assert.equal(one('deux cents salariés').value, 200);
    assert.equal(one('nonante salariés').value, 90);
    assert.equal(one('zweihundertfünfzig Personen').value, 250);
    assert.equal(one('dreitausendvierhundert Personen').value, 3400);
    assert.equal(one('hundertzwanzig Personen').value, 120);
    assert.equal(one('zwölftausend Personen').value, 12000);
    assert.equal(one('dreihundert Meter').value, 300);
  });

  it('keeps lists and look-alike words apart from written numbers', () => {
    assert.equal(extractNumbers('two and three rooms').length, 2);
    assert.equal(
      extractNumbers('im neunzehnten Jahrhundert gegründet').filter((n) => n.kind === 'cardinal').length,
      0,
    );
    assert.equal(extractNumbers('Tausende Besucher und Hunderte Autos').length, 0);
    assert.equal(extractNumbers('the foundation of the fund').length, 0);
  });

  it('marks approximations, bounds, ordinals and years', () => {
    assert.equal(one('roughly 300 staff').approx, true);
    assert.equal(one('at least 10 books').bound, 'lower');
    assert.equal(one('bis zu 15 Medien').bound, 'upper');
    assert.equal(one('the third album').kind, 'ordinal');
    assert.equal(one('am 3. Platz').kind, 'ordinal');
    assert.equal(one('founded in 2011').kind, 'year');
  });

  it('converts Fahrenheit to Celsius', () => {
    assert.ok(Math.abs(one('212 °F').value - 100) < 1e-9);
  });
});

describe('relateNumbers', () => {
  const rel = (a: string, b: string) => relateNumbers(one(a), one(b));
  it('matches conversions and restatements', () => {
    assert.equal(rel('two weeks', '14 days'), 'match');
    assert.equal(rel('1,250 people', '1.250 Menschen'), 'match');
    assert.equal(rel('3 months', '12 weeks'), 'match');
    assert.equal(rel('5 miles', '8 km'), 'match');
  });
  it('flags a different value, a bound crossed and opposite bounds', () => {
    assert.equal(rel('1,520 people', '1,250 people'), 'conflict');
    assert.equal(rel('more than 2,000 people', '1,250 people'), 'conflict');
    assert.equal(rel('at least 10 books', 'up to 10 books'), 'conflict');
    assert.equal(rel('more than 1,000 people', '1,250 people'), 'match');
  });
  it('tolerates approximations', () => {
    assert.equal(rel('about 200 patients', '210 patients'), 'match');
    assert.equal(rel('200 patients', '210 patients'), 'conflict');
  });
  it('does not compare quantities of different dimensions', () => {
    assert.equal(rel('10 books', 'three weeks'), 'unrelated');
  });
});

describe('cents', () => {
  it('is French hundreds after two to nine, and money (no number word) otherwise', () => {
    assert.equal(one('quatre cents habitants').value, 400);
    assert.ok(!extractNumbers('it cost twenty cents').some((n) => n.value === 2000));
    assert.ok(!extractNumbers('a few cents more').some((n) => n.value === 100));
  });
});
