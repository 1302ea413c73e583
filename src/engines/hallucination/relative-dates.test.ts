import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkClaim } from './index.js';
import { prepare } from './prepare.js';
import { resolveRelativeYears } from './relative-dates.js';

const years = (texts: string[]) => {
  const list = texts.map(prepare);
  resolveRelativeYears(list);
  return list.map((p) => p.numbers.filter((n) => n.kind === 'year').map((n) => n.value));
};

describe('relative years', () => {
  it('resolves "N years later/earlier" and "the following year" in EN, FR and DE', () => {
    assert.deepEqual(years(['The firm was founded in 2011.', 'Two years later it opened a plant.']), [
      [2011],
      [2013],
    ]);
    assert.deepEqual(years(["L'usine a ouvert en 2015.", 'Trois ans plus tard, elle a fermé.']), [
      [2015],
      [2018],
    ]);
    assert.deepEqual(years(['Das Werk öffnete 2010.', 'Im folgenden Jahr wurde es erweitert.']), [
      [2010],
      [2011],
    ]);
    assert.deepEqual(years(['It closed in 2020.', 'Five years earlier it had 900 staff.']), [[2020], [2015]]);
  });

  it('leaves a relative phrase alone when no year came before', () => {
    assert.deepEqual(years(['Two years later it opened a plant.']), [[]]);
  });

  it('lets a claim with the absolute year be checked', () => {
    const sources = [
      'Harlow Robotics was founded in Leeds in 2011. Two years later it opened a plant in Hull.',
    ];
    assert.equal(checkClaim('Harlow Robotics opened a plant in Hull in 2013.', sources).verdict, 'supported');
    assert.equal(
      checkClaim('Harlow Robotics opened a plant in Hull in 2016.', sources).verdict,
      'contradicted',
    );
  });
});
