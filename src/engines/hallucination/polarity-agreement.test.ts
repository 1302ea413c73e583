import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkClaim } from './index.js';
import { prefixAntonyms } from './polarity.js';

// Passages written for these tests: each states something with a word whose opposite a claim may negate.
const EN = [
  'The Lindqvist Museum is closed on Mondays. Admission to the permanent collection is free for every visitor. Photography is forbidden in the east wing. The painter of the oldest portrait in the collection is unknown. The director was absent from the opening of the glass gallery.',
  'The Harbour Theatre in Tolby opened in 1931 and seats 640 people.',
];
const FR = [
  "La piscine municipale de Corlay est fermée le dimanche. L'entrée est gratuite pour les enfants. La baignade est interdite dans l'étang du parc. L'origine du nom de la place reste inconnue.",
  'Le théâtre du port de Brissac a ouvert en 1931 et compte 640 places.',
];
const DE = [
  'Das Hallenbad in Wessling ist montags geschlossen. Für Kinder ist der Eintritt kostenlos. Das Angeln ist im Stausee verboten. Die Herkunft des Ortsnamens ist unbekannt.',
  'Das Hafentheater in Tolby wurde 1931 eröffnet und hat 640 Plätze.',
];

// The agreement is an option (CheckOptions.agreement, off by default: not shipped, docs/hallucination.md).
const rules = (claim: string, sources: string[], agreement = true) =>
  checkClaim(claim, sources, { verdict: 'rules', agreement }).verdict;
const learned = (claim: string, sources: string[]) => checkClaim(claim, sources, { agreement: true }).verdict;

describe('negation and antonym agree', () => {
  const agreeing: Array<[string, string[]]> = [
    ['The Lindqvist Museum is not open on Mondays.', EN],
    ['Visitors do not pay anything for admission to the permanent collection.', EN],
    ['Photography is not allowed in the east wing.', EN],
    ['The painter of the oldest portrait in the collection is not known.', EN],
    ['The director was not present at the opening of the glass gallery.', EN],
    ["La piscine municipale de Corlay n'est pas ouverte le dimanche.", FR],
    ["L'entrée ne coûte rien pour les enfants.", FR],
    ["La baignade n'est pas autorisée dans l'étang du parc.", FR],
    ["L'origine du nom de la place n'est pas connue.", FR],
    ['Das Hallenbad in Wessling ist montags nicht geöffnet.', DE],
    ['Für Kinder kostet der Eintritt nichts.', DE],
    ['Das Angeln ist im Stausee nicht erlaubt.', DE],
    ['Die Herkunft des Ortsnamens ist nicht bekannt.', DE],
  ];
  it('a negated claim stated by the opposite word is supported by the hand thresholds', () => {
    for (const [claim, sources] of agreeing) assert.equal(rules(claim, sources), 'supported', claim);
  });
  it('and never contradicted by the learned verdict', () => {
    for (const [claim, sources] of agreeing) assert.notEqual(learned(claim, sources), 'contradicted', claim);
  });
  it('is off by default: the shipped engine contradicts a negated claim against the opposite word', () => {
    assert.equal(rules('The Lindqvist Museum is not open on Mondays.', EN, false), 'contradicted');
  });
  it('an opposite word alone, or a negation alone, still contradicts', () => {
    const contradicting: Array<[string, string[]]> = [
      ['The Lindqvist Museum is open on Mondays.', EN],
      ['The Lindqvist Museum is not closed on Mondays.', EN],
      ['Photography is allowed in the east wing.', EN],
      ['Admission to the permanent collection is not free.', EN],
      ['La piscine municipale de Corlay est ouverte le dimanche.', FR],
      ["La baignade est autorisée dans l'étang du parc.", FR],
      ["L'entrée n'est pas gratuite pour les enfants.", FR],
      ['Das Hallenbad in Wessling ist montags geöffnet.', DE],
      ['Für Kinder ist der Eintritt nicht kostenlos.', DE],
    ];
    for (const [claim, sources] of contradicting) {
      assert.equal(rules(claim, sources), 'contradicted', claim);
      assert.equal(learned(claim, sources), 'contradicted', claim);
    }
  });
});

describe('negative prefixes', () => {
  it('pair a word with its prefixed opposite', () => {
    assert.ok(prefixAntonyms('known', 'unknown'));
    assert.ok(prefixAntonyms('impossible', 'possible'));
    assert.ok(prefixAntonyms('connue', 'inconnue'));
    assert.ok(prefixAntonyms('bekannt', 'unbekannt'));
    assert.ok(prefixAntonyms('agree', 'disagree'));
  });
  it('leave short roots and other beginnings alone', () => {
    assert.equal(prefixAntonyms('form', 'inform'), false);
    assert.equal(prefixAntonyms('known', 'wellknown'), false);
    assert.equal(prefixAntonyms('stated', 'restated'), false);
  });
});
