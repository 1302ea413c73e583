import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { derivedRoot, sharesRoot } from './derivation.js';
import { checkClaim } from './index.js';
import { prepare } from './prepare.js';

const family = (a: string, b: string, lang: string) =>
  sharesRoot(prepare(a).words[0]!, prepare(b).words, lang);

describe('word families (fr/de)', () => {
  it('join a noun made from a verb with the verb forms', () => {
    assert.ok(family('Eröffnung', 'eröffnet', 'de'));
    assert.ok(family('Gründung', 'gegründet', 'de'));
    assert.ok(family('Herstellung', 'hergestellt', 'de'));
    assert.ok(family('Finanzierung', 'finanziert', 'de'));
    assert.ok(family('Entwicklung', 'entwickelt', 'de'));
    assert.ok(family('construction', 'construit', 'fr'));
    assert.ok(family('production', 'produit', 'fr'));
    assert.ok(family('exposition', 'exposé', 'fr'));
  });
  it('leave short roots, other words and English alone', () => {
    assert.equal(family('Gebiet', 'bietet', 'de'), false);
    assert.equal(family('Wasser', 'Wetter', 'de'), false);
    assert.equal(family('station', 'statue', 'fr'), false);
    assert.equal(family('Eröffnung', 'eröffnet', 'en'), false);
    assert.equal(derivedRoot('leitung', 'de'), 'leitung');
  });
});

describe('a claim worded through a noun of the verb family', () => {
  const DE = [
    'Das Stadtmuseum von Karsfeld wurde 1998 eröffnet. Die Stiftung Lenzinger hat den Umbau finanziert. Die Glasfenster hat eine Werkstatt in Passau hergestellt.',
    'Der Bahnhof von Karsfeld liegt drei Kilometer außerhalb der Altstadt.',
  ];
  const FR = [
    "Le pont de Valcourt a été construit en 1874. L'atelier Morel a produit les vitraux de la chapelle en 1902.",
    'La gare de Valcourt se trouve à trois kilomètres du centre.',
  ];
  // Word families are part of the agreement option (CheckOptions.agreement, off by default: not shipped).
  const rules = (claim: string, sources: string[], agreement = true) =>
    checkClaim(claim, sources, { verdict: 'rules', agreement }).verdict;
  it('is supported by the hand thresholds', () => {
    assert.equal(rules('Die Eröffnung des Stadtmuseums von Karsfeld war 1998.', DE), 'supported');
    assert.equal(rules('Die Finanzierung des Umbaus übernahm die Stiftung Lenzinger.', DE), 'supported');
    assert.equal(
      rules('Die Herstellung der Glasfenster erfolgte in einer Werkstatt in Passau.', DE),
      'supported',
    );
    assert.equal(rules('La construction du pont de Valcourt date de 1874.', FR), 'supported');
    assert.equal(
      rules("La production des vitraux de la chapelle est l'œuvre de l'atelier Morel.", FR),
      'supported',
    );
  });
  it('is off by default', () => {
    assert.equal(
      rules('Die Finanzierung des Umbaus übernahm die Stiftung Lenzinger.', DE, false),
      'unsupported',
    );
  });
  it('still contradicted when a detail differs', () => {
    assert.equal(rules('Die Eröffnung des Stadtmuseums von Karsfeld war 2004.', DE), 'contradicted');
    assert.equal(rules('La construction du pont de Valcourt date de 1911.', FR), 'contradicted');
  });
});
