import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkClaim, SIGNAL_NAMES } from './index.js';
import { canonical } from './terms.js';
import { tokenize } from './text.js';

const term = (w: string) => canonical(tokenize(w)[0]!);

describe('irregular word forms (en, fr, de)', () => {
  it('reads the forms of one verb as one term', () => {
    assert.equal(term('wrote'), term('written'));
    assert.equal(term('writes'), term('written'));
    assert.equal(term('schrieb'), term('geschrieben'));
    assert.equal(term('entwarf'), term('entworfen'));
    assert.equal(term('écrit'), term('écrire'));
    assert.equal(term('vaincu'), term('vainquit'));
    // A form already in a synonym group joins it: "won" and "earned", so "win" too.
    assert.equal(term('win'), term('earned'));
  });

  it('keeps look-alike words apart', () => {
    assert.notEqual(term('found'), term('find'));
    assert.notEqual(term('left'), term('leave'));
    assert.notEqual(term('write'), term('sell'));
  });

  it('counts a claim in another tense as covered by its source', () => {
    const at = SIGNAL_NAMES.indexOf('coverage');
    const source = ['Der Roman wurde 1990 von Anna Weber geschrieben. Er spielt in Wien.'];
    const r = checkClaim('Anna Weber schrieb den Roman 1990.', source, { signals: true });
    assert.ok(r.claims[0]!.signals![at]! > 0.99, `coverage ${r.claims[0]!.signals![at]}`);
  });

  it('reads a light verb and its noun as the verb ("gave a lecture" = "lectured"), and only before an article', () => {
    const at = SIGNAL_NAMES.indexOf('coverage');
    const cov = (claim: string, source: string) =>
      checkClaim(claim, [source], { signals: true }).claims[0]!.signals![at]!;
    const en = 'In Bergen, Mara Lind lectured on glaciers for the Arctic Society.';
    assert.ok(cov('Mara Lind gave a lecture on glaciers in Bergen.', en) > 0.99);
    const fr = 'À Nantes, le comité a visité le chantier naval en mai.';
    assert.ok(cov('Le comité a effectué une visite du chantier naval à Nantes.', fr) > 0.99);
    // "made cars" is manufacturing: the verb stays a word the source must state.
    assert.ok(cov('The Orlen works made cars in Turin.', 'The Orlen works sold cars in Turin.') < 0.99);
  });
});
