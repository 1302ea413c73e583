import assert from 'node:assert/strict';
import { test } from 'node:test';
import { wordHint } from './context.js';

test('wordHint says maybe wherever the /iu pattern can match, and no on ordinary capitals', () => {
  const words = 'kennwort|passwort';
  const hint = wordHint(words);
  const exact = new RegExp(words, 'iu');
  const texts = [
    'Das KENNWORT lautet Sommer2024',
    'Kunde Keller, OK', // capital K, no keyword: the cheap scan settles it
    'das \u212Aennwort lautet', // Kelvin sign: folds onto k under /iu only
    'das pa\u017Fswort lautet', // long s: folds onto s under /iu only
    'nothing here',
  ];
  for (const t of texts) {
    if (exact.test(t)) assert.equal(hint(t), true, t);
  }
  assert.equal(hint('Kunde Keller, OK'), false);
  assert.equal(hint('das \u212Aennwort lautet'), true);
  assert.equal(hint('das pa\u017Fswort lautet'), true);
});
