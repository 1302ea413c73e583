import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dateCovers, datesCompatible, extractDates } from './dates.js';

const one = (text: string) => {
  const list = extractDates(text);
  assert.equal(list.length, 1, `one date in "${text}"`);
  return list[0]!;
};

describe('extractDates', () => {
  it('reads EN, FR and DE formats to the same date', () => {
    for (const text of [
      'on 3 March 2019',
      'on March 3, 2019',
      'le 3 mars 2019',
      'am 3. März 2019',
      '2019-03-03',
      '03.03.2019',
    ]) {
      const d = one(text);
      assert.deepEqual([d.y, d.m, d.d], [2019, 3, 3], text);
    }
  });

  it('keeps both readings of an ambiguous numeric date', () => {
    const d = one('03/05/2019');
    assert.ok(dateCovers(d, { y: 2019, m: 5, d: 3, start: 0, end: 0 }));
    assert.ok(dateCovers(d, { y: 2019, m: 3, d: 5, start: 0, end: 0 }));
  });

  it('reads month-and-year and a month alone after a time word', () => {
    assert.deepEqual([one('in March 2011').y, one('in March 2011').m], [2011, 3]);
    assert.equal(one('every July').m, 7);
    assert.equal(extractDates('it may rain').length, 0);
  });
});

describe('date comparison', () => {
  it('tells a conflict from a less specific date', () => {
    const full = one('14 June 1998');
    assert.equal(datesCompatible(full, one('June 1998')), true);
    assert.equal(dateCovers(full, one('June 1998')), true);
    assert.equal(dateCovers(one('June 1998'), full), false);
    assert.equal(datesCompatible(full, one('14 June 2001')), false);
  });
});
