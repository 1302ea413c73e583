import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Bm25Index } from './bm25.js';
import { checkClaim } from './index.js';
import { contentTerms } from './terms.js';

describe('Bm25Index', () => {
  it('ranks the sentence that shares the rare terms first', () => {
    const docs = [
      'The weather was mild in spring.',
      'The Kessel Bridge opened to traffic in 1998.',
      'The bridge club meets every Monday.',
    ].map((t) => ({ terms: contentTerms(t) }));
    const index = new Bm25Index(docs);
    const query = new Map(contentTerms('When did the Kessel Bridge open?').map((t) => [t, 1]));
    assert.equal(index.search(query, 3)[0]?.doc, 1);
    const [kessel, bridge] = contentTerms('Kessel bridge');
    assert.ok(index.idf(kessel!) > index.idf(bridge!));
  });

  it('returns nothing for a query without known terms', () => {
    const index = new Bm25Index([{ terms: contentTerms('alpha beta') }]);
    assert.deepEqual(index.search(new Map([['gamma', 1]]), 5), []);
  });
});

describe('retrieval in checkClaim', () => {
  it('points the evidence at the source that states the fact, among decoys', () => {
    const sources = [
      'Harlow Logistics was founded in Bristol in 2015. It employs 980 people.',
      'The weather in Leeds was wet last year.',
      'Harlow Robotics was founded in Leeds in March 2011. The company employs 1,250 people.',
    ];
    const r = checkClaim('Harlow Robotics has 1,250 employees.', sources);
    assert.equal(r.verdict, 'supported');
    assert.equal(r.evidence[0]?.source_index, 2);
    assert.match(r.evidence[0]!.match, /1,250 people/);
  });
});
