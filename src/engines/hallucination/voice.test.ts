import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkClaim, SIGNAL_NAMES } from './index.js';
import { tokenize } from './text.js';
import { actionOrder, findPassive } from './voice.js';

const order = (text: string, lang: string) => actionOrder(text, tokenize(text), lang);
const passive = (text: string, lang: string) => findPassive(text, tokenize(text), lang) !== null;

describe('active/passive voice', () => {
  it('finds passives with an agent in EN, FR and DE, and nothing in actives', () => {
    assert.equal(passive('The bridge was designed by Anna Weber.', 'en'), true);
    assert.equal(passive('The bridge was originally designed in 1990 by Anna Weber.', 'en'), true);
    assert.equal(passive('Le pont a été conçu par Anna Weber.', 'fr'), true);
    assert.equal(passive('Die Brücke wurde 1990 von Anna Weber entworfen.', 'de'), true);
    assert.equal(passive('Anna Weber designed the bridge.', 'en'), false);
    assert.equal(passive('The bridge was opened in 1990.', 'en'), false);
    // A noun after an article is no participle: a work and its author.
    assert.equal(passive('Nightfall is a novel by Anna Weber.', 'en'), false);
    assert.equal(passive('Die Brücke ist 300 Meter lang.', 'de'), false);
  });

  it('reads a passive in active order: agent, verb, object, then the rest', () => {
    assert.deepEqual(
      order('The bridge was designed by Anna Weber', 'en'),
      order('Anna Weber designed the bridge', 'en'),
    );
    assert.deepEqual(
      order('The novel was written by Jane Austen', 'en'),
      order('Jane Austen wrote the novel', 'en'),
    );
    assert.deepEqual(
      order('Le pont a été conçu par Anna Weber', 'fr'),
      order('Anna Weber a conçu le pont', 'fr'),
    );
    assert.deepEqual(
      order('Die Firma wurde von Otto Kessler gegründet', 'de'),
      order('Otto Kessler gründete die Firma', 'de'),
    );
    // An irregular German past and its participle are one verb (the word-form groups).
    assert.deepEqual(
      order('Die Brücke wurde von Anna Weber entworfen', 'de'),
      order('Anna Weber entwarf die Brücke', 'de'),
    );
    // Roles reversed are a different order.
    assert.notDeepEqual(
      order('Jane Austen was defeated by Mary Shelley', 'en'),
      order('Jane Austen defeated Mary Shelley', 'en'),
    );
  });

  it('gives a passive paraphrase the word pairs of its active source, and not a role reversal', () => {
    const source = ['Arsenal defeated Chelsea in the final of the 1950 cup. The match was played in London.'];
    const at = SIGNAL_NAMES.indexOf('bigram_share_voice');
    const mismatch = SIGNAL_NAMES.indexOf('voice_mismatch');
    const sig = (claim: string) => checkClaim(claim, source, { signals: true }).claims[0]!.signals!;
    const same = sig('Chelsea were defeated by Arsenal in the final.');
    const reversed = sig('Arsenal were defeated by Chelsea in the final.');
    assert.equal(same[at], 1);
    assert.equal(same[mismatch], 1);
    assert.ok(reversed[at]! < same[at]!, `${reversed[at]} < ${same[at]}`);
  });
});
