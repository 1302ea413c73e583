import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchesOf } from './matches.js';

const shape = (ms: RegExpExecArray[]) => ms.map((m) => [m.index, ...m]);

test('matchesOf gives the matches of matchAll, empty matches and surrogate pairs included', () => {
  const cases: Array<[RegExp, string]> = [
    [/\d+/g, 'a 12 b 345 c'],
    [/(\d)(?<x>[a-z])?/g, '1a 2 3b'],
    [/x*/g, 'axxb'],
    [/x*/gu, '😀x😀'], // an empty match before a pair steps over the whole pair under /u
    [/x*/g, '😀x😀'], // and over one code unit without it
    [/(?<![\p{L}])\p{L}+/gu, 'Zoë 😀 Åsa'],
    [/\b/g, 'two words'],
  ];
  for (const [re, text] of cases) {
    assert.deepEqual(shape(matchesOf(re, text)), shape([...text.matchAll(re)]), `${re} on ${text}`);
    assert.equal(re.lastIndex, 0);
  }
});

test('matchesOf starts from the beginning whatever the pattern was left at, and refuses a non-global one', () => {
  const re = /\d/g;
  re.lastIndex = 3;
  assert.deepEqual(
    matchesOf(re, '1 2 3').map((m) => m.index),
    [0, 2, 4],
  );
  assert.throws(() => matchesOf(/\d/, '1'), TypeError);
});
