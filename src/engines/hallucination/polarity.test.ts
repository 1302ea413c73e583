import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { antonymConflict, negationCount, scaleConflict } from './polarity.js';
import { tokenize } from './text.js';

const neg = (s: string) => negationCount(s, tokenize(s)) % 2 === 1;

describe('negation', () => {
  it('finds negation cues in EN, FR and DE', () => {
    assert.equal(neg('The plant does not sell robots.'), true);
    assert.equal(neg("The plant doesn't sell robots."), true);
    assert.equal(neg('The plant never opened.'), true);
    assert.equal(neg("L'usine ne vend pas de robots."), true);
    assert.equal(neg("L'usine n'a jamais ouvert."), true);
    assert.equal(neg('Das Werk verkauft keine Roboter.'), true);
    assert.equal(neg('Das Werk wurde nicht eröffnet.'), true);
  });
  it('does not see negation in affirmative sentences', () => {
    assert.equal(neg('The plant sells robots.'), false);
    assert.equal(neg("L'usine vend des robots."), false);
    assert.equal(neg('Das Werk verkauft Roboter.'), false);
  });
});

describe('antonyms', () => {
  const ant = (a: string, b: string) => antonymConflict(tokenize(a), tokenize(b));
  it('flags opposite words across claim and evidence', () => {
    assert.ok(ant('Blood pressure increased.', 'Blood pressure decreased.'));
    assert.ok(ant('La chasse est autorisée.', 'La chasse est interdite.'));
    assert.ok(ant('Die Jagd ist erlaubt.', 'Die Jagd ist verboten.'));
  });
  it('stays quiet when both sides agree', () => {
    assert.equal(ant('Blood pressure decreased.', 'Blood pressure decreased by 11 mmHg.'), null);
  });
});

describe('quantifiers', () => {
  const q = (a: string, b: string) => scaleConflict(tokenize(a), tokenize(b));
  it('flags all vs some, often vs rarely, must vs may', () => {
    assert.ok(q('All employees work remotely.', 'Some employees work remotely.'));
    assert.ok(q('Side effects occur frequently.', 'Side effects occur rarely.'));
    assert.ok(q('Nebenwirkungen treten häufig auf.', 'Nebenwirkungen treten selten auf.'));
    assert.ok(q('Les salariés doivent télétravailler.', 'Les salariés peuvent télétravailler.'));
  });
  it('accepts a claim narrower than its evidence', () => {
    assert.equal(q('Some employees work remotely.', 'All employees work remotely.'), null);
  });
});
