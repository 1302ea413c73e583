import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ALL_FACTS, type Case, casesFor, splitOf } from './cases.js';

const read = (part: string): Case[] =>
  readFileSync(new URL(`./cases/${part}.jsonl`, import.meta.url), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Case);

describe('team hallucination cases', () => {
  const tuning = read('tuning');
  const test = read('test');

  it('has at least 400 cases in three languages', () => {
    assert.ok(tuning.length + test.length >= 400);
    for (const lang of ['en', 'fr', 'de']) assert.ok(test.some((c) => c.lang === lang));
  });

  it('keeps test facts apart from tuning facts', () => {
    const tuningFacts = new Set(tuning.map((c) => c.fact));
    assert.ok(test.every((c) => !tuningFacts.has(c.fact)));
    assert.ok(ALL_FACTS.every((f) => (splitOf(f) === 'test') === test.some((c) => c.fact === f.id)));
  });

  it('matches what the generator writes (run generate.ts after editing facts)', () => {
    const expected = ALL_FACTS.filter((f) => splitOf(f) === 'test').flatMap(casesFor);
    assert.deepEqual(test, expected);
  });

  it('points gold_source at the document that states the fact', () => {
    for (const c of [...tuning, ...test]) {
      const fact = ALL_FACTS.find((f) => f.id === c.fact)!;
      assert.equal(c.sources[c.gold_source], fact.doc, c.id);
    }
  });
});
