import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isTableRule, markdownToText } from './file.js';

test("a table's rule line is recognised as the pattern it replaced recognised it, on any line", () => {
  const rule = /^\s*\|?(\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$/;
  const alphabet = ['|', '-', '-', '-', ':', ' ', '\t', '\u00a0', 'x'];
  let seed = 5;
  for (let round = 0; round < 50_000; round++) {
    let line = '';
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const length = seed % 14;
    for (let i = 0; i < length; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      line += alphabet[seed % alphabet.length];
    }
    assert.equal(isTableRule(line), rule.test(line), JSON.stringify(line));
  }
});

test('markdown tables lose their rule line and pipes; a crafted rule line of 100,000 characters is read', () => {
  assert.equal(
    markdownToText('| Name | Amount |\n|---|:---:|\n| Rent | 1,200 |').replace(/\s+/g, ' ').trim(),
    'Name Amount Rent 1,200',
  );
  // What made the replaced pattern run for seconds on 800 characters, and for ever on more: runs of white
  // space (new lines included) it could split between its space runs in every way before failing.
  const crafted = `|${'\n\t'.repeat(2_000)}\n\t${'\t'.repeat(2_000)}---|\t${'\t'.repeat(20_000)}x`;
  assert.equal(isTableRule(crafted.split('\n').at(-1) ?? ''), false);
  assert.ok(markdownToText(`intro\n${crafted}\nend`).endsWith('end'));
});
